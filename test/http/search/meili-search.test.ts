// Meilisearch's own general search tests (crates/meilisearch/tests/search/mod.rs), replayed over raw
// HTTP against the real server with the same documents, settings and requests, asserting what
// Meilisearch's snapshots show: phrases, negation, placeholder, stop words, typo settings,
// attribute selection and formatting, nested fields, filters, sort, facet distributions, hard
// limits, ranking scores and their details, the search cutoff and synonyms. Where the v1.50
// reference (ranking.md: separate `attributeRank` / `wordPosition` rules, `sort` between them)
// disagrees with an older snapshot, the reference wins and the test says so.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid, waitTask, type Reply } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** `DOCUMENTS` of Meilisearch's tests/common/mod.rs (with their `_vectors` for no embedder). */
const DOCUMENTS = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'], _vectors: { manual: [1, 2, 3] } },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'], _vectors: { manual: [1, 2, 54] } },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'], _vectors: { manual: [10, -23, 32] } },
  { title: 'How to Train Your Dragon: The Hidden World', id: '166428', color: ['green', 'red'], _vectors: { manual: [-100, 231, 32] } },
  { title: 'Gläss', id: '450465', color: ['blue', 'red'], _vectors: { manual: [-100, 340, 90] } },
];

const NESTED_DOCUMENTS = [
  { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pésti', _vectors: { manual: [1, 2, 3] } },
  { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'], _vectors: { manual: [1, 2, 54] } },
  { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'], _vectors: { manual: [10, 23, 32] } },
  { id: 951, father: 'jean-baptiste', mother: 'sophie', doggos: [{ name: 'turbo', age: 5 }, { name: 'fast', age: 6 }], cattos: ['moumoute', 'gomez'], _vectors: { manual: [10, 23, 32] } },
];

const SCORE_DOCUMENTS = [
  { title: 'Batman the dark knight returns: Part 1', id: 'A' },
  { title: 'Batman the dark knight returns: Part 2', id: 'B' },
  { title: 'Batman Returns', id: 'C' },
  { title: 'Batman', id: 'D' },
  { title: 'Badman', id: 'E' },
];

/** The documents of `test_nested_fields` and `test_typo_settings`. */
const NESTED_FIELD_DOCUMENTS = [
  { id: 0, title: 'The zeroth document' },
  { id: 1, title: 'The first document', nested: { object: 'field', machin: 'bidule' } },
  { id: 2, title: 'The second document', nested: ['array', { object: 'field' }, { prout: 'truc', machin: 'lol' }] },
  { id: 3, title: 'The third document', nested: 'I lied' },
];

/** A document as hits show it: `_vectors` is never displayed without `retrieveVectors`. */
function shown<T extends object>(doc: T): Omit<T, '_vectors'> {
  const { _vectors: _, ...rest } = doc as T & { _vectors?: unknown };
  return rest;
}
const movie = (id: string) => shown(DOCUMENTS.find((doc) => doc.id === id)!);

// ONE_ULP: a `_rankingScore` is the fraction R/M of ranking.md §10, correctly rounded, as v1.50
// sends it (`rank as f64 / max_rank as f64`). Some snapshots print one ulp below it
// (0.93430081300813 for 114919/123000, 0.9848484848484848 for 65/66): v1.50's test harness parses
// the answers with serde_json built without `float_roundtrip`, whose fast path lands one ulp low
// for a 17-digit significand past 2^53; the server's text is R/M, and the tests expect R/M.

let server: TestServer;
/** Meilisearch's `shared_index_with_documents`: filterable and sortable `id`, `title`. */
let movies: string;
/** Meilisearch's `shared_index_with_nested_documents`: filterable `father`, `doggos`; sortable `doggos`. */
let nested: string;
/** Meilisearch's `shared_index_with_score_documents`. */
let scores: string;

async function succeed(method: string, path: string, body?: unknown): Promise<void> {
  const task = await run(server, method, path, body);
  expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
}

const addDocuments = (uid: string, documents: unknown[]) => succeed('POST', `/indexes/${uid}/documents`, documents);
const updateSettings = (uid: string, settings: object) => succeed('PATCH', `/indexes/${uid}/settings`, settings);

/** A new index holding `documents`, with `settings` applied after them (or before with `settingsFirst`). */
async function indexWith(documents: unknown[], settings?: object, settingsFirst = false): Promise<string> {
  const uid = uniqueUid('meili');
  if (settings !== undefined && settingsFirst) await updateSettings(uid, settings);
  await addDocuments(uid, documents);
  if (settings !== undefined && !settingsFirst) await updateSettings(uid, settings);
  return uid;
}

const post = (uid: string, body: object): Promise<Reply> => call(server, 'POST', `/indexes/${uid}/search`, body);

/** A POST body as the query string of the GET route, lists comma-separated (as Meilisearch's test client sends it). */
function queryString(body: object): string {
  const params = Object.entries(body)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`);
  return params.length === 0 ? '' : `?${params.join('&')}`;
}

/** A reply without what differs from one request to the next. */
function stable(reply: Reply): unknown {
  return { status: reply.status, body: { ...reply.body, processingTimeMs: '[duration]', requestUid: '[uuid]' } };
}

/**
 * Meilisearch's `index.search`: the same search through POST and GET, which must answer alike;
 * returns the POST reply. (Its `search_post` is plain `post`.)
 */
async function search(uid: string, body: object): Promise<Reply> {
  const [byPost, byGet] = await Promise.all([post(uid, body), call(server, 'GET', `/indexes/${uid}/search${queryString(body)}`)]);
  expect(stable(byGet), `GET ${queryString(body)}`).toEqual(stable(byPost));
  return byPost;
}

/** The hits of a search that must succeed through POST and GET. */
async function hits(uid: string, body: object): Promise<any[]> {
  const reply = await search(uid, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.hits;
}

/** The hits of a POST search that must succeed. */
async function postHits(uid: string, body: object): Promise<any[]> {
  const reply = await post(uid, body);
  expect(reply.status, reply.text).toBe(200);
  return reply.body.hits;
}

/** The ids of the hits, searched through both routes unless `through` says otherwise. */
async function ids(uid: string, body: object, through = hits): Promise<unknown[]> {
  return (await through(uid, body)).map((hit) => hit.id);
}

/** Meilisearch's `test_settings_documents_indexing_swapping_and_search`: both orders must answer the same. */
async function inBothOrders(documents: unknown[], settings: object, check: (uid: string) => Promise<void>): Promise<void> {
  await check(await indexWith(documents, settings));
  await check(await indexWith(documents, settings, true));
}

beforeAll(async () => {
  server = await startServer();
  [movies, nested, scores] = await Promise.all([
    indexWith(DOCUMENTS, { filterableAttributes: ['id', 'title'], sortableAttributes: ['id', 'title'] }),
    indexWith(NESTED_DOCUMENTS, { filterableAttributes: ['father', 'doggos'], sortableAttributes: ['doggos'] }),
    indexWith(SCORE_DOCUMENTS),
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('placeholder and simple searches', () => {
  it('returns every document for a placeholder search', async () => {
    expect(await hits(movies, {})).toHaveLength(5);
    expect(await hits(nested, {})).toHaveLength(4);
  });

  it('finds a word whatever its accents, and a prefix through accents', async () => {
    expect(await ids(movies, { q: 'glass' })).toEqual(['450465']);
    // `pésti` matches `pésti` exactly and `pestiféré` as a prefix.
    expect(await ids(nested, { q: 'pésti' })).toEqual([852, 654]);
  });

  it('searches, crops and highlights with several parameters at once', async () => {
    const [glass, ...rest] = await hits(movies, { q: 'glass', attributesToCrop: ['title:2'], attributesToHighlight: ['title'], limit: 1, offset: 0 });
    expect(rest).toEqual([]);
    expect(glass._formatted.title).toBe('<em>Gläss</em>');
    expect(await hits(nested, { q: 'pésti', attributesToCrop: ['catto:2'], attributesToHighlight: ['catto'], limit: 2, offset: 0 })).toHaveLength(2);
  });

  it('ranks a prefix matching 65,535 words as Meilisearch does (issue 5547)', async () => {
    const uid = uniqueUid('meili');
    await succeed('POST', '/indexes', { uid });
    // 65,535 documents: a batch that can take over 10 s on a loaded machine
    const added = await call(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, Array.from({ length: 65_535 }, (_, id) => ({ id, title: `title${id}` })));
    expect((await waitTask(server, added.body.taskUid, 45_000)).status).toBe('succeeded');
    const expected = [0, 1, 10, 100, 101, 102, 103, 104, 105, 106, 107, 108, 1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007];
    expect(await postHits(uid, { q: 'title' })).toEqual(expected.map((id) => ({ id, title: `title${id}` })));
  }, 60_000);

  it('keeps `_vectors` of a name that is no embedder out of the hits', async () => {
    expect(await hits(movies, { q: 'dragon' })).toEqual([movie('166428')]);
  });
});

describe('stop words', () => {
  it('keeps a last stop word as a prefix, and treats a query of stop words followed by a space as a placeholder', async () => {
    const uid = await indexWith(DOCUMENTS, { stopWords: ['the', 'The', 'a', 'an', 'to', 'in', 'of'] }, true);
    const request = { attributesToHighlight: ['title'], attributesToRetrieve: ['title'] };
    expect(await hits(uid, { q: 'to the', ...request })).toEqual([]);
    expect(await hits(uid, { q: 'to the ', ...request })).toEqual(
      ['Shazam!', 'Captain Marvel', 'Escape Room', 'How to Train Your Dragon: The Hidden World', 'Gläss'].map((title) => ({ title, _formatted: { title } })),
    );
  });

  it('lets a stop word inside a phrase and an unclosed phrase still match', async () => {
    const uid = await indexWith(DOCUMENTS, { stopWords: ['the', 'of'] }, true);
    expect(await ids(uid, { q: 'how "to" train "the' })).toEqual(['166428']);
  });
});

describe('typo tolerance settings', () => {
  it('matches a number exactly in an attribute where typos are disabled', async () => {
    const uid = await indexWith(DOCUMENTS, { typoTolerance: { disableOnAttributes: ['title', 'id'] } }, true);
    expect(await hits(uid, { q: '287947' })).toEqual([movie('287947')]);
  });

  it('still matches exact words and prefixes in an attribute where typos are disabled', async () => {
    const settings = { searchableAttributes: ['title', 'nested.object', 'nested.machin'], typoTolerance: { enabled: true, disableOnAttributes: ['title'] } };
    await inBothOrders(NESTED_FIELD_DOCUMENTS, settings, async (uid) => {
      expect(await hits(uid, { q: 'document' })).toEqual(NESTED_FIELD_DOCUMENTS);
      expect(await hits(uid, { q: 'docume' })).toEqual(NESTED_FIELD_DOCUMENTS);
    });
  });

  it('matches numbers by prefix but never with a typo under `disableOnNumbers`', async () => {
    const documents = [
      { id: 0, title: 'The zeroth document 1298484' },
      { id: 1, title: 'The first document 234342', nested: { object: 'field 22231', machin: 'bidule 23443.32111' } },
      { id: 2, title: 'The second document 3398499', nested: ['array', { object: 'field 23245121,23223' }, { prout: 'truc 123980612321', machin: 'lol 12345645333447879' }] },
      { id: 3, title: 'The third document 12333', nested: 'I lied 98878' },
    ];
    const settings = { searchableAttributes: ['title', 'nested.object', 'nested.machin'], typoTolerance: { enabled: true, disableOnNumbers: true } };
    await inBothOrders(documents, settings, async (uid) => {
      expect(await hits(uid, { q: '12345' })).toEqual([documents[2]]);
      expect(await hits(uid, { q: '123457' })).toEqual([]);
    });
  });

  it('does not split camelCase words, and corrects typos in them', async () => {
    const uid = await indexWith([
      { id: 0, title: 'DeLonghi' },
      { id: 1, title: 'delonghi' },
      { id: 2, title: 'TestAB' },
      { id: 3, title: 'TestAb' },
      { id: 4, title: 'testab' },
    ]);
    for (const q of ['deLonghi', 'dellonghi']) expect(await ids(uid, { q }), q).toEqual([0, 1]);
    for (const q of ['testa', 'testab', 'TestaB', 'Testab', 'TestAb', 'TetsAB']) expect(await ids(uid, { q }), q).toEqual([2, 3, 4]);
  });
});

describe('negative queries', () => {
  it('excludes the documents holding a negated phrase', async () => {
    expect(await ids(movies, { q: '-"train your dragon"' })).toEqual(['287947', '299537', '522681', '450465']);
  });

  it('excludes the documents holding a negated word, even when the word is also searched', async () => {
    expect(await ids(movies, { q: '-escape' })).toEqual(['287947', '299537', '166428', '450465']);
    expect(await ids(movies, { q: '-escape escape' })).toEqual([]);
  });

  it('does not negate when the dash is followed by a space', async () => {
    expect(await ids(movies, { q: '- escape' })).toEqual(['522681']);
    expect(await ids(movies, { q: '- "train your dragon"' })).toEqual(['166428']);
  });

  it('keeps the documents matched through a synonym of a negated word', async () => {
    const uid = await indexWith(DOCUMENTS);
    await updateSettings(uid, { synonyms: { escape: ['gläss'] } });
    expect(await ids(uid, { q: '-escape escape' })).toEqual(['450465']);
  });
});

describe('languages', () => {
  it('finds kanji in a Japanese text among other scripts', async () => {
    const uid = await indexWith([
      { id: 0, title: 'The quick ("brown") fox can\'t jump 32.3 feet, right? Brr, it\'s 29.3°F!' },
      { id: 1, title: '東京のお寿司。' },
      { id: 2, title: 'הַשּׁוּעָל הַמָּהִיר (״הַחוּם״) לֹא יָכוֹל לִקְפֹּץ 9.94 מֶטְרִים, נָכוֹן? ברר, 1.5°C- בַּחוּץ!' },
    ]);
    expect(await ids(uid, { q: '東京' })).toEqual([1]);
  });

  it('answers a Thai query with exactness as the only ranking rule', async () => {
    const uid = await indexWith([
      { id: 0, title: 'สบู่สมุนไพรดอกดาวเรือง 100 กรัม จำนวน 6 ก้อน' },
      { id: 1, title: 'สบู่สมุนไพรชาเขียว 100 กรัม จำนวน 6 ก้อน' },
      { id: 2, title: 'สบู่สมุนไพรฝางแดงผสมว่านหางจรเข้ 100 กรัม จำนวน 6 ก้อน' },
    ]);
    await updateSettings(uid, { rankingRules: ['exactness'] });
    const reply = await search(uid, { q: 'สบู' });
    expect(reply.status, reply.text).toBe(200);
  });
});

describe('filters', () => {
  it('filters with the string notation, on strings and nested fields', async () => {
    const uid = await indexWith(DOCUMENTS, { filterableAttributes: ['title'] }, true);
    expect(await ids(uid, { filter: 'title = Gläss' })).toEqual(['450465']);
    const doggos = await indexWith(NESTED_DOCUMENTS, { filterableAttributes: ['cattos', 'doggos.age'] }, true);
    expect(await ids(doggos, { filter: 'cattos = pésti' })).toEqual([852]);
    expect(await ids(doggos, { filter: 'doggos.age > 5' })).toEqual([654, 951]);
  });

  it('filters with the array notation: outer items AND-ed, inner items OR-ed', async () => {
    expect(await ids(movies, { filter: ['title = Gläss'] }, postHits)).toEqual(['450465']);
    expect(await ids(movies, { filter: [['title = Gläss', 'title = "Shazam!"', 'title = "Escape Room"']] }, postHits)).toEqual(['287947', '522681', '450465']);
  });

  it('filters with CONTAINS once the experimental feature is on', async () => {
    expect((await call(server, 'PATCH', '/experimental-features', { containsFilter: true })).status).toBe(200);
    const uid = await indexWith(DOCUMENTS, { filterableAttributes: ['title'] }, true);
    expect(await ids(uid, { filter: 'title CONTAINS cap' }, postHits)).toEqual(['299537', '522681']);
  });

  it('filters an index whose searchable attributes changed after indexing', async () => {
    const uid = await indexWith(NESTED_DOCUMENTS, { searchableAttributes: ['father', 'mother'] }, true);
    await updateSettings(uid, { searchableAttributes: ['father', 'mother', 'doggos'], filterableAttributes: ['doggos'] });
    const expected = [{ id: 852, doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }] }];
    expect(await hits(uid, { q: 'bobby', attributesToRetrieve: ['id', 'doggos'] })).toEqual(expected);
    expect(await hits(uid, { q: '', filter: 'doggos.age < 5', attributesToRetrieve: ['id', 'doggos'] })).toEqual(expected);
  });

  it('groups facet values whatever their casing, showing the last indexed spelling', async () => {
    const uid = await indexWith([{ id: 1, dog: 'Bouvier Bernois' }], { filterableAttributes: ['dog'] }, true);
    await addDocuments(uid, [{ id: 1, dog: 'bouvier bernois' }]);
    const reply = await search(uid, { facets: ['dog'] });
    expect(reply.body.facetDistribution).toEqual({ dog: { 'bouvier bernois': 1 } });
  });
});

describe('nested fields', () => {
  const settings = { searchableAttributes: ['title', 'nested.object', 'nested.machin'], filterableAttributes: ['title', 'nested.object', 'nested.machin'] };
  const [zeroth, first, second] = NESTED_FIELD_DOCUMENTS;

  it('searches only the listed nested fields', async () => {
    await inBothOrders(NESTED_FIELD_DOCUMENTS, settings, async (uid) => {
      expect(await hits(uid, { q: 'document' })).toEqual(NESTED_FIELD_DOCUMENTS);
      expect(await hits(uid, { q: 'zeroth' })).toEqual([zeroth]);
      expect(await hits(uid, { q: 'first' })).toEqual([first]);
      expect(await hits(uid, { q: 'field' })).toEqual([first, second]);
      // `nested` itself (the string and the array's string) is not searchable.
      expect(await hits(uid, { q: 'array' })).toEqual([]);
      expect(await hits(uid, { q: 'lied' })).toEqual([]);
    });
  });

  it('filters on the listed nested fields and refuses their parent', async () => {
    await inBothOrders(NESTED_FIELD_DOCUMENTS, settings, async (uid) => {
      expect(await hits(uid, { filter: 'nested.object = field' })).toEqual([first, second]);
      expect(await hits(uid, { filter: 'nested.machin = bidule' })).toEqual([first]);
      // The error points into the canonical text v1.50 evaluates (filter.md §4).
      for (const [filter, canonical] of [['nested = array', '"nested" = "array"'], ['nested = "I lied"', '"nested" = "I lied"']]) {
        const reply = await search(uid, { filter });
        expect(reply.status).toBe(400);
        expect(reply.body).toEqual({
          message: `Index \`${uid}\`: Attribute \`nested\` is not filterable. Available filterable attribute patterns are: \`nested.machin\`, \`nested.object\`, \`title\`.\n2:8 ${canonical}`,
          code: 'invalid_search_filter',
          type: 'invalid_request',
          link: 'https://docs.meilisearch.com/errors#invalid_search_filter',
        });
      }
    });
  });
});

