// Port of Meilisearch's crates/meilisearch/tests/search/multi/mod.rs: `POST /multi-search` without
// and with `federation` over Meilisearch's shared test indexes — result shapes, `_federation` and
// weighted scores, errors of one query among several (with the ``Inside `.queries[i]`: `` prefix),
// sort rules merged across queries and indexes (and the incompatibilities it refuses), weights,
// federated pagination, facets by index and merged facets.
// Where the v1.50 reference disagrees with a stored snapshot, the reference wins: facet errors name
// a `Pattern`, filter evaluation errors point into the re-serialized filter (filter.md §4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, uniqueUid, type Reply } from '../../helpers/api.js';
import {
  DOCUMENTS,
  DOCUMENTS_SETTINGS,
  FRUITS_DOCUMENTS,
  NESTED_DOCUMENTS,
  NESTED_DOCUMENTS_CATTOS_SETTINGS,
  SCORE_DOCUMENTS,
  SCORE_DOCUMENTS_SETTINGS,
  expectJson,
  seed,
  shown,
  stableResponse,
  succeed,
} from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
/** Meilisearch's `SHARED_DOCUMENTS`, `SHARED_NESTED_DOCUMENTS` and `SHARED_SCORE_DOCUMENTS`. */
let movies: string;
let nested: string;
let scores: string;

