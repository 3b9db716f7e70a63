// Meilisearch's own facet-search tests (crates/meilisearch/tests/search/facet_search.rs), replayed
// over raw HTTP against the real server with the same documents, settings and requests: prefix and
// typo matching of facet values, `faceting` limits and order, the `facetSearch` setting, granular
// `filterableAttributes` rules with their errors, and counts under a distinct attribute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid, type Reply } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** The `DOCUMENTS` of facet_search.rs (genres instead of colors). */
const DOCUMENTS = [
  { title: 'Shazam!', genres: ['Action', 'Adventure'], id: '287947' },
  { title: 'Captain Marvel', genres: ['Action', 'Adventure'], id: '299537' },
  { title: 'Escape Room', genres: ['Horror', 'Thriller', 'Multiple Words'], id: '522681' },
  { title: 'How to Train Your Dragon: The Hidden World', genres: ['Action', 'Comedy'], id: '166428' },
  { title: 'Gläss', genres: ['Thriller'], id: '450465' },
];

/** `NESTED_DOCUMENTS` of Meilisearch's tests/common/mod.rs. */
const NESTED_DOCUMENTS = [
  { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pésti', _vectors: { manual: [1, 2, 3] } },
  { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'], _vectors: { manual: [1, 2, 54] } },
  { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'], _vectors: { manual: [10, 23, 32] } },
  { id: 951, father: 'jean-baptiste', mother: 'sophie', doggos: [{ name: 'turbo', age: 5 }, { name: 'fast', age: 6 }], cattos: ['moumoute', 'gomez'], _vectors: { manual: [10, 23, 32] } },
];

const MOVIES = [
  { id: 1, title: 'Carol', genres: ['Romance', 'Drama'], color: ['red'], platforms: ['MacOS', 'Linux', 'Windows'] },
  { id: 2, title: 'Wonder Woman', genres: ['Action', 'Adventure'], color: ['green'], platforms: ['MacOS'] },
  { id: 3, title: 'Life of Pi', genres: ['Adventure', 'Drama'], color: ['blue'], platforms: ['Windows'] },
  { id: 4, title: 'Mad Max: Fury Road', genres: ['Adventure', 'Science Fiction'], color: ['red'], platforms: ['MacOS', 'Linux'] },
  { id: 5, title: 'Moana', genres: ['Fantasy', 'Action'], color: ['red'], platforms: ['Windows'] },
  { id: 6, title: 'Philadelphia', genres: ['Drama'], color: ['blue'], platforms: ['MacOS', 'Linux', 'Windows'] },
];

/** The 50 films of `distinct_facet_search_on_movies`: every one has the genre `Blob`, 23 distinct colors. */
const BLOB_MOVIES: Array<[string, string[], string]> = [
  ['Carol', ['Romance', 'Drama'], 'crimson'],
  ['Wonder Woman', ['Action', 'Adventure'], 'emerald'],
  ['Life of Pi', ['Adventure', 'Drama'], 'azure'],
  ['Mad Max: Fury Road', ['Adventure', 'Science Fiction'], 'scarlet'],
  ['Moana', ['Fantasy', 'Action'], 'coral'],
  ['Philadelphia', ['Drama'], 'navy'],
  ['The Matrix', ['Science Fiction', 'Action'], 'onyx'],
  ['Inception', ['Science Fiction', 'Thriller'], 'cerulean'],
  ['The Shawshank Redemption', ['Drama'], 'slate'],
  ['Pulp Fiction', ['Crime', 'Drama'], 'gold'],
  ['The Dark Knight', ['Action', 'Crime'], 'obsidian'],
  ['Forrest Gump', ['Drama', 'Romance'], 'jade'],
  ['The Godfather', ['Crime', 'Drama'], 'sepia'],
  ['Fight Club', ['Drama', 'Thriller'], 'ruby'],
  ['Goodfellas', ['Crime', 'Biography'], 'charcoal'],
  ['The Silence of the Lambs', ['Crime', 'Thriller'], 'amethyst'],
  ["Schindler's List", ['Biography', 'Drama'], 'ebony'],
  ['The Lord of the Rings', ['Adventure', 'Fantasy'], 'forest'],
  ['Star Wars', ['Science Fiction', 'Adventure'], 'amber'],
  ['Jurassic Park', ['Adventure', 'Science Fiction'], 'lime'],
  ['Titanic', ['Drama', 'Romance'], 'sapphire'],
  ['The Avengers', ['Action', 'Science Fiction'], 'burgundy'],
  ['Avatar', ['Science Fiction', 'Adventure'], 'turquoise'],
  ['The Green Mile', ['Crime', 'Fantasy'], 'emerald'],
  ['Gladiator', ['Action', 'Drama'], 'sepia'],
  ['The Departed', ['Crime', 'Thriller'], 'crimson'],
  ['Saving Private Ryan', ['Drama', 'War'], 'slate'],
  ['Interstellar', ['Science Fiction', 'Adventure'], 'azure'],
  ['The Pianist', ['Biography', 'Drama'], 'onyx'],
  ['The Usual Suspects', ['Crime', 'Mystery'], 'charcoal'],
  ['The Sixth Sense', ['Mystery', 'Thriller'], 'amethyst'],
  ['The Princess Bride', ['Adventure', 'Romance'], 'ruby'],
  ['Blade Runner', ['Science Fiction', 'Noir'], 'sapphire'],
  ['The Big Lebowski', ['Comedy', 'Crime'], 'gold'],
  ['Good Will Hunting', ['Drama', 'Romance'], 'turquoise'],
  ['The Terminator', ['Action', 'Science Fiction'], 'obsidian'],
  ['Casablanca', ['Drama', 'Romance'], 'jade'],
  ['The Exorcist', ['Horror', 'Thriller'], 'burgundy'],
  ['Apocalypse Now', ['Drama', 'War'], 'forest'],
  ['Back to the Future', ['Adventure', 'Comedy'], 'amber'],
  ['The Graduate', ['Comedy', 'Drama'], 'azure'],
  ['Alien', ['Horror', 'Science Fiction'], 'obsidian'],
  ['The Breakfast Club', ['Drama', 'Comedy'], 'coral'],
  ['Die Hard', ['Action', 'Thriller'], 'scarlet'],
  ['The Sound of Music', ['Drama', 'Musical'], 'emerald'],
  ['Jaws', ['Horror', 'Thriller'], 'navy'],
  ['Rocky', ['Drama', 'Sport'], 'burgundy'],
  ['E.T. the Extra-Terrestrial', ['Adventure', 'Science Fiction'], 'amber'],
  ['The Godfather Part II', ['Crime', 'Drama'], 'sepia'],
  ["One Flew Over the Cuckoo's Nest", ['Drama'], 'slate'],
];

let server: TestServer;

async function succeed(method: string, path: string, body?: unknown): Promise<void> {
  const task = await run(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

const addDocuments = (uid: string, documents: unknown[]) => succeed('POST', `/indexes/${uid}/documents`, documents);
const updateSettings = (uid: string, settings: object) => succeed('PATCH', `/indexes/${uid}/settings`, settings);

/** A new index: `settings` applied before `documents` (most of facet_search.rs), or after them. */
async function indexWith(documents: unknown[], settings: object, settingsFirst = true): Promise<string> {
  const uid = uniqueUid('meili-facets');
  if (settingsFirst) await updateSettings(uid, settings);
  await addDocuments(uid, documents);
  if (!settingsFirst) await updateSettings(uid, settings);
  return uid;
}

/** The settings routes facet_search.rs sets one setting through, with their methods. */
const SUB_ROUTES: Record<string, [string, string]> = {
  filterableAttributes: ['PUT', 'filterable-attributes'],
  typoTolerance: ['PATCH', 'typo-tolerance'],
  faceting: ['PATCH', 'faceting'],
  distinctAttribute: ['PUT', 'distinct-attribute'],
};

/** A new index whose settings are set one by one through their own routes, then receiving `documents`. */
async function indexThroughSubRoutes(documents: unknown[], settings: Record<string, unknown>): Promise<string> {
  const uid = uniqueUid('meili-facets');
  for (const [name, value] of Object.entries(settings)) {
    const [method, route] = SUB_ROUTES[name]!;
    // `call` sends a string body as is: a JSON string must be encoded first.
    await succeed(method, `/indexes/${uid}/settings/${route}`, typeof value === 'string' ? JSON.stringify(value) : value);
  }
  await addDocuments(uid, documents);
  return uid;
}

const facetSearch = (uid: string, body: object): Promise<Reply> => call(server, 'POST', `/indexes/${uid}/facet-search`, body);

/** The facet hits of a facet search that must succeed. */
async function facetHits(uid: string, body: object): Promise<Array<{ value: string; count: number }>> {
  const reply = await facetSearch(uid, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.facetHits;
}

/** Meilisearch's `test_settings_documents_indexing_swapping_and_facet_search`: both orders answer the same. */
async function inBothOrders(documents: unknown[], settings: object, check: (uid: string) => Promise<void>): Promise<void> {
  await check(await indexWith(documents, settings, false));
  await check(await indexWith(documents, settings, true));
}

beforeAll(async () => {
  server = await startServer();
}, 30_000);
afterAll(async () => {
  await server.dispose();
});

describe('matching facet values', () => {
  it('matches a prefix of any word-start of the value, and a whole value', async () => {
    const uid = await indexThroughSubRoutes(DOCUMENTS, { filterableAttributes: ['genres'] });
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'a' })).toEqual([
      { value: 'Action', count: 3 },
      { value: 'Adventure', count: 2 },
    ]);
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'adventure' })).toEqual([{ value: 'Adventure', count: 2 }]);
  });

  it('lists every value for an empty facet query and an empty q', async () => {
    const uid = await indexThroughSubRoutes(MOVIES, { filterableAttributes: ['genres', 'color'] });
    expect(await facetHits(uid, { facetQuery: '', facetName: 'genres', q: '' })).toEqual([
      { value: 'Action', count: 2 },
      { value: 'Adventure', count: 3 },
      { value: 'Drama', count: 3 },
      { value: 'Fantasy', count: 1 },
      { value: 'Romance', count: 1 },
      { value: 'Science Fiction', count: 1 },
    ]);
  });

  it('ignores accents but no typos when typo tolerance is disabled', async () => {
    const uid = await indexThroughSubRoutes(DOCUMENTS, { filterableAttributes: ['genres'], typoTolerance: { enabled: false } });
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'adventre' })).toEqual([]);
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'àdventure' })).toHaveLength(1);
  });

  it('allows no typo on a word of `disableOnWords`', async () => {
    const uid = await indexThroughSubRoutes(DOCUMENTS, { filterableAttributes: ['genres'], typoTolerance: { disableOnWords: ['adventre'] } });
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'adventre' })).toEqual([]);
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'adventure' })).toHaveLength(1);
  });

  it('matches the start of the whole value only, not a later word', async () => {
    const uid = await indexThroughSubRoutes(DOCUMENTS, { filterableAttributes: ['genres'] });
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'words' })).toEqual([]);
  });
});

