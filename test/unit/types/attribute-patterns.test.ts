import { describe, expect, it } from 'vitest';
import { ascDescFields, localesOfField, matchingRule, matchLegacy, matchWildcard } from '../../../src/types/attribute-patterns.js';
import type { FilterableRule } from '../../../src/types/settings.js';

const rule = (attributePatterns: string[], equality = true, comparison = false, facetSearch = false): FilterableRule => ({
  attributePatterns,
  features: { facetSearch, filter: { equality, comparison } },
});

describe('attribute patterns', () => {
  it('legacy rules cover nested paths; `*` as a string is an ordinary attribute name', () => {
    expect(['a', 'a.b', 'ab', 'x'].map((field) => matchLegacy('a', field))).toEqual(['match', 'match', 'none', 'none']);
    expect(matchLegacy('a.b', 'a')).toBe('parent');
    expect(matchLegacy('*', 'title')).toBe('none');
  });

  it('wildcard patterns: *, prefix*, *suffix, *infix*, exact', () => {
    expect(['title', 'x.y'].map((field) => matchWildcard('*', field))).toEqual(['match', 'match']);
    expect(matchWildcard('price_*', 'price_eur')).toBe('match');
    expect(matchWildcard('*_date', 'release_date')).toBe('match');
    expect(matchWildcard('*tag*', 'hashtags')).toBe('match');
    expect(matchWildcard('doggos.*', 'doggos')).toBe('parent');
    expect(matchWildcard('title', 'title.x')).toBe('none');
  });

  it('the first matching rule decides the features', () => {
    const rules = [rule(['genre'], false, true), 'genre', rule(['*'])];
    expect(matchingRule('genre', rules)).toEqual({ index: 0, features: { facetSearch: false, equality: false, comparison: true } });
    expect(matchingRule('other', rules)).toEqual({ index: 2, features: { facetSearch: false, equality: true, comparison: false } });
    expect(matchingRule('other', ['genre'])).toBeNull();
  });

  it('takes the fields of asc/desc ranking rules, split at the last colon', () => {
    expect(ascDescFields(['words', 'year:desc', 'a:b:asc', 'sort'])).toEqual(['year', 'a:b']);
  });

  it('gives a field the locales of the first localized rule matching it', () => {
    const rules = [{ attributePatterns: ['*_ja'], locales: ['jpn'] }, { attributePatterns: ['*'], locales: [] }];
    expect(localesOfField(rules, 'title_ja')).toEqual(['jpn']);
    expect(localesOfField(rules, 'title')).toEqual([]);
    expect(localesOfField(null, 'title')).toBeUndefined();
  });
});