beforeAll(async () => {
  server = await startServer();
  [movies, nested, scores] = [uniqueUid('movies'), uniqueUid('nested'), uniqueUid('scores')];
  await Promise.all([
    seed(server, movies, DOCUMENTS, DOCUMENTS_SETTINGS),
    seed(server, nested, NESTED_DOCUMENTS, NESTED_DOCUMENTS_CATTOS_SETTINGS),
    seed(server, scores, SCORE_DOCUMENTS, SCORE_DOCUMENTS_SETTINGS),
  ]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const multiSearch = (body: unknown): Promise<Reply> => call(server, 'POST', '/multi-search', body);

type Doc = { id: string | number } & Record<string, unknown>;
const ALL_DOCS: Doc[] = [...DOCUMENTS, ...NESTED_DOCUMENTS, ...SCORE_DOCUMENTS, ...FRUITS_DOCUMENTS];

/** A stored document as hits show it, found by id among the shared datasets. */
const doc = (id: string | number, from: Doc[] = ALL_DOCS): Record<string, unknown> => shown(from.find((candidate) => candidate.id === id)!);

/** `[document id, index uid, queriesPosition, weightedRankingScore, _rankingScore if shown]`. */
type Federated = [id: string | number, indexUid: string, queriesPosition: number, weightedRankingScore: number, rankingScore?: number];

function federatedHit([id, indexUid, queriesPosition, weightedRankingScore, rankingScore]: Federated, from?: Doc[]): Record<string, unknown> {
  const hit: Record<string, unknown> = { ...doc(id, from), _federation: { indexUid, queriesPosition, weightedRankingScore } };
  if (rankingScore !== undefined) hit._rankingScore = rankingScore;
  return hit;
}

/** A federated answer of offset mode, as Meilisearch's snapshots show it. */
function federated(hits: Federated[], estimatedTotalHits = hits.length, from?: Doc[]): Record<string, unknown> {
  return {
    hits: hits.map((hit) => federatedHit(hit, from)),
    processingTimeMs: '[duration]',
    limit: 20,
    offset: 0,
    estimatedTotalHits,
    requestUid: '[uuid]',
  };
}

// Meilisearch prints 65/66 one ulp low (0.9848484848484848): scores here are the R/M of ranking.md §10
// (as meili-search.test.ts explains), the rest of each snapshot as is.
const R65_66 = 65 / 66;

async function expectFederated(body: unknown, expected: Record<string, unknown>): Promise<void> {
  const reply = await multiSearch(body);
  expect(reply.status, reply.text).toBe(200);
  expectJson(stableResponse(reply.body), expected);
}

/** One result of a non-federated multi-search: a search response with `indexUid` first. */
function result(indexUid: string, query: string, hits: unknown[]): Record<string, unknown> {
  return { indexUid, hits, query, processingTimeMs: '[duration]', limit: 20, offset: 0, estimatedTotalHits: hits.length, requestUid: '[uuid]' };
}

async function expectResults(body: unknown, expected: Record<string, unknown>[]): Promise<void> {
  const reply = await multiSearch(body);
  expect(reply.status, reply.text).toBe(200);
  expectJson({ results: reply.body.results.map(stableResponse) }, { results: expected });
  // every result of one request carries the same request uid
  expect(new Set(reply.body.results.map((entry: { requestUid: string }) => entry.requestUid)).size).toBeLessThanOrEqual(1);
}

describe('request shapes', () => {
  it('answers an empty list of queries with no results, or an empty federated answer', async () => {
    const plain = await multiSearch({ queries: [] });
    expectJson(plain.body, { results: [] });
    await expectFederated({ federation: {}, queries: [] }, federated([]));
  });

  it('requires `queries` and an object body', async () => {
    expectError(await multiSearch({}), 400, 'bad_request', 'Missing field `queries`');
    expectError(await multiSearch({ federation: {} }), 400, 'bad_request', 'Missing field `queries`');
    expectError(await multiSearch([]), 400, 'bad_request', 'Invalid value type: expected an object, but found an array: `[]`');
  });

  it.each([{}, { federation: {} }])('requires a valid indexUid in every query (%j)', async (federation) => {
    expectError(await multiSearch({ ...federation, queries: [{ q: 'glass' }] }), 400, 'missing_index_uid', 'Missing field `indexUid` inside `.queries[0]`');
    expectError(
      await multiSearch({ ...federation, queries: [{ indexUid: 'hé', q: 'glass' }] }),
      400,
      'invalid_index_uid',
      'Invalid value at `.queries[0].indexUid`: `hé` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    );
  });
});

describe('searches without federation', () => {
  it('answers each query of one index in turn', async () => {
    await expectResults({ queries: [{ indexUid: movies, q: 'glass' }, { indexUid: movies, q: 'captain' }] }, [
      result(movies, 'glass', [doc('450465')]),
      result(movies, 'captain', [doc('299537')]),
    ]);
  });

  it('answers queries on two indexes', async () => {
    await expectResults({ queries: [{ indexUid: movies, q: 'glass' }, { indexUid: nested, q: 'pésti' }] }, [
      result(movies, 'glass', [doc('450465')]),
      result(nested, 'pésti', [doc(852), doc(654)]),
    ]);
  });
});

describe('federated searches over the shared indexes', () => {
  it('federation_single_search_single_index: gives a single query\'s hit its `_federation`, weight 1', async () => {
    await expectFederated({ federation: {}, queries: [{ indexUid: movies, q: 'glass' }] }, federated([['450465', movies, 0, 1.0]]));
  });

  it('federation_multiple_search_single_index: shows each document once, from the query ranking it best', async () => {
    await expectFederated(
      {
        federation: {},
        queries: [
          { indexUid: scores, q: 'the bat' },
          { indexUid: scores, q: 'badman returns' },
          { indexUid: scores, q: 'batman' },
          { indexUid: scores, q: 'batman returns' },
        ],
      },
      federated([
        ['D', scores, 2, 1.0],
        ['C', scores, 3, 1.0],
        ['A', scores, 2, R65_66],
        ['B', scores, 2, R65_66],
        ['E', scores, 1, 0.5],
      ]),
    );
  });

  it('federation_two_search_single_index: merges two queries of one index by score', async () => {
    await expectFederated(
      { federation: {}, queries: [{ indexUid: movies, q: 'glass' }, { indexUid: movies, q: 'captain' }] },
      federated([
        ['450465', movies, 0, 1.0],
        ['299537', movies, 1, R65_66],
      ]),
    );
  });

  it('federation_two_search_two_indexes: merges queries of two indexes by score', async () => {
    await expectFederated(
      { federation: {}, queries: [{ indexUid: movies, q: 'glass' }, { indexUid: nested, q: 'pésti' }] },
      federated([
        ['450465', movies, 0, 1.0],
        [852, nested, 1, 1.0],
        [654, nested, 1, 0.7803030303030303],
      ]),
    );
  });

  it('federation_multiple_search_multiple_indexes: merges eleven queries over three indexes by score, ties in query order', async () => {
    await expectFederated(
      {
        federation: {},
        queries: [
          { indexUid: movies, q: 'glass' },
          { indexUid: movies, q: 'captain' },
          { indexUid: nested, q: 'pésti' },
          { indexUid: movies, q: 'Escape' },
          { indexUid: nested, q: 'jean' },
          { indexUid: scores, q: 'jean' },
          { indexUid: movies, q: 'the bat' },
          { indexUid: scores, q: 'the bat' },
          { indexUid: scores, q: 'badman returns' },
          { indexUid: scores, q: 'batman' },
          { indexUid: scores, q: 'batman returns' },
        ],
      },
      federated([
        ['450465', movies, 0, 1.0],
        [852, nested, 2, 1.0],
        ['D', scores, 9, 1.0],
        ['C', scores, 10, 1.0],
        ['299537', movies, 1, R65_66],
        ['522681', movies, 3, R65_66],
        [951, nested, 4, R65_66],
        ['A', scores, 9, R65_66],
        ['B', scores, 9, R65_66],
        [654, nested, 2, 0.7803030303030303],
        ['E', scores, 8, 0.5],
        ['166428', movies, 6, 0.4166666666666667],
      ]),
    );
  });
});

describe('errors of one query among several', () => {
  it.each([{}, { federation: {} }])('names the first query whose index is missing (%j)', async (federation) => {
    expectError(
      await multiSearch({ ...federation, queries: [{ indexUid: movies, q: 'glass' }, { indexUid: 'nested', q: 'pésti' }] }),
      400,
      'index_not_found',
      'Inside `.queries[1]`: Index `nested` not found.',
    );
  });

  it('names the first missing index in query order without federation, and in index-name order with it', async () => {
    const queries = [
      { indexUid: 'test', q: 'glass' },
      { indexUid: 'nested', q: 'pésti' },
    ];
    expectError(await multiSearch({ queries }), 400, 'index_not_found', 'Inside `.queries[0]`: Index `test` not found.');
    expectError(await multiSearch({ federation: {}, queries }), 400, 'index_not_found', 'Inside `.queries[1]`: Index `nested` not found.');
  });

  it('reports the facets of the first failing query', async () => {
    const message = 'Inside `.queries[0]`: Invalid facet distribution: Pattern `color` is not filterable. Available filterable attributes patterns are: `id, title`.';
    for (const second of [{ indexUid: nested, q: 'pésti' }, { indexUid: nested, q: 'pésti', facets: ['doggos'] }]) {
      expectError(await multiSearch({ queries: [{ indexUid: movies, q: 'glass', facets: ['color'] }, second] }), 400, 'invalid_search_facets', message);
    }
  });

  it('reports filter errors inside the index, in the re-serialized filter', async () => {
    expectError(
      await multiSearch({ federation: {}, queries: [{ indexUid: movies, q: 'glass' }, { indexUid: nested, q: 'pésti', filter: ['title = toto'] }] }),
      400,
      'invalid_search_filter',
      `Inside \`.queries[1]\`: Index \`${nested}\`: Attribute \`title\` is not filterable. Available filterable attribute patterns are: \`cattos\`, \`doggos\`, \`father\`.\n2:7 "title" = "toto"`,
    );
    expectError(
      await multiSearch({
        queries: [
          { indexUid: movies, q: 'glass', filter: ['color = toto'] },
          { indexUid: nested, q: 'pésti', filter: ['mother IN [intel, kefir]'] },
        ],
      }),
      400,
      'invalid_search_filter',
      `Inside \`.queries[0]\`: Index \`${movies}\`: Attribute \`color\` is not filterable. Available filterable attribute patterns are: \`id\`, \`title\`.\n2:7 "color" = "toto"`,
    );
    expectError(
      await multiSearch({
        queries: [
          { indexUid: movies, q: 'glass' },
          { indexUid: nested, q: 'pésti', filter: ['mother IN [intel, kefir]'] },
          { indexUid: movies, q: 'glass', filter: ['title = toto'] },
        ],
      }),
      400,
      'invalid_search_filter',
      `Inside \`.queries[1]\`: Index \`${nested}\`: Attribute \`mother\` is not filterable. Available filterable attribute patterns are: \`cattos\`, \`doggos\`, \`father\`.\n2:8 "mother" IN ["intel", "kefir"]`,
    );
  });

  it('reports sort errors inside the index', async () => {
    const mother = `Inside \`.queries[1]\`: Index \`${nested}\`: Attribute \`mother\` is not sortable. Available sortable attributes are: \`doggos\`.`;
    expectError(
      await multiSearch({ federation: {}, queries: [{ indexUid: movies, q: 'glass' }, { indexUid: nested, q: 'pésti', sort: ['mother:desc'] }] }),
      400,
      'invalid_search_sort',
      mother,
    );
    expectError(
      await multiSearch({
        queries: [
          { indexUid: movies, q: 'glass', sort: ['color:desc'] },
          { indexUid: nested, q: 'pésti', sort: ['doggos:desc'] },
        ],
      }),
      400,
      'invalid_search_sort',
      `Inside \`.queries[0]\`: Index \`${movies}\`: Attribute \`color\` is not sortable. Available sortable attributes are: \`id, title\`.`,
    );
    expectError(
      await multiSearch({
        queries: [
          { indexUid: movies, q: 'glass' },
          { indexUid: nested, q: 'pésti', sort: ['mother:desc'] },
          { indexUid: movies, q: 'glass', sort: ['title:desc'] },
        ],
      }),
      400,
      'invalid_search_sort',
      mother,
    );
  });
});

describe('federation_filter', () => {
  it('weights a filtered query above the same query unfiltered', async () => {
    const uid = uniqueUid('fruits');
    await seed(server, uid, FRUITS_DOCUMENTS, { searchableAttributes: ['name'], filterableAttributes: ['BOOST'] });
    await expectFederated(
      {
        federation: {},
        queries: [
          { indexUid: uid, q: 'apple red', filter: 'BOOST = true', showRankingScore: true, federationOptions: { weight: 3.0 } },
          { indexUid: uid, q: 'apple red', showRankingScore: true },
        ],
      },
      federated([
        ['red-delicious-boosted', uid, 0, 2.7281746031746033, 0.9093915343915344],
        // Meilisearch prints 1.318181818181818, 3 × its 29/66 one ulp low
        ['green-apple-boosted', uid, 0, 3 * (29 / 66), 29 / 66],
        ['red-apple-gala', uid, 1, 0.953042328042328, 0.953042328042328],
      ]),
    );
  });
});

/** `rankingRules` with `sort` first, then the legacy relevancy rules of Meilisearch's sort tests. */
const SORT_FIRST = ['sort', 'words', 'typo', 'proximity', 'attribute', 'exactness'];
const RELEVANCY = ['words', 'typo', 'proximity', 'attribute', 'exactness'];

/** The notes saying a placeholder query lost its relevancy rules (rules 1–5, after `sort`). */
function placeholderNotes(query: number): string {
  const removed = RELEVANCY.map(
    (rule, i) => `    ${i + 1}. Removed relevancy rule \`${rule}\` at position #${i + 1} in ranking rules because the query is a placeholder search (\`q\`: "")\n`,
  );
  return `  - note: The ranking rules of query #${query} were modified during canonicalization:\n${removed.join('')}`;
}

/** A sort rule as the incompatibility message lists it. */
const sortRule = (query: number, uid: string, direction: 'ascending' | 'descending', field: string) =>
  `\`queries[${query}].sort[0]\`, \`${uid}.rankingRules[0]\`: ${direction} sort rule(s) on field \`${field}\``;

function incompatible(at: number, first: [number, string], second: [number, string], reason: string, notes = ''): string {
  return `Inside \`.queries[${at}]\`: The results of queries #${first[0]} and #${second[0]} are incompatible: \n  1. ${first[1]}\n  2. ${second[1]}\n  - ${reason}\n${notes}`;
}
const OPPOSITE = 'cannot compare two sort rules in opposite directions';

async function expectIncompatible(queries: unknown[], message: string): Promise<void> {
  expectError(await multiSearch({ federation: {}, queries }), 400, 'invalid_multi_search_query_ranking_rules', message);
}


describe('federated sort on one index', () => {
  let uid: string;
  const q = (text: string, sort: string) => ({ indexUid: uid, q: text, sort: [sort], showRankingScore: true });

  beforeAll(async () => {
    uid = uniqueUid('nested');
    await seed(server, uid, NESTED_DOCUMENTS, { sortableAttributes: ['mother', 'father'], rankingRules: SORT_FIRST });
  });

  it('federation_sort_same_indexes_same_criterion_same_direction: merges by the shared sort, identical queries answering from the first', async () => {
    await expectFederated(
      { federation: {}, queries: [q('', 'mother:asc'), q('', 'mother:asc')] },
      federated([
        [852, uid, 0, 1.0, 1.0],
        [750, uid, 0, 1.0, 1.0],
        [654, uid, 0, 1.0, 1.0],
        [951, uid, 0, 1.0, 1.0],
      ]),
    );
    await expectFederated(
      { federation: {}, queries: [q('pésti', 'mother:asc'), q('jean', 'mother:asc')] },
      federated([
        [852, uid, 0, 1.0, 1.0],
        [654, uid, 0, 0.7803030303030303, 0.7803030303030303],
        [951, uid, 1, R65_66, R65_66],
      ]),
    );
  });

  it('federation_sort_same_indexes_same_criterion_opposite_direction: refuses opposite sorts, noting the rules a placeholder drops', async () => {
    const mother = (query: number, direction: 'ascending' | 'descending') => [query, sortRule(query, uid, direction, 'mother')] as [number, string];
    await expectIncompatible(
      [q('', 'mother:asc'), q('', 'mother:desc')],
      incompatible(1, mother(0, 'ascending'), mother(1, 'descending'), OPPOSITE, placeholderNotes(0) + placeholderNotes(1)),
    );
    await expectIncompatible([q('pésti', 'mother:asc'), q('jean', 'mother:desc')], incompatible(1, mother(0, 'ascending'), mother(1, 'descending'), OPPOSITE));
  });

  it('federation_sort_same_indexes_different_criterion_same_direction: compares the values of different sort fields', async () => {
    await expectFederated(
      { federation: {}, queries: [q('', 'mother:asc'), q('', 'father:asc')] },
      federated([
        [852, uid, 1, 1.0, 1.0],
        [951, uid, 1, 1.0, 1.0],
        [750, uid, 0, 1.0, 1.0],
        [654, uid, 1, 1.0, 1.0],
      ]),
    );
    await expectFederated(
      { federation: {}, queries: [q('pésti', 'mother:desc'), q('jean-bap', 'father:desc'), q('jea', 'father:desc')] },
      federated([
        [654, uid, 0, 0.7803030303030303, 0.7803030303030303],
        [852, uid, 0, 1.0, 1.0],
        // Meilisearch prints 1133/1134 one ulp low (0.9991181657848324)
        [951, uid, 1, 1133 / 1134, 1133 / 1134],
      ]),
    );
  });

  it('federation_sort_same_indexes_different_criterion_opposite_direction: refuses ascending against descending on different fields', async () => {
    const first = [0, sortRule(0, uid, 'ascending', 'mother')] as [number, string];
    const second = [1, sortRule(1, uid, 'descending', 'father')] as [number, string];
    await expectIncompatible([q('', 'mother:asc'), q('', 'father:desc')], incompatible(1, first, second, OPPOSITE, placeholderNotes(0) + placeholderNotes(1)));
    await expectIncompatible([q('pésti', 'mother:asc'), q('jean', 'father:desc')], incompatible(1, first, second, OPPOSITE));
  });
});

describe('federated sort across two indexes', () => {
  /** DOCUMENTS and SCORE_DOCUMENTS with `sort` first, sorting the second index on `batmanSort`. */
  async function twoIndexes(batmanSort: string, batmanRules = SORT_FIRST): Promise<[string, string]> {
    const [moviesUid, batmanUid] = [uniqueUid('movies'), uniqueUid('batman')];
    await Promise.all([
      seed(server, moviesUid, DOCUMENTS, { sortableAttributes: ['title'], rankingRules: SORT_FIRST }),
      seed(server, batmanUid, SCORE_DOCUMENTS, { sortableAttributes: [batmanSort], rankingRules: batmanRules }),
    ]);
    return [moviesUid, batmanUid];
  }
  const q = (indexUid: string, text: string, sort: string) => ({ indexUid, q: text, sort: [sort], showRankingScore: true });
  /** Every document of both indexes at score 1, in this order. */
  const placeholders = (order: [string, string, number][]) => federated(order.map(([id, uid, position]) => [id, uid, position, 1.0, 1.0]));
  const TITLES_ASC = (moviesUid: string, batmanUid: string): [string, string, number][] => [
    ['E', batmanUid, 1],
    ['D', batmanUid, 1],
    ['C', batmanUid, 1],
    ['A', batmanUid, 1],
    ['B', batmanUid, 1],
    ['299537', moviesUid, 0],
    ['522681', moviesUid, 0],
    ['450465', moviesUid, 0],
    ['166428', moviesUid, 0],
    ['287947', moviesUid, 0],
  ];

  it('federation_sort_different_indexes_same_criterion_same_direction: sorts titles across indexes', async () => {
    const [moviesUid, batmanUid] = await twoIndexes('title');
    await expectFederated({ federation: {}, queries: [q(moviesUid, '', 'title:asc'), q(batmanUid, '', 'title:asc')] }, placeholders(TITLES_ASC(moviesUid, batmanUid)));
    await expectFederated(
      { federation: {}, queries: [q(batmanUid, 'badman returns', 'title:desc'), q(moviesUid, 'captain', 'title:desc'), q(batmanUid, 'the bat', 'title:desc')] },
      federated([
        ['299537', moviesUid, 1, R65_66, R65_66],
        ['B', batmanUid, 2, 0.9528218694885362, 0.9528218694885362],
        ['A', batmanUid, 2, 0.9528218694885362, 0.9528218694885362],
        ['C', batmanUid, 0, 0.8317901234567902, 0.8317901234567902],
        ['D', batmanUid, 0, 0.23106060606060605, 0.23106060606060605],
        ['E', batmanUid, 0, 0.5, 0.5],
      ]),
    );
  });

  it('federation_sort_different_ranking_rules: a relevancy rule cannot face a sort rule', async () => {
    const [moviesUid, batmanUid] = await twoIndexes('title', ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness']);
    await expectFederated({ federation: {}, queries: [q(moviesUid, '', 'title:asc'), q(batmanUid, '', 'title:asc')] }, placeholders(TITLES_ASC(moviesUid, batmanUid)));
    await expectIncompatible(
      [q(batmanUid, 'badman returns', 'title:desc'), q(moviesUid, 'captain', 'title:desc'), q(batmanUid, 'the bat', 'title:desc')],
      incompatible(
        1,
        [2, `\`queries[2]\`, \`${batmanUid}.rankingRules[0..=3]\`: relevancy rule(s) words, typo, proximity, attribute`],
        [1, sortRule(1, moviesUid, 'descending', 'title')],
        'cannot compare a relevancy rule with a sort rule',
      ),
    );
  });

  it('federation_sort_different_indexes_same_criterion_opposite_direction: refuses opposite sorts across indexes', async () => {
    const [moviesUid, batmanUid] = await twoIndexes('title');
    await expectIncompatible(
      [q(moviesUid, '', 'title:asc'), q(batmanUid, '', 'title:desc')],
      incompatible(
        0,
        [1, sortRule(1, batmanUid, 'descending', 'title')],
        [0, sortRule(0, moviesUid, 'ascending', 'title')],
        OPPOSITE,
        placeholderNotes(1) + placeholderNotes(0),
      ),
    );
    await expectIncompatible(
      [q(batmanUid, 'badman returns', 'title:asc'), q(moviesUid, 'captain', 'title:desc'), q(batmanUid, 'the bat', 'title:asc')],
      incompatible(1, [2, sortRule(2, batmanUid, 'ascending', 'title')], [1, sortRule(1, moviesUid, 'descending', 'title')], OPPOSITE),
    );
  });

  it('federation_sort_different_indexes_different_criterion_same_direction: compares the values of different fields across indexes', async () => {
    const [moviesUid, batmanUid] = await twoIndexes('id');
    await expectFederated(
      { federation: {}, queries: [q(moviesUid, '', 'title:asc'), q(batmanUid, '', 'id:asc')] },
      placeholders([
        ['A', batmanUid, 1],
        ['B', batmanUid, 1],
        ['C', batmanUid, 1],
        ['299537', moviesUid, 0],
        ['D', batmanUid, 1],
        ['E', batmanUid, 1],
        ['522681', moviesUid, 0],
        ['450465', moviesUid, 0],
        ['166428', moviesUid, 0],
        ['287947', moviesUid, 0],
      ]),
    );
    await expectFederated(
      { federation: {}, queries: [q(batmanUid, 'badman returns', 'id:desc'), q(moviesUid, 'captain', 'title:desc'), q(batmanUid, 'the bat', 'id:desc')] },
      federated([
        ['E', batmanUid, 0, 0.5, 0.5],
        ['D', batmanUid, 0, 0.23106060606060605, 0.23106060606060605],
        ['299537', moviesUid, 1, R65_66, R65_66],
        ['C', batmanUid, 0, 0.8317901234567902, 0.8317901234567902],
        ['B', batmanUid, 2, 0.9528218694885362, 0.9528218694885362],
        ['A', batmanUid, 2, 0.9528218694885362, 0.9528218694885362],
      ]),
    );
  });

  it('federation_sort_different_indexes_different_criterion_opposite_direction: refuses them, naming the most constrained query first', async () => {
    const [moviesUid, batmanUid] = await twoIndexes('id');
    await expectIncompatible(
      [q(moviesUid, '', 'title:asc'), q(batmanUid, '', 'id:desc')],
      incompatible(
        0,
        [1, sortRule(1, batmanUid, 'descending', 'id')],
        [0, sortRule(0, moviesUid, 'ascending', 'title')],
        OPPOSITE,
        placeholderNotes(1) + placeholderNotes(0),
      ),
    );
    await expectIncompatible(
      [q(batmanUid, 'badman returns', 'id:desc'), q(moviesUid, 'captain', 'title:asc'), q(batmanUid, 'the bat', 'id:desc')],
      incompatible(1, [2, sortRule(2, batmanUid, 'descending', 'id')], [1, sortRule(1, moviesUid, 'ascending', 'title')], OPPOSITE),
    );
  });
});

describe('federation_limit_offset', () => {
  /** The eleven queries of the test, each retrieving one attribute. */
  const queries = () =>
    (
      [
        [movies, 'glass', 'title'],
        [movies, 'captain', 'title'],
        [nested, 'pésti', 'id'],
        [movies, 'Escape', 'title'],
        [nested, 'jean', 'id'],
        [scores, 'jean', 'title'],
        [movies, 'the bat', 'title'],
        [scores, 'the bat', 'title'],
        [scores, 'badman returns', 'title'],
        [scores, 'batman', 'title'],
        [scores, 'batman returns', 'title'],
      ] as const
    ).map(([indexUid, q, attribute]) => ({ indexUid, q, attributesToRetrieve: [attribute] }));
  const ranked = (): Federated[] => [
    ['450465', movies, 0, 1.0],
    [852, nested, 2, 1.0],
    ['D', scores, 9, 1.0],
    ['C', scores, 10, 1.0],
    ['299537', movies, 1, R65_66],
    ['522681', movies, 3, R65_66],
    [951, nested, 4, R65_66],
    ['A', scores, 9, R65_66],
    ['B', scores, 9, R65_66],
    [654, nested, 2, 0.7803030303030303],
    ['E', scores, 8, 0.5],
    ['166428', movies, 6, 0.4166666666666667],
  ];
  /** A hit retrieving only `title` (or `id` for the nested index). */
  const slim = ([id, indexUid, queriesPosition, weightedRankingScore]: Federated) => ({
    ...(indexUid === nested ? { id } : { title: doc(id).title }),
    _federation: { indexUid, queriesPosition, weightedRankingScore },
  });
  const page = (hits: Federated[], limit: number, offset: number) => ({
    hits: hits.map(slim),
    processingTimeMs: '[duration]',
    limit,
    offset,
    estimatedTotalHits: 12,
    requestUid: '[uuid]',
  });

  it.each([
    [{}, 20, 0],
    [{ limit: 1 }, 1, 0],
    [{ offset: 2 }, 20, 2],
    [{ offset: 12 }, 20, 12],
  ])('pages the merged hits with federation %j', async (federation, limit, offset) => {
    await expectFederated({ federation, queries: queries() }, page(ranked().slice(offset, offset + limit), limit, offset));
  });
});

describe('federation_formatting', () => {
  it('highlights the hits of the queries asking for it, after `_federation`', async () => {
    const highlighted = new Set(['glass', 'captain', 'Escape', 'the bat', 'badman returns', 'batman', 'batman returns']);
    const queries = (
      [
        [movies, 'glass'],
        [movies, 'captain'],
        [nested, 'pésti'],
        [movies, 'Escape'],
        [nested, 'jean'],
        [scores, 'jean'],
        [movies, 'the bat'],
        [scores, 'the bat'],
        [scores, 'badman returns'],
        [scores, 'batman'],
        [scores, 'batman returns'],
      ] as const
    ).map(([indexUid, q]) =>
      indexUid === nested ? { indexUid, q, attributesToRetrieve: ['id'] } : { indexUid, q, attributesToRetrieve: ['title'], ...(highlighted.has(q) ? { attributesToHighlight: ['title'] } : {}) },
    );
    const hit = ([id, indexUid, queriesPosition, weightedRankingScore]: Federated, formatted?: string) => ({
      ...(indexUid === nested ? { id } : { title: doc(id).title }),
      _federation: { indexUid, queriesPosition, weightedRankingScore },
      ...(formatted === undefined ? {} : { _formatted: { title: formatted } }),
    });
    await expectFederated(
      { federation: {}, queries },
      {
        hits: [
          hit(['450465', movies, 0, 1.0], '<em>Gläss</em>'),
          hit([852, nested, 2, 1.0]),
          hit(['D', scores, 9, 1.0], '<em>Batman</em>'),
          hit(['C', scores, 10, 1.0], '<em>Batman</em> <em>Returns</em>'),
          hit(['299537', movies, 1, R65_66], '<em>Captain</em> Marvel'),
          hit(['522681', movies, 3, R65_66], '<em>Escape</em> Room'),
          hit([951, nested, 4, R65_66]),
          hit(['A', scores, 9, R65_66], '<em>Batman</em> the dark knight returns: Part 1'),
          hit(['B', scores, 9, R65_66], '<em>Batman</em> the dark knight returns: Part 2'),
          hit([654, nested, 2, 0.7803030303030303]),
          hit(['E', scores, 8, 0.5], '<em>Badman</em>'),
          hit(['166428', movies, 6, 0.4166666666666667], 'How to Train Your Dragon: <em>The</em> Hidden World'),
        ],
        processingTimeMs: '[duration]',
        limit: 20,
        offset: 0,
        estimatedTotalHits: 12,
        requestUid: '[uuid]',
      },
    );
  });
});

describe('federation options and forbidden query parameters', () => {
  let fruits: string;
  const apples = (extra: object = {}) => ({ indexUid: fruits, q: 'apple red', ...extra });

  beforeAll(async () => {
    fruits = uniqueUid('fruits');
    await seed(server, fruits, FRUITS_DOCUMENTS, { searchableAttributes: ['name'], filterableAttributes: ['BOOST'] });
  });

  it('federation_invalid_weight: refuses a negative weight', async () => {
    expectError(
      await multiSearch({
        federation: {},
        queries: [apples({ filter: 'BOOST = true', showRankingScore: true, federationOptions: { weight: 3.0 } }), apples({ showRankingScore: true, federationOptions: { weight: -12 } })],
      }),
      400,
      'invalid_multi_search_weight',
      'Invalid value at `.queries[1].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).',
    );
  });

  it('federation_null_weight: a zero weight ranks its hits last, keeping their own `_rankingScore`', async () => {
    await expectFederated(
      {
        federation: {},
        queries: [apples({ filter: 'BOOST = true', showRankingScore: true, federationOptions: { weight: 3.0 } }), apples({ showRankingScore: true, federationOptions: { weight: 0.0 } })],
      },
      federated([
        ['red-delicious-boosted', fruits, 0, 2.7281746031746033, 0.9093915343915344],
        // Meilisearch prints 1.318181818181818, 3 × its 29/66 one ulp low
        ['green-apple-boosted', fruits, 0, 3 * (29 / 66), 29 / 66],
        ['red-apple-gala', fruits, 1, 0.0, 0.953042328042328],
      ]),
    );
  });

  it.each([['limit', 5], ['offset', 5], ['page', 2], ['hitsPerPage', 5]])('federation_federated_contains_pagination: refuses `%s` in a query', async (field, value) => {
    expectError(
      await multiSearch({ federation: {}, queries: [apples(), apples({ [field]: value })] }),
      400,
      'invalid_multi_search_query_pagination',
      `Inside \`.queries[1]\`: Using pagination options is not allowed in federated queries.\n - Hint: remove \`${field}\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.limit\` and \`federation.offset\` for pagination in federated search`,
    );
  });

  it('federation_federated_contains_facets: accepts empty facets, refuses others', async () => {
    await expectFederated(
      { federation: {}, queries: [apples(), apples({ facets: [] })] },
      federated([
        ['red-apple-gala', fruits, 0, 0.953042328042328],
        ['red-delicious-boosted', fruits, 0, 0.9093915343915344],
        ['green-apple-boosted', fruits, 0, 29 / 66],
      ]),
    );
    expectError(
      await multiSearch({ federation: {}, queries: [apples(), apples({ facets: ['BOOSTED'] })] }),
      400,
      'invalid_multi_search_query_facets',
      `Inside \`.queries[1]\`: Using facet options is not allowed in federated queries.\n - Hint: remove \`facets\` from the query or remove \`federation\` from the request\n - Hint: pass \`federation.facetsByIndex.${fruits}: ["BOOSTED"]\` for facets in federated search`,
    );
  });

  it('federation_non_federated_contains_federation_option: refuses federationOptions without federation', async () => {
    expectError(
      await multiSearch({ queries: [apples(), apples({ federationOptions: {} })] }),
      400,
      'invalid_multi_search_federation_options',
      'Inside `.queries[1]`: Using `federationOptions` is not allowed in a non-federated search.\n - Hint: remove `federationOptions` from the query or add `federation` to the request.',
    );
  });
});

describe('federation_non_faceted_for_an_index', () => {
  it('reports the facets an index cannot compute, naming its query or saying it has none', async () => {
    const [withName, noName, noFacets] = [uniqueUid('fruits'), uniqueUid('fruits-no-name'), uniqueUid('fruits-no-facets')];
    await Promise.all([
      succeed(server, 'PATCH', `/indexes/${withName}/settings`, { searchableAttributes: ['name'], filterableAttributes: ['BOOST', 'id', 'name'] }),
      succeed(server, 'PATCH', `/indexes/${noName}/settings`, { searchableAttributes: ['name'], filterableAttributes: ['BOOST', 'id'] }),
      seed(server, noFacets, FRUITS_DOCUMENTS).then(() => succeed(server, 'PATCH', `/indexes/${noFacets}/settings`, { searchableAttributes: ['name'] })),
    ]);
    const apples = (indexUid: string) => ({ indexUid, q: 'apple red' });
    const nameRefused = 'Invalid facet distribution: Pattern `name` is not filterable. Available filterable attributes patterns are: `BOOST, id`.';

    // the reference locates the error of a queried index on its query (search.md §10.2)
    expectError(
      await multiSearch({ federation: { facetsByIndex: { [withName]: ['BOOST', 'id', 'name'], [noName]: ['BOOST', 'id', 'name'] } }, queries: [apples(withName), apples(noName)] }),
      400,
      'invalid_search_facets',
      `Inside \`.queries[1]\`: Inside \`.federation.facetsByIndex.${noName}\`: ${nameRefused}`,
    );
    expectError(
      await multiSearch({ federation: { facetsByIndex: { [withName]: ['BOOST', 'id', 'name'], [noName]: ['BOOST', 'id', 'name'] } }, queries: [apples(withName), apples(withName)] }),
      400,
      'invalid_search_facets',
      `Inside \`.federation.facetsByIndex.${noName}\`: ${nameRefused}\n - Note: index \`${noName}\` is not used in queries`,
    );
    expectError(
      await multiSearch({
        federation: { facetsByIndex: { [withName]: ['BOOST', 'id', 'name'], [noName]: ['BOOST', 'id'], [noFacets]: ['BOOST', 'id'] } },
        queries: [apples(withName), apples(withName)],
      }),
      400,
      'invalid_search_facets',
      `Inside \`.federation.facetsByIndex.${noFacets}\`: Invalid facet distribution: Pattern \`BOOST\` is not filterable. This index does not have configured filterable attributes.\n - Note: index \`${noFacets}\` is not used in queries`,
    );
    expectError(
      await multiSearch({ federation: { facetsByIndex: { zorglub: ['BOOST', 'id', 'name'], [withName]: ['BOOST', 'id', 'name'] } }, queries: [apples(withName), apples(withName)] }),
      400,
      'index_not_found',
      'Inside `.federation.facetsByIndex.zorglub`: Index `zorglub` not found.\n - Note: index `zorglub` is not used in queries',
    );
  });
});

/** `[title, index uid, queriesPosition, weightedRankingScore]` of a hit retrieving only its title. */
type Titled = [title: string, indexUid: string, queriesPosition: number, weightedRankingScore: number];
const titled = ([title, indexUid, queriesPosition, weightedRankingScore]: Titled) => ({ title, _federation: { indexUid, queriesPosition, weightedRankingScore } });

/** A federated answer of titled hits, with its facet keys after the pagination ones. */
function facetted(hits: Titled[], estimatedTotalHits: number, facets: Record<string, unknown>): Record<string, unknown> {
  return { hits: hits.map(titled), processingTimeMs: '[duration]', limit: 20, offset: 0, estimatedTotalHits, ...facets, requestUid: '[uuid]' };
}

const BATMAN_TITLES = ['Badman', 'Batman', 'Batman Returns', 'Batman the dark knight returns: Part 1', 'Batman the dark knight returns: Part 2'];
const MOVIE_TITLES = ['Captain Marvel', 'Escape Room', 'Gläss', 'How to Train Your Dragon: The Hidden World', 'Shazam!'];
const ones = (values: string[]) => Object.fromEntries(values.map((value) => [value, 1]));

describe('federation_facets_different_indexes_same_facet', () => {
  let moviesUid: string;
  let batmanUid: string;
  let batman2Uid: string;
  const placeholder = (indexUid: string) => ({ indexUid, q: '', sort: ['title:asc'], attributesToRetrieve: ['title'] });
  /** Every title of the three indexes at score 1, sorted across them. */
  const allTitles = (): Titled[] => [
    ...BATMAN_TITLES.flatMap((title): Titled[] => [
      [title, batmanUid, 1, 1.0],
      [title, batman2Uid, 2, 1.0],
    ]),
    ...MOVIE_TITLES.map((title): Titled => [title, moviesUid, 0, 1.0]),
  ];

  beforeAll(async () => {
    [moviesUid, batmanUid, batman2Uid] = [uniqueUid('movies'), uniqueUid('batman'), uniqueUid('batman_2')];
    await Promise.all([
      seed(server, moviesUid, DOCUMENTS, { sortableAttributes: ['title'], filterableAttributes: ['title', 'color'], rankingRules: SORT_FIRST }),
      seed(server, batmanUid, SCORE_DOCUMENTS, { sortableAttributes: ['title'], filterableAttributes: ['title'], rankingRules: SORT_FIRST }),
      seed(server, batman2Uid, SCORE_DOCUMENTS, { sortableAttributes: ['title'], filterableAttributes: ['title'], rankingRules: SORT_FIRST }),
    ]);
  });

  it('lists each index facets by uid', async () => {
    await expectFederated(
      {
        federation: { facetsByIndex: { [moviesUid]: ['title', 'color'], [batmanUid]: ['title'], [batman2Uid]: ['title'] } },
        queries: [placeholder(moviesUid), placeholder(batmanUid), placeholder(batman2Uid)],
      },
      facetted(allTitles(), 15, {
        facetsByIndex: Object.fromEntries(
          [
            [batmanUid, { distribution: { title: ones(BATMAN_TITLES) }, stats: {} }],
            [batman2Uid, { distribution: { title: ones(BATMAN_TITLES) }, stats: {} }],
            [moviesUid, { distribution: { color: { blue: 3, green: 2, red: 3, yellow: 2 }, title: ones(MOVIE_TITLES) }, stats: {} }],
          ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
        ),
      }),
    );
  });

  it('sums the counts of the same value across indexes with mergeFacets', async () => {
    await expectFederated(
      {
        federation: { facetsByIndex: { [moviesUid]: ['title'], [batmanUid]: ['title'], [batman2Uid]: ['title'] }, mergeFacets: {} },
        queries: [placeholder(moviesUid), placeholder(batmanUid), placeholder(batman2Uid)],
      },
      facetted(allTitles(), 15, {
        facetDistribution: { title: { ...Object.fromEntries(BATMAN_TITLES.map((title) => [title, 2])), ...ones(MOVIE_TITLES) } },
        facetStats: {},
      }),
    );
  });

  it('answers an empty distribution for an index asking no facet', async () => {
    const q = (indexUid: string, text: string) => ({ indexUid, q: text, sort: ['title:desc'], attributesToRetrieve: ['title'] });
    const batmanFacets = { distribution: { title: ones(BATMAN_TITLES) }, stats: {} };
    await expectFederated(
      {
        federation: { facetsByIndex: { [moviesUid]: [], [batmanUid]: ['title'], [batman2Uid]: ['title'] } },
        queries: [q(batmanUid, 'badman returns'), q(batman2Uid, 'badman returns'), q(moviesUid, 'captain'), q(batmanUid, 'the bat')],
      },
      facetted(
        [
          ['Captain Marvel', moviesUid, 2, R65_66],
          ['Batman the dark knight returns: Part 2', batmanUid, 3, 0.9528218694885362],
          ['Batman the dark knight returns: Part 2', batman2Uid, 1, 0.7028218694885362],
          ['Batman the dark knight returns: Part 1', batmanUid, 3, 0.9528218694885362],
          ['Batman the dark knight returns: Part 1', batman2Uid, 1, 0.7028218694885362],
          ['Batman Returns', batmanUid, 0, 0.8317901234567902],
          ['Batman Returns', batman2Uid, 1, 0.8317901234567902],
          ['Batman', batmanUid, 0, 0.23106060606060605],
          ['Batman', batman2Uid, 1, 0.23106060606060605],
          ['Badman', batmanUid, 0, 0.5],
          ['Badman', batman2Uid, 1, 0.5],
        ],
        11,
        {
          facetsByIndex: Object.fromEntries(
            [
              [batmanUid, batmanFacets],
              [batman2Uid, batmanFacets],
              [moviesUid, { distribution: {}, stats: {} }],
            ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
          ),
        },
      ),
    );
  });
});

describe('federation_facets_same_indexes', () => {
  let doggos: string;
  let doggos2: string;
  const FACETS = ['father', 'mother', 'doggos.age'];
  /** `[id, index uid, queriesPosition]` of hits retrieving only `id`, all at 127/132. */
  const ids = (hits: [number, string, number][]) => hits.map(([id, indexUid, queriesPosition]) => ({ id, _federation: { indexUid, queriesPosition, weightedRankingScore: 0.9621212121212122 } }));
  const answer = (hits: [number, string, number][], facets: Record<string, unknown>) => ({
    hits: ids(hits),
    processingTimeMs: '[duration]',
    limit: 20,
    offset: 0,
    estimatedTotalHits: hits.length,
    ...facets,
    requestUid: '[uuid]',
  });
  const query = (indexUid: string, q: string) => ({ indexUid, q, attributesToRetrieve: ['id'] });

  beforeAll(async () => {
    [doggos, doggos2] = [uniqueUid('doggos'), uniqueUid('doggos_2')];
    const settings = { filterableAttributes: FACETS, rankingRules: SORT_FIRST };
    await Promise.all([seed(server, doggos, NESTED_DOCUMENTS, settings), seed(server, doggos2, NESTED_DOCUMENTS, settings)]);
  });

  it('counts the facets over the union of the queries of one index', async () => {
    await expectFederated(
      { federation: { facetsByIndex: { [doggos]: FACETS } }, queries: [query(doggos, 'je'), query(doggos, 'michel')] },
      answer(
        [
          [852, doggos, 0],
          [951, doggos, 0],
          [750, doggos, 1],
        ],
        {
          facetsByIndex: {
            [doggos]: {
              distribution: { 'doggos.age': { 2: 1, 4: 1, 5: 1, 6: 1 }, father: { jean: 1, 'jean-baptiste': 1, romain: 1 }, mother: { michelle: 2, sophie: 1 } },
              stats: { 'doggos.age': { min: 2.0, max: 6.0 } },
            },
          },
        },
      ),
    );
  });

  it('counts each index over its own queries, and merges them with mergeFacets', async () => {
    const hits: [number, string, number][] = [
      [852, doggos, 0],
      [951, doggos, 0],
      [852, doggos2, 1],
      [750, doggos2, 1],
    ];
    const body = (merge: boolean) => ({
      federation: { facetsByIndex: { [doggos]: FACETS, [doggos2]: FACETS }, ...(merge ? { mergeFacets: {} } : {}) },
      queries: [query(doggos, 'je'), query(doggos2, 'michel')],
    });
    await expectFederated(
      body(false),
      answer(hits, {
        facetsByIndex: {
          [doggos]: {
            distribution: { 'doggos.age': { 2: 1, 4: 1, 5: 1, 6: 1 }, father: { jean: 1, 'jean-baptiste': 1 }, mother: { michelle: 1, sophie: 1 } },
            stats: { 'doggos.age': { min: 2.0, max: 6.0 } },
          },
          [doggos2]: {
            distribution: { 'doggos.age': { 2: 1, 4: 1 }, father: { jean: 1, romain: 1 }, mother: { michelle: 2 } },
            stats: { 'doggos.age': { min: 2.0, max: 4.0 } },
          },
        },
      }),
    );
    await expectFederated(
      body(true),
      answer(hits, {
        facetDistribution: { 'doggos.age': { 2: 2, 4: 2, 5: 1, 6: 1 }, father: { jean: 2, 'jean-baptiste': 1, romain: 1 }, mother: { michelle: 3, sophie: 1 } },
        facetStats: { 'doggos.age': { min: 2.0, max: 6.0 } },
      }),
    );
  });
});

describe('federation_inconsistent_merge_order', () => {
  let moviesUid: string;
  let movies2Uid: string;
  let batmanUid: string;
  const placeholder = (indexUid: string) => ({ indexUid, q: '', sort: ['title:asc'], attributesToRetrieve: ['title'] });
  const queries = () => [placeholder(moviesUid), placeholder(batmanUid), placeholder(movies2Uid)];
  const allTitles = (): Titled[] => [
    ...BATMAN_TITLES.map((title): Titled => [title, batmanUid, 1, 1.0]),
    ...MOVIE_TITLES.flatMap((title): Titled[] => [
      [title, moviesUid, 0, 1.0],
      [title, movies2Uid, 2, 1.0],
    ]),
  ];

  beforeAll(async () => {
    [moviesUid, movies2Uid, batmanUid] = [uniqueUid('movies'), uniqueUid('movies_2'), uniqueUid('batman')];
    const movieSettings = { sortableAttributes: ['title'], filterableAttributes: ['title', 'color'], rankingRules: SORT_FIRST };
    await Promise.all([
      seed(server, moviesUid, DOCUMENTS, movieSettings),
      seed(server, movies2Uid, DOCUMENTS, { ...movieSettings, faceting: { sortFacetValuesBy: { color: 'count' } } }),
      seed(server, batmanUid, SCORE_DOCUMENTS, { sortableAttributes: ['title'], filterableAttributes: ['title'], rankingRules: SORT_FIRST }),
    ]);
  });

  it('orders each index values by its own setting without merging', async () => {
    await expectFederated(
      { federation: { facetsByIndex: { [moviesUid]: ['title', 'color'], [batmanUid]: ['title'], [movies2Uid]: ['title', 'color'] } }, queries: queries() },
      facetted(allTitles(), 15, {
        facetsByIndex: Object.fromEntries(
          [
            [batmanUid, { distribution: { title: ones(BATMAN_TITLES) }, stats: {} }],
            [moviesUid, { distribution: { color: { blue: 3, green: 2, red: 3, yellow: 2 }, title: ones(MOVIE_TITLES) }, stats: {} }],
            [movies2Uid, { distribution: { color: { red: 3, blue: 3, yellow: 2, green: 2 }, title: ones(MOVIE_TITLES) }, stats: {} }],
          ].sort(([a], [b]) => ((a as string) < (b as string) ? -1 : 1)),
        ),
      }),
    );
  });

  it('refuses to merge a facet the indexes order differently', async () => {
    const reply = await multiSearch({
      federation: { facetsByIndex: { [moviesUid]: ['title', 'color'], [batmanUid]: ['title'], [movies2Uid]: ['title', 'color'] }, mergeFacets: {} },
      queries: queries(),
    });
    expectError(
      reply,
      400,
      'invalid_multi_search_facet_order',
      `Inside \`.queries[2]\`: Inside \`.federation.facetsByIndex.${movies2Uid}\`: Inconsistent order for values in facet \`color\`: index \`${moviesUid}\` orders alphabetically, but index \`${movies2Uid}\` orders by count.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.`,
    );
    // an index no query names is located with a note instead
    const unused = await multiSearch({
      federation: { facetsByIndex: { [moviesUid]: ['title', 'color'], [batmanUid]: ['title'], [movies2Uid]: ['title', 'color'] }, mergeFacets: {} },
      queries: queries().slice(0, 2),
    });
    expectError(
      unused,
      400,
      'invalid_multi_search_facet_order',
      `Inside \`.federation.facetsByIndex.${movies2Uid}\`: Inconsistent order for values in facet \`color\`: index \`${moviesUid}\` orders alphabetically, but index \`${movies2Uid}\` orders by count.\n - Hint: Remove \`federation.mergeFacets\` or change \`faceting.sortFacetValuesBy\` to be consistent in settings.\n - Note: index \`${movies2Uid}\` is not used in queries`,
    );
  });

  it('truncates merged facets to mergeFacets.maxValuesPerFacet', async () => {
    await expectFederated(
      { federation: { facetsByIndex: { [moviesUid]: ['title', 'color'], [batmanUid]: ['title'], [movies2Uid]: ['title'] }, mergeFacets: { maxValuesPerFacet: 3 } }, queries: queries() },
      facetted(allTitles(), 15, {
        facetDistribution: { color: { blue: 3, green: 2, red: 3 }, title: { Badman: 1, Batman: 1, 'Batman Returns': 1 } },
        facetStats: {},
      }),
    );
  });
});

describe('federation_distinct_two_indexes_nested', () => {
  it("counts only the documents the federated distinct keeps, but takes the stats of every index's candidates", async () => {
    const [first, second] = [uniqueUid('test-0'), uniqueUid('test-1')];
    await Promise.all([
      seed(server, first, [{ id: 0, root: { nested: 0 }, 'root.nested': 1 }], { filterableAttributes: ['root.nested'] }),
      seed(server, second, [{ id: 1, root: { nested: 1 }, 'root.nested': 2 }], { filterableAttributes: ['root.nested'] }),
    ]);
    const search = async (uids: string[]) => {
      const reply = await multiSearch({
        federation: { facetsByIndex: { [first]: ['root.nested'], [second]: ['root.nested'] }, mergeFacets: {}, distinct: 'root.nested' },
        queries: uids.map((indexUid) => ({ indexUid, q: '', attributesToRetrieve: ['id'] })),
      });
      expect(reply.status, reply.text).toBe(200);
      return reply.body;
    };
    const forward = await search([first, second]);
    expect(forward.hits.map((hit: { id: number }) => hit.id)).toEqual([0]);
    expect(forward).toMatchObject({ estimatedTotalHits: 1, facetDistribution: { 'root.nested': { 0: 1, 1: 1 } }, facetStats: { 'root.nested': { min: 0, max: 2 } } });
    const backward = await search([second, first]);
    expect(backward.hits.map((hit: { id: number }) => hit.id)).toEqual([1]);
    expect(backward).toMatchObject({ estimatedTotalHits: 1, facetDistribution: { 'root.nested': { 1: 1, 2: 1 } }, facetStats: { 'root.nested': { min: 0, max: 2 } } });
  });
});