describe('sort', () => {
  it('sorts on numbers, strings, nested fields and several criteria', async () => {
    expect(await hits(movies, { sort: ['id:asc'] })).toHaveLength(5);
    expect(await hits(nested, { sort: ['doggos.age:asc'] })).toHaveLength(4);
    expect(await hits(movies, { sort: ['title:desc'] })).toHaveLength(5);
    expect(await hits(nested, { sort: ['doggos.name:asc'] })).toHaveLength(4);
    expect(await postHits(movies, { sort: ['id:asc', 'title:desc'] })).toHaveLength(5);
  });

  it('orders ids stored as strings by their string value', async () => {
    expect(await ids(movies, { sort: ['id:asc'] })).toEqual(['166428', '287947', '299537', '450465', '522681']);
    expect(await ids(movies, { sort: ['title:desc'] })).toEqual(['287947', '166428', '450465', '522681', '299537']);
  });

  it('keeps the relevancy scores under a sort, which (v1.50 default rules) comes after attributeRank but before wordPosition', async () => {
    const uid = await indexWith([
      { id: '1', title: 'Coffee Mug', created: '2023-01-01T00:00:00Z' },
      { id: '2', title: 'Water Bottle', created: '2023-01-02T00:00:00Z' },
      { id: '3', title: 'Tumbler Cup', created: '2023-01-03T00:00:00Z' },
      { id: '4', title: 'Stainless Steel Tumbler', created: '2023-01-04T00:00:00Z' },
    ]);
    await updateSettings(uid, { sortableAttributes: ['created'] });
    const request = { q: 'tumbler', showRankingScore: true, rankingScoreThreshold: 0.0, attributesToRetrieve: ['title'] };
    // 130/132 (snapshot: 0.9848484848484848, one ulp lower, see ONE_ULP) and 116/132.
    const cup = { title: 'Tumbler Cup', _rankingScore: 65 / 66 };
    const steel = { title: 'Stainless Steel Tumbler', _rankingScore: 29 / 33 };
    expect(await hits(uid, request)).toEqual([cup, steel]);
    // Meilisearch's snapshot (legacy `attribute` rule before `sort`) keeps the cup first; with v1.50's
    // default rules the two differ only by wordPosition, which runs after the sort.
    expect(await hits(uid, { ...request, sort: ['created:desc'] })).toEqual([steel, cup]);
  });
});

