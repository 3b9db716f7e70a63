import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FilterableRule } from '../../../../src/types/settings.js';
import { TestIndex } from '../facets/fixture.js';

const FILTERABLE = ['title', 'genre', 'price', 'year', 'tags', 'cattos', 'doggos', 'flag', 'notes', 'never'];

const DOCUMENTS = [
  { id: 1, title: 'Carol', genre: 'Drama', price: 12, year: 2015, tags: ['LGBT', 'romance'], cattos: 'pésti', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }] },
  { id: 2, title: 'Wonder Woman', genre: 'action', price: '12', year: 2017, tags: [], doggos: [{ name: 'Gros Bill', age: 8 }] },
  { id: 3, title: 'Life of Pi', genre: null, price: 12.5, year: '2012', tags: ['adventure'], cattos: ['simba', 'pestiféré'] },
  { id: 4, title: 'Mad Max', price: 3000, flag: true, notes: '' },
  { id: 5, title: 'Alien', genre: 'Horror', price: '2000', year: 1979, flag: false, notes: {}, doggos: [] },
];

let index: TestIndex;
beforeAll(() => {
  index = TestIndex.create({ filterableAttributes: FILTERABLE });
  index.write(DOCUMENTS);
});
afterAll(async () => {
  await index.close();
});

describe('equality', () => {
  it.each([
    ['genre = drama', [1]],
    ['genre = DRAMA', [1]],
    ['price = 12', [1, 2]],
    ['price = 12.0', [1]],
    ['price = "12"', [1, 2]],
    ['cattos = PÉSTI', [1]],
    ['cattos = pesti', []],
    ['flag = true', [4]],
    ['flag = false', [5]],
    ["title = 'Life of Pi'", [3]],
    ['tags = romance', [1]],
    ['cattos = simba', [3]],
    ['doggos.name = "gros bill"', [2]],
    ['never = 1', []],
  ])('%s', (filter, ids) => {
    expect(index.filter(filter)).toEqual(ids);
  });

  it('!= complements against every document, so documents without the field match', () => {
    expect(index.filter('genre != drama')).toEqual([2, 3, 4, 5]);
  });

  it('a condition on a path no document ever had matches nothing, even !=; its NOT matches all', () => {
    expect(index.filter('never != 1')).toEqual([]);
    expect(index.filter('NOT never = 1')).toEqual([1, 2, 3, 4, 5]);
  });

  it('IN is a union of equalities; NOT IN its complement; IN [] matches nothing', () => {
    expect(index.filter('genre IN [horror, DRAMA]')).toEqual([1, 5]);
    expect(index.filter('genre NOT IN [horror]')).toEqual([1, 2, 3, 4]);
    expect(index.filter('genre IN []')).toEqual([]);
  });
});

describe('comparison', () => {
  it.each([
    // numbers numerically, strings bytewise on their normalised form: "2000" < "3000"
    ['price < 3000', [1, 2, 3, 5]],
    ['price > 12', [3, 4, 5]],
    ['price >= 12', [1, 2, 3, 4, 5]],
    ['price <= 12', [1, 2]],
    ['year 2000 TO 2016', [1, 3]],
    ['year 2016 TO 2000', []],
    ['genre > a', [1, 2, 5]],
    ['genre < b', [2]],
    ['doggos.age > 3', [1, 2]],
    ['doggos.age 3 TO 4', [1]],
    ['price > inf', []],
    ['title >= "mad max"', [2, 4]],
  ])('%s', (filter, ids) => {
    expect(index.filter(filter)).toEqual(ids);
  });
});