describe('faceting settings', () => {
  it('returns at most `maxValuesPerFacet` values, in value order or by count', async () => {
    const alpha = await indexThroughSubRoutes(DOCUMENTS, { faceting: { maxValuesPerFacet: 1 }, filterableAttributes: ['genres'] });
    expect(await facetHits(alpha, { facetName: 'genres', facetQuery: 'a' })).toHaveLength(1);
    const byCount = await indexThroughSubRoutes(DOCUMENTS, { faceting: { maxValuesPerFacet: 1, sortFacetValuesBy: { '*': 'count' } }, filterableAttributes: ['genres'] });
    expect(await facetHits(byCount, { facetName: 'genres', facetQuery: 'a' })).toEqual([{ value: 'Action', count: 3 }]);
  });

  it('orders the values by count when asked to', async () => {
    const uid = await indexThroughSubRoutes(DOCUMENTS, { faceting: { sortFacetValuesBy: { '*': 'count' } }, filterableAttributes: ['genres'] });
    expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'a' })).toEqual([
      { value: 'Action', count: 3 },
      { value: 'Adventure', count: 2 },
    ]);
  });
});

describe('the facetSearch setting', () => {
  const disabled = (reply: Reply) => expectError(reply, 400, 'facet_search_disabled', 'The facet search is disabled for this index');

  it('refuses facet search once disabled after the documents', async () => {
    const uid = await indexWith(DOCUMENTS, { facetSearch: false, filterableAttributes: ['genres'] }, false);
    disabled(await facetSearch(uid, { facetName: 'genres', facetQuery: 'a' }));
  });

  it('refuses facet search disabled before the documents', async () => {
    const uid = await indexWith(DOCUMENTS, { facetSearch: false, filterableAttributes: ['genres'] });
    disabled(await facetSearch(uid, { facetName: 'genres', facetQuery: 'a' }));
  });

  it('answers again once re-enabled or reset', async () => {
    for (const facetSearchSetting of [true, null]) {
      const uid = await indexWith(DOCUMENTS, { facetSearch: false, filterableAttributes: ['genres'] });
      await updateSettings(uid, { facetSearch: facetSearchSetting });
      expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'a' }), String(facetSearchSetting)).toHaveLength(2);
    }
  });
});