describe('facet distribution', () => {
  it('counts the values of a top-level, a nested and a parent attribute', async () => {
    const titles = await search(movies, { facets: ['title'] });
    expect(Object.keys(titles.body.facetDistribution)).toEqual(['title']);
    expect((await search(nested, { facets: ['father'] })).body.facetDistribution).toEqual({ father: { jean: 1, pierre: 1, romain: 1, 'jean-baptiste': 1 } });
    const names = { bobby: 1, buddy: 1, 'gros bill': 1, turbo: 1, fast: 1 };
    expect((await search(nested, { facets: ['doggos.name'] })).body.facetDistribution).toEqual({ 'doggos.name': names });
    const doggos = (await search(nested, { facets: ['doggos'] })).body.facetDistribution;
    expect(doggos).toEqual({ doggos: {}, 'doggos.age': { 2: 1, 4: 1, 5: 1, 6: 1, 8: 1 }, 'doggos.name': names });
  });

  it('caps the values per facet at 100 by default, and at `maxValuesPerFacet`', async () => {
    const documents = Array.from({ length: 10_000 }, (_, id) => ({ id, number: id * 10 }));
    const uid = await indexWith(documents, { filterableAttributes: ['number'] }, true);
    expect(Object.keys((await search(uid, { facets: ['number'] })).body.facetDistribution.number)).toHaveLength(100);
    await updateSettings(uid, { faceting: { maxValuesPerFacet: 10_000 } });
    expect(Object.keys((await search(uid, { facets: ['number'] })).body.facetDistribution.number)).toHaveLength(10_000);
  }, 60_000);
});