describe('presence', () => {
  it('EXISTS counts every value, null and empty ones included', () => {
    expect(index.filter('genre EXISTS')).toEqual([1, 2, 3, 5]);
    expect(index.filter('genre NOT EXISTS')).toEqual([4]);
    expect(index.filter('doggos EXISTS')).toEqual([1, 2, 5]);
  });

  it('IS NULL is a null value of the key itself', () => {
    expect(index.filter('genre IS NULL')).toEqual([3]);
    expect(index.filter('genre IS NOT NULL')).toEqual([1, 2, 4, 5]);
  });

  it('IS EMPTY is "", [] or {} as the value of the key', () => {
    expect(index.filter('tags IS EMPTY')).toEqual([2]);
    expect(index.filter('notes IS EMPTY')).toEqual([4, 5]);
    expect(index.filter('doggos IS EMPTY')).toEqual([5]);
    expect(index.filter('notes IS NOT EMPTY')).toEqual([1, 2, 3]);
  });
});

describe('string operators', () => {
  it('CONTAINS looks for a substring of the normalised values', () => {
    expect(index.filter('title CONTAINS "ON"')).toEqual([2]);
    expect(index.filter('cattos CONTAINS ti')).toEqual([1, 3]);
    expect(index.filter('title NOT CONTAINS a')).toEqual([3]);
  });

  it('STARTS WITH matches prefixes; an empty prefix means EXISTS', () => {
    expect(index.filter('title STARTS WITH MA')).toEqual([4]);
    expect(index.filter('doggos.name STARTS WITH bu')).toEqual([1]);
    expect(index.filter("genre STARTS WITH ''")).toEqual([1, 2, 3, 5]);
  });
});

describe('boolean structure', () => {
  it('NOT complements against all documents', () => {
    expect(index.filter('NOT (genre = drama OR price = 3000)')).toEqual([2, 3, 5]);
    expect(index.filter('NOT NOT genre = drama')).toEqual([1]);
  });

  it('AND binds tighter than OR', () => {
    expect(index.filter('genre = drama OR genre = horror AND year > 2000')).toEqual([1]);
    expect(index.filter('(genre = drama OR genre = horror) AND year < 2000')).toEqual([5]);
  });

  it('the array form ANDs its elements and ORs inner arrays', () => {
    expect(index.filter([['genre = drama', 'genre = horror'], 'year < 2000'])).toEqual([5]);
    expect(index.filter(['price = 12', 'NOT title = carol'])).toEqual([2]);
  });
});

describe('errors', () => {
  it('names the attribute that is not filterable and the filterable patterns', () => {
    expect(index.filterError('color = red')).toBe(
      'Attribute `color` is not filterable. Available filterable attribute patterns are: `cattos`, `doggos`, `flag`, `genre`, `never`, `notes`, `price`, `tags`, `title`, `year`.\n1:6 color = red',
    );
  });

  it('reports the last attribute of a flat AND list', () => {
    expect(index.filterError('color = a AND genre = b AND size = c')).toMatch(/^Attribute `size` is not filterable.*\n29:33 /s);
  });
});

