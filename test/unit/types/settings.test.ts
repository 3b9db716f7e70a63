import { describe, expect, it } from 'vitest';
import { defaultSettings, displayedList, facetOrder, maskSecret } from '../../../src/types/settings.js';

describe('maskSecret', () => {
  it.each([
    ['short', 'XXX...'],
    ['0123456789', '01XXXX...'],
    ['01234567890123456789', '012XXXXX...'],
    ['My super secret key that is long', 'My suXXXXXX...'],
    // lengths and cuts in UTF-8 bytes, as Meilisearch's, a character the cut would split kept whole
    ['ключик', 'кXXXX...'],
    ['🔑🔑🔑', '🔑XXXX...'],
    ['été-123456789', 'éXXXX...'],
    ['ab€' + 'x'.repeat(20), 'ab€XXXXX...'],
    // v1.50's own test of hide_secret
    ['ひらがな6789012345678901234567890', 'ひらXXXXXX...'],
  ])('masks %s as %s', (secret, expected) => {
    expect(maskSecret(secret)).toBe(expected);
  });
});

describe('displayedList', () => {
  it('lists every name, sorted and deduplicated, when every attribute is displayed', () => {
    expect(displayedList(['title', 'id', 'title'], ['*'])).toEqual({ visible: 2, text: 'id, title' });
  });

  it('leaves out the names not displayed, exact names only, and says some were hidden', () => {
    expect(displayedList(['title', 'id', 'doggo.name'], ['title', 'doggo'])).toEqual({ visible: 1, text: 'title, <..hidden-attributes>' });
    expect(displayedList(['title'], ['title', 'id'])).toEqual({ visible: 1, text: 'title' });
  });

  it('opens with the comma when every name is hidden, as v1.50 joins an empty list', () => {
    expect(displayedList(['title', 'genres'], ['id'])).toEqual({ visible: 0, text: ', <..hidden-attributes>' });
  });
});

describe('facetOrder', () => {
  it("takes a field's own entry, else `*`, else alpha: a field named like an Object member has none of its own", () => {
    const faceting = { maxValuesPerFacet: 100, sortFacetValuesBy: JSON.parse('{"*": "count", "__proto__": "alpha", "genre": "alpha"}') };
    expect(facetOrder({ faceting }, 'genre')).toBe('alpha');
    expect(facetOrder({ faceting }, '__proto__')).toBe('alpha');
    expect(facetOrder({ faceting }, 'constructor')).toBe('count');
    expect(facetOrder({ faceting }, 'toString')).toBe('count');
    expect(facetOrder(defaultSettings(), 'constructor')).toBe('alpha');
  });
});
