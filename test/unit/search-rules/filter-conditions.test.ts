// `conditions.filter` at search time (search-rules/filter-conditions.ts): the search's filter as
// v1.50's FilterConstraints reads it, each rule's values as its internal index holds them.
import { describe, expect, it } from 'vitest';
import { parseFilter } from '../../../src/engine/filter-parser/index.js';
import { applyFilterConditions, constraintCount, type FilterFuel } from '../../../src/search-rules/filter-conditions.js';
import type { SearchRule } from '../../../src/search-rules/rule.js';

const rule = (uid: string, values?: Record<string, unknown>): SearchRule => ({
  uid,
  active: true,
  conditions: values === undefined ? {} : { filter: { values } },
  actions: [],
});

const fuel = (): FilterFuel => ({ or: 100, and: 100, depth: 25, combinations: 4096 });

/** The uids of `rules` that stay under `filter`. */
function staying(rules: SearchRule[], filter: string | null, spent: FilterFuel = fuel()): string[] {
  const active = new Set(rules);
  applyFilterConditions(rules, active, filter === null ? null : parseFilter(filter), spent);
  return rules.filter((r) => active.has(r)).map((r) => r.uid);
}

describe('constraintCount', () => {
  it('counts strings, numbers and booleans, inside arrays and objects, not nulls', () => {
    expect(constraintCount({ a: 'x', b: [1, true, null], c: { d: 'y', e: [] } })).toBe(4);
    expect(constraintCount({})).toBe(0);
  });
});

describe('applyFilterConditions', () => {
  const genres = rule('genres', { genres: 'Action' });
  const both = rule('both', { genres: 'action', series: 'batman' });
  const plain = rule('plain');
  const empty = rule('empty', {});

  it('keeps rules without filter values or with none, and drops rules with values when the search has no filter', () => {
    expect(staying([genres, both, plain, empty], null)).toEqual(['plain', 'empty']);
  });

  it('keeps a rule when one conjunction constrains as many of its values', () => {
    expect(staying([genres, both], 'genres = ACTION')).toEqual(['genres']);
    expect(staying([genres, both], 'genres = action AND series = batman')).toEqual(['genres', 'both']);
    expect(staying([genres, both], 'genres = action OR series = batman')).toEqual(['genres']);
    expect(staying([genres, both], 'genres IN [drama, action] AND series = batman')).toEqual(['genres', 'both']);
    expect(staying([genres], 'genres = drama')).toEqual([]);
  });

  it('reads NOT through De Morgan: a negative condition keeps the rules it does not exclude, those without the field too', () => {
    const series = rule('series', { series: 'batman' });
    // genres != drama keeps every active rule but those holding drama: `series` included
    expect(staying([genres, series], 'genres != drama')).toEqual(['genres', 'series']);
    expect(staying([genres, series], 'NOT genres = action')).toEqual(['series']);
    // NOT (a OR b) is a conjunction of two negative targets
    expect(staying([both], 'NOT (genres = drama OR series = joker)')).toEqual(['both']);
  });

  it('compares numbers and strings as the facets do, and ranges on both', () => {
    const year = rule('year', { year: 1999 });
    const text = rule('text', { year: 'b' });
    expect(staying([year, text], 'year = 1999.0')).toEqual(['year']);
    expect(staying([year, text], 'year > 1990')).toEqual(['year', 'text']);
    expect(staying([year, text], 'year 1990 TO 2000')).toEqual(['year']);
    expect(staying([year, text], 'year < a')).toEqual([]);
    expect(staying([year, text], 'year EXISTS')).toEqual(['year', 'text']);
    expect(staying([year, text], 'year IS NULL')).toEqual([]);
  });

  it('holds nested values under their dotted path, arrays spread', () => {
    const nested = rule('nested', { meta: { tags: ['a', 'b'] } });
    expect(staying([nested], 'meta.tags = a AND meta.tags = b')).toEqual([]);
    expect(staying([rule('one', { meta: { tags: 'a' } })], 'meta.tags = a')).toEqual(['one']);
  });

  it('drops the rules of a constraint count once the combination fuel is spent', () => {
    const spent = { ...fuel(), combinations: 1 };
    expect(staying([genres], 'genres = action', spent)).toEqual([]);
  });
});