describe('granular filterable rules', () => {
  const rule = (attributePatterns: string[], equality: boolean, comparison: boolean): FilterableRule => ({
    attributePatterns,
    features: { facetSearch: false, filter: { equality, comparison } },
  });
  let granular: TestIndex;
  beforeAll(() => {
    granular = TestIndex.create({ filterableAttributes: [rule(['cattos', 'never'], false, true), rule(['doggos.*'], true, false), 'doggos'] });
    granular.write(DOCUMENTS);
  });
  afterAll(async () => {
    await granular.close();
  });

  it('refuses equality operators when the first matching rule disables equality', () => {
    expect(granular.filterError('cattos = simba')).toBe(
      'Filter operator `=` is not allowed for the attribute `cattos`.\n' +
        '  - Note: allowed operators: OR, AND, NOT, <, >, <=, >=, TO, IS EMPTY, IS NULL, EXISTS.\n' +
        '  - Note: field `cattos` matched rule #0 in `filterableAttributes`\n' +
        '  - Hint: enable equality in rule #0 by modifying the features.filter object\n' +
        '  - Hint: prepend another rule matching `cattos` with appropriate filter features before rule #0',
    );
    expect(granular.filterError('cattos IN [simba]')).toMatch(/^Filter operator `=` is not allowed/);
    expect(granular.filterError('cattos != simba')).toMatch(/^Filter operator `!=` is not allowed/);
  });

  it('refuses comparisons when the rule disables comparison', () => {
    expect(granular.filterError('doggos.age > 2')).toBe(
      'Filter operator `>` is not allowed for the attribute `doggos.age`.\n' +
        '  - Note: allowed operators: OR, AND, NOT, =, !=, IN, IS EMPTY, IS NULL, EXISTS.\n' +
        '  - Note: field `doggos.age` matched rule #1 in `filterableAttributes`\n' +
        '  - Hint: enable comparison in rule #1 by modifying the features.filter object\n' +
        '  - Hint: prepend another rule matching `doggos.age` with appropriate filter features before rule #1',
    );
    expect(granular.filterError('doggos.age 1 TO 3')).toMatch(/^Filter operator `TO` is not allowed/);
  });

  it('allows what the rule enables, and presence operators for any filterable rule', () => {
    expect(granular.filter('cattos > r')).toEqual([3]);
    expect(granular.filter('doggos.age = 2')).toEqual([1]);
    expect(granular.filter('cattos EXISTS AND cattos STARTS WITH si')).toEqual([3]);
    expect(granular.filter('doggos IS EMPTY')).toEqual([5]);
  });

  it('checks no operator on a path no document has, and stops an AND once it is empty', () => {
    expect(granular.filter('never = 1')).toEqual([]);
    expect(granular.filter('doggos.name = nobody AND cattos = simba')).toEqual([]);
  });

  it('lets a matching rule without filter features shadow later rules (Meilisearch priority tests)', async () => {
    const off = (pattern: string) => ({ attributePatterns: [pattern], features: { facetSearch: false, filter: { equality: false, comparison: false } } });
    for (const first of ['doggos.a*', 'doggos']) {
      const priority = TestIndex.create({ filterableAttributes: [off(first), rule(['doggos.*'], true, false)] });
      try {
        priority.write(DOCUMENTS);
        expect(priority.filter('doggos.name = bobby')).toEqual([1]);
        const refused = first === 'doggos' ? 'doggos EXISTS' : 'doggos.age > 2';
        expect(priority.filterError(refused)).toMatch(/^Attribute `doggos(\.age)?` is not filterable\. Available filterable attribute patterns are: `doggos\.\*`\.\n/);
      } finally {
        await priority.close();
      }
    }
  });

  it('lists only the patterns of filterable rules in the not-filterable error', async () => {
    const off = TestIndex.create({ filterableAttributes: [{ attributePatterns: ['genre'], features: { facetSearch: true, filter: { equality: false, comparison: false } } }, 'title'] });
    try {
      expect(off.filterError('genre = x')).toBe('Attribute `genre` is not filterable. Available filterable attribute patterns are: `title`.\n1:6 genre = x');
    } finally {
      await off.close();
    }
  });
});