describe('attributes and limits', () => {
  it('never retrieves an attribute that is not displayed', async () => {
    const uid = await indexWith(DOCUMENTS, { displayedAttributes: ['title'] }, true);
    expect((await postHits(uid, { attributesToRetrieve: ['title', 'id'] }))[0]).toEqual({ title: 'Shazam!' });
  });

  it('returns at most `maxTotalHits` hits, for placeholder and keyword searches', async () => {
    const uid = await indexWith(Array.from({ length: 1200 }, (_, id) => ({ id, text: 'I am unique!' })));
    for (const q of [undefined, 'unique']) {
      expect(await hits(uid, { q, limit: 1500 })).toHaveLength(1000);
      expect(await hits(uid, { q, offset: 800, limit: 400 })).toHaveLength(200);
    }
    await updateSettings(uid, { pagination: { maxTotalHits: 10_000 } });
    for (const q of [undefined, 'unique']) {
      expect(await hits(uid, { q, limit: 1500 })).toHaveLength(1200);
      expect(await hits(uid, { q, offset: 1000, limit: 400 })).toHaveLength(200);
    }
  });

  it('answers the same after unrelated settings are changed back and forth', async () => {
    const uid = await indexWith(DOCUMENTS);
    const dragon = [movie('166428')];
    expect(await hits(uid, { q: 'Dragon' })).toEqual(dragon);
    await updateSettings(uid, { filterableAttributes: ['title'] });
    expect(await hits(uid, { q: 'Dragon' })).toEqual(dragon);
    await updateSettings(uid, { filterableAttributes: [] });
    expect(await hits(uid, { q: 'Dragon' })).toEqual(dragon);
  });
});