describe('filterable attribute rules', () => {
  const noFilter = { equality: false, comparison: false };
  const rule = (pattern: string, facetSearch: boolean | undefined, filter = noFilter) =>
    facetSearch === undefined ? { attributePatterns: [pattern] } : { attributePatterns: [pattern], features: { facetSearch, filter } };
  const ruleZeroHint = (attribute: string) =>
    `Attribute \`${attribute}\` is not facet-searchable. Note: this attribute matches rule #0 in filterableAttributes, but this rule does not enable facetSearch.\nHint: enable facetSearch in rule #0 by adding \`"facetSearch": true\` to the rule.\nHint: prepend another rule matching ${attribute} with facetSearch: true before rule #0`;

  it('searches an attribute named by a plain entry or by a rule enabling facetSearch alone', async () => {
    for (const filterable of [['genres'], [rule('genres', true)]]) {
      await inBothOrders(DOCUMENTS, { filterableAttributes: filterable }, async (uid) => {
        expect(await facetHits(uid, { facetName: 'genres', facetQuery: 'a' })).toEqual([
          { value: 'Action', count: 3 },
          { value: 'Adventure', count: 2 },
        ]);
      });
    }
    for (const filterable of [['doggos.name'], [rule('doggos.name', true)]]) {
      await inBothOrders(NESTED_DOCUMENTS, { filterableAttributes: filterable }, async (uid) => {
        expect(await facetHits(uid, { facetName: 'doggos.name', facetQuery: 'b' })).toEqual([
          { value: 'bobby', count: 1 },
          { value: 'buddy', count: 1 },
        ]);
      });
    }
  });

  it('names the facet-searchable patterns when the attribute matches none', async () => {
    await inBothOrders(DOCUMENTS, { filterableAttributes: ['genres'] }, async (uid) => {
      const reply = await facetSearch(uid, { facetName: 'invalid', facetQuery: 'a' });
      expectError(reply, 400, 'invalid_facet_search_facet_name', 'Attribute `invalid` is not facet-searchable. Available facet-searchable attributes patterns are: `genres`. To make it facet-searchable add it to the `filterableAttributes` index settings.');
    });
    await inBothOrders(NESTED_DOCUMENTS, { filterableAttributes: [rule('doggos.name', undefined)] }, async (uid) => {
      const reply = await facetSearch(uid, { facetName: 'invalid.name', facetQuery: 'b' });
      expectError(reply, 400, 'invalid_facet_search_facet_name', 'Attribute `invalid.name` is not facet-searchable. This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.');
    });
  });

  it('points at the matching rule that does not enable facetSearch', async () => {
    const rules = (pattern: string) => [rule(pattern, undefined), rule(pattern, false, { equality: true, comparison: true }), rule(pattern, false)];
    for (const [documents, attribute, facetQuery] of [[DOCUMENTS, 'genres', 'a'], [NESTED_DOCUMENTS, 'doggos.name', 'b']] as const) {
      for (const filterable of rules(attribute)) {
        await inBothOrders(documents, { filterableAttributes: [filterable] }, async (uid) => {
          const reply = await facetSearch(uid, { facetName: attribute, facetQuery });
          expectError(reply, 400, 'invalid_facet_search_facet_name', ruleZeroHint(attribute));
        });
      }
    }
  });

  it('refuses an attribute that is not filterable at all', async () => {
    const uid = uniqueUid('meili-facets');
    await addDocuments(uid, DOCUMENTS);
    for (const facetQuery of ['a', 'adv']) {
      const reply = await facetSearch(uid, { facetName: 'genres', facetQuery });
      expectError(reply, 400, 'invalid_facet_search_facet_name', 'Attribute `genres` is not facet-searchable. This index does not have configured facet-searchable attributes. To make it facet-searchable add it to the `filterableAttributes` index settings.');
    }
  });
});

describe('distinct attribute', () => {
  it('counts documents by default, and distinct groups with `exhaustiveFacetCount`', async () => {
    const documents = BLOB_MOVIES.map(([title, genres, color], i) => ({ id: i + 1, title, genres: [...genres, 'Blob'], color }));
    const uid = await indexThroughSubRoutes(documents, { filterableAttributes: ['genres', 'color'], distinctAttribute: 'color' });
    // The estimate only deduplicates the first ranked documents: 27 of the 50, not the 23 colors.
    expect(await facetHits(uid, { facetQuery: 'blob', facetName: 'genres', q: '' })).toEqual([{ value: 'Blob', count: 27 }]);
    expect(await facetHits(uid, { facetQuery: 'blob', facetName: 'genres', q: '', exhaustiveFacetCount: true })).toEqual([{ value: 'Blob', count: 23 }]);
  });
});