describe('geo filters', () => {
  const CITIES = [
    { id: 'paris', _geo: { lat: 48.8566, lng: 2.3522 } },
    { id: 'lyon', _geo: { lat: '45.764', lng: '4.8357' } },
    { id: 'lille', _geo: { lat: 50.6292, lng: 3.0573 } },
    { id: 'fiji', _geo: { lat: -17.7134, lng: 178.065 } },
    { id: 'samoa', _geo: { lat: -13.759, lng: -172.1046 } },
    { id: 'nowhere', _geo: null },
  ];
  let geo: TestIndex;
  beforeAll(() => {
    geo = TestIndex.create({ filterableAttributes: ['_geo', 'id'] });
    geo.write(CITIES);
  });
  afterAll(async () => {
    await geo.close();
  });

  it('_geoRadius reaches points stored just past a pole, as v1.50 indexes them', () => {
    const poles = TestIndex.create({ filterableAttributes: ['_geo'] });
    try {
      poles.write([
        { id: 'north', _geo: { lat: 90.0000001, lng: 0 } },
        { id: 'south', _geo: { lat: -90.0000001, lng: 0 } },
        { id: 'equator', _geo: { lat: 0, lng: 0 } },
      ]);
      expect(poles.filter('_geoRadius(90, 0, 20000)')).toEqual(['north']);
      expect(poles.filter('_geoRadius(-90, 0, 20000)')).toEqual(['south']);
      expect(poles.filter('_geoRadius(89.99, 0, 2000)')).toEqual(['north']);
    } finally {
      void poles.close();
    }
  });

  it('_geoRadius keeps the points within the radius, in metres', () => {
    expect(geo.filter('_geoRadius(45.75, 4.85, 5000)')).toEqual(['lyon']);
    expect(geo.filter('_geoRadius(45.75, 4.85, 400000)')).toEqual(['paris', 'lyon']);
    expect(geo.filter('_geoRadius(45.75, 4.85, 1000000)')).toEqual(['paris', 'lyon', 'lille']);
    expect(geo.filter('_geoRadius(45.75, 4.85, 10, 100)')).toEqual([]);
    expect(geo.filter('NOT _geoRadius(45.75, 4.85, 400000)')).toEqual(['lille', 'fiji', 'samoa', 'nowhere']);
  });

  it('_geoBoundingBox takes the north-east then the south-west corner, and wraps the antimeridian', () => {
    expect(geo.filter('_geoBoundingBox([50, 5], [45, 2])')).toEqual(['paris', 'lyon']);
    expect(geo.filter('_geoBoundingBox([0, -170], [-20, 170])')).toEqual(['fiji', 'samoa']);
  });

  it('reports bad coordinates at their position', () => {
    expect(geo.filterError('_geoRadius(-100, 150, 10)')).toBe(
      'Bad latitude `-100`. Latitude must be contained between -90 and 90 degrees.\n12:16 _geoRadius(-100, 150, 10)',
    );
    expect(geo.filterError('_geoRadius(10, 250, 10)')).toBe(
      'Bad longitude `250`. Longitude must be contained between -180 and 180 degrees. Hint: try using `-110` instead.\n16:19 _geoRadius(10, 250, 10)',
    );
    expect(geo.filterError('_geoRadius(10, 20, 10, 2)')).toBe(
      'Invalid resolution `2`. Resolution must be between 3 and 1000.\n24:25 _geoRadius(10, 20, 10, 2)',
    );
    expect(geo.filterError('_geoBoundingBox([1, 2], [3, 4])')).toBe(
      'The top latitude `1` is below the bottom latitude `3`.\n29:30 _geoBoundingBox([1, 2], [3, 4])',
    );
  });

  it('refuses geo filters unless _geo is filterable, and _geoPolygon unless _geojson is', () => {
    expect(index.filterError('_geoRadius(10, 20, 30)')).toBe(
      'Attribute `_geo/_geojson` is not filterable. Available filterable attribute patterns are: `cattos`, `doggos`, `flag`, `genre`, `never`, `notes`, `price`, `tags`, `title`, `year`.\n12:14 _geoRadius(10, 20, 30)',
    );
    expect(geo.filterError('_geoPolygon([1, 2], [3, 4], [5, 6])')).toBe(
      'Attribute `_geojson` is not filterable. Available filterable attribute patterns are: `_geo`, `id`.\n14:15 _geoPolygon([1, 2], [3, 4], [5, 6])',
    );
  });
});

describe('incremental updates', () => {
  it('give the same answers as a rebuild after documents change', async () => {
    const live = TestIndex.create({ filterableAttributes: FILTERABLE });
    try {
      live.write(DOCUMENTS);
      live.write([{ id: 1, title: 'Carol', genre: 'Romance', price: 14 }, { delete: 3 }, { id: 6, genre: 'drama', tags: ['lgbt'] }]);
      const filters = ['genre = romance', 'genre = drama', 'price > 12', 'tags = lgbt', 'genre IS NULL', 'doggos EXISTS', 'NOT genre EXISTS'];
      const incremental = filters.map((filter) => live.filter(filter));
      expect(incremental).toEqual([[1], [6], [1, 4, 5], [6], [], [2, 5], [4]]);
      live.rebuild();
      expect(filters.map((filter) => live.filter(filter))).toEqual(incremental);
    } finally {
      await live.close();
    }
  });
});