describe('synonyms', () => {
  it('expands synonyms made of a separator character', async () => {
    const uid = await indexWith(DOCUMENTS, { synonyms: { '&': ['to'], to: ['&'] } }, true);
    for (const q of ['How to train', 'How & train', 'to']) expect(await hits(uid, { q }), q).toEqual([movie('166428')]);
  });
});

describe('ranking scores', () => {
  it('details every rule of the v1.50 defaults, attributeRank and wordPosition apart', async () => {
    const [hit] = await hits(movies, { q: 'train dragon', showRankingScoreDetails: true });
    expect(hit).toEqual({
      ...movie('166428'),
      _rankingScoreDetails: {
        words: { order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1.0 },
        typo: { order: 1, typoCount: 0, maxTypoCount: 2, score: 1.0 },
        proximity: { order: 2, score: 0.75 },
        attributeRank: { order: 3, score: 1.0 },
        wordPosition: { order: 4, score: 0.8095238095238095 },
        exactness: { order: 5, matchType: 'noExactMatch', matchingWords: 2, maxMatchingWords: 2, score: 0.3333333333333333 },
      },
    });
  });

  it('scores a typo-tolerant multi-word query', async () => {
    expect(await hits(scores, { q: 'Badman the dark knight returns 1', showRankingScore: true })).toEqual([
      { title: 'Batman the dark knight returns: Part 1', id: 'A', _rankingScore: 0.9746605609456898 },
      { title: 'Batman the dark knight returns: Part 2', id: 'B', _rankingScore: 0.8055252965383685 },
      { title: 'Badman', id: 'E', _rankingScore: 0.16666666666666666 },
      { title: 'Batman Returns', id: 'C', _rankingScore: 0.07702020202020202 },
      { title: 'Batman', id: 'D', _rankingScore: 0.07702020202020202 },
    ]);
  });

  it('drops the hits under `rankingScoreThreshold`, from the hits and the count', async () => {
    const all = [
      // Snapshot: 0.93430081300813, one ulp lower (see ONE_ULP).
      { title: 'Batman the dark knight returns: Part 1', id: 'A', _rankingScore: 114919 / 123000 },
      { title: 'Batman the dark knight returns: Part 2', id: 'B', _rankingScore: 0.6685627880184332 },
      { title: 'Badman', id: 'E', _rankingScore: 0.25 },
      { title: 'Batman Returns', id: 'C', _rankingScore: 0.11553030303030302 },
      { title: 'Batman', id: 'D', _rankingScore: 0.11553030303030302 },
    ];
    for (const [threshold, kept] of [[0.0, 5], [0.2, 3], [0.5, 2], [0.8, 1], [1.0, 0]]) {
      const reply = await search(scores, { q: 'Badman dark returns 1', showRankingScore: true, rankingScoreThreshold: threshold });
      expect(reply.body.estimatedTotalHits, `threshold ${threshold}`).toBe(kept);
      expect(reply.body.hits, `threshold ${threshold}`).toEqual(all.slice(0, kept));
    }
  });

  it('marks every rule skipped when the search cutoff is 0 ms', async () => {
    const uid = await indexWith(NESTED_DOCUMENTS, { searchCutoffMs: 0 });
    const reply = await search(uid, { q: 'b', attributesToRetrieve: ['doggos.name', 'cattos'], showRankingScoreDetails: true });
    const skipped = { skipped: { order: 0 } };
    expect(reply.status).toBe(200);
    expect({ ...reply.body, processingTimeMs: '[duration]', requestUid: '[uuid]' }).toEqual({
      hits: [
        { doggos: [{ name: 'bobby' }, { name: 'buddy' }], cattos: 'pésti', _rankingScoreDetails: skipped },
        { doggos: [{ name: 'gros bill' }], cattos: ['simba', 'pestiféré'], _rankingScoreDetails: skipped },
        { doggos: [{ name: 'turbo' }, { name: 'fast' }], cattos: ['moumoute', 'gomez'], _rankingScoreDetails: skipped },
      ],
      query: 'b',
      processingTimeMs: '[duration]',
      limit: 20,
      offset: 0,
      estimatedTotalHits: 3,
      requestUid: '[uuid]',
    });
    expect(Object.keys(reply.body)).toEqual(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
  });
});
