// Out-of-range numbers through the real server (issue 25): every numeric parameter of every route
// × {1e308, 1.5, -1, 2^64} answers v1.50's 400. Counts are Rust `usize`s (u8 for typo sizes):
// serde_json reads 1e308, 1.5 and 18446744073709551616 (past u64) as floats, printed by ryu, and
// deserr refuses a float or a negative integer as a kind mismatch; query strings go through
// `str::parse`, which refuses all four. Floats with a range (`rankingScoreThreshold`,
// `semanticRatio`) answer their range message; `weight` only refuses negatives.
// Bodies are sent as text, so each number reaches the server exactly as written here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';
import { errorBody } from '../auth/request.js';

const MASTER_KEY = 'MASTER_KEY';
const TOO_BIG = '18446744073709551616';

/** Each raw number, and how deserr describes what it found in a JSON body. */
const NUMBERS = [
  ['1e308', 'a number: `1e308`'],
  ['1.5', 'a number: `1.5`'],
  ['-1', 'a negative integer: `-1`'],
  [TOO_BIG, 'a number: `1.8446744073709552e19`'],
] as const;

let server: TestServer;

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  const { body } = await send('POST', '/indexes', '{"uid":"movies"}');
  for (let status = body.status; status !== 'succeeded'; await new Promise((r) => setTimeout(r, 20))) {
    status = (await send('GET', `/tasks/${body.taskUid}`)).body.status;
    expect(status).not.toBe('failed');
  }
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function send(method: string, path: string, text?: string): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${MASTER_KEY}` };
  if (text !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${server.url}${path}`, { method, headers, body: text });
  const reply = await res.text();
  return { status: res.status, body: reply === '' ? null : JSON.parse(reply) };
}

/** `[method, path, body template (@ is the number), location, code]` for every unsigned count. */
type Case = readonly [string, string, string, string, string];

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const PAGINATION = ['offset', 'limit', 'page', 'hitsPerPage'] as const;

const BODY_COUNTS: Case[] = [
  ...[...PAGINATION, 'cropLength'].map((p): Case => ['POST', '/indexes/movies/search', `{"${p}":@}`, `.${p}`, `invalid_search_${snake(p)}`]),
  ...[...PAGINATION, 'cropLength'].map(
    (p): Case => ['POST', '/multi-search', `{"queries":[{"indexUid":"movies","${p}":@}]}`, `.queries[0].${p}`, `invalid_search_${snake(p)}`],
  ),
  ...PAGINATION.map((p): Case => ['POST', '/multi-search', `{"federation":{"${p}":@},"queries":[]}`, `.federation.${p}`, `invalid_search_${snake(p)}`]),
  [
    'POST',
    '/multi-search',
    '{"federation":{"mergeFacets":{"maxValuesPerFacet":@}},"queries":[]}',
    '.federation.mergeFacets.maxValuesPerFacet',
    'invalid_multi_search_max_values_per_facet',
  ],
  [
    'POST',
    '/multi-search',
    '{"federation":{},"queries":[{"indexUid":"movies","federationOptions":{"queryPosition":@}}]}',
    '.queries[0].federationOptions.queryPosition',
    'invalid_multi_search_query_position',
  ],
  ...(['offset', 'limit'] as const).flatMap((p): Case[] => [
    ['POST', '/indexes/movies/documents/fetch', `{"${p}":@}`, `.${p}`, `invalid_document_${p}`],
    ['POST', '/indexes/movies/fields', `{"${p}":@}`, `.${p}`, `invalid_index_${p}`],
  ]),
  ['PATCH', '/indexes/movies/settings', '{"pagination":{"maxTotalHits":@}}', '.pagination.maxTotalHits', 'invalid_settings_pagination'],
  ['PATCH', '/indexes/movies/settings/pagination', '{"maxTotalHits":@}', '.maxTotalHits', 'invalid_settings_pagination'],
  ['PATCH', '/indexes/movies/settings', '{"faceting":{"maxValuesPerFacet":@}}', '.faceting.maxValuesPerFacet', 'invalid_settings_faceting'],
  ['PATCH', '/indexes/movies/settings', '{"searchCutoffMs":@}', '.searchCutoffMs', 'invalid_settings_search_cutoff_ms'],
  ['PUT', '/indexes/movies/settings/search-cutoff-ms', '@', '', 'invalid_settings_search_cutoff_ms'],
  ...(['oneTypo', 'twoTypos'] as const).map(
    (p): Case => [
      'PATCH',
      '/indexes/movies/settings',
      `{"typoTolerance":{"minWordSizeForTypos":{"${p}":@}}}`,
      `.typoTolerance.minWordSizeForTypos.${p}`,
      'invalid_settings_typo_tolerance',
    ],
  ),
  ...(['dimensions', 'documentTemplateMaxBytes'] as const).map(
    (p): Case => [
      'PATCH',
      '/indexes/movies/settings',
      `{"embedders":{"default":{"source":"userProvided","${p}":@}}}`,
      `.embedders.default.${p}`,
      'invalid_settings_embedders',
    ],
  ),
];

describe('unsigned counts in JSON bodies', () => {
  describe.each(BODY_COUNTS)('%s %s %s', (method, path, template, location, code) => {
    it.each(NUMBERS)('%s', async (raw, found) => {
      const at = location === '' ? '' : ` at \`${location}\``;
      expect(await send(method, path, template.replace('@', raw))).toEqual({
        status: 400,
        body: errorBody(code, `Invalid value type${at}: expected a positive integer, but found ${found}`),
      });
    });
  });
});

/** `[path, parameter, code]` for every unsigned count of a query string. */
const QUERY_COUNTS: (readonly [string, string, string])[] = [
  ...[...PAGINATION, 'cropLength'].map((p) => ['/indexes/movies/search', p, `invalid_search_${snake(p)}`] as const),
  ['/indexes/movies/documents', 'offset', 'invalid_document_offset'],
  ['/indexes/movies/documents', 'limit', 'invalid_document_limit'],
  ['/indexes', 'offset', 'invalid_index_offset'],
  ['/indexes', 'limit', 'invalid_index_limit'],
  ['/keys', 'offset', 'invalid_api_key_offset'],
  ['/keys', 'limit', 'invalid_api_key_limit'],
  ['/tasks', 'from', 'invalid_task_from'],
  ['/tasks', 'limit', 'invalid_task_limit'],
  ['/tasks', 'uids', 'invalid_task_uids'],
  // Batches read the task filters, codes included (v1.50 routes/batches.rs takes TasksFilterQuery).
  ['/batches', 'from', 'invalid_task_from'],
  ['/batches', 'limit', 'invalid_task_limit'],
];

describe('unsigned counts in query strings', () => {
  describe.each(QUERY_COUNTS)('GET %s?%s=', (path, parameter, code) => {
    it.each(NUMBERS.map(([raw]) => raw))('%s', async (raw) => {
      expect(await send('GET', `${path}?${parameter}=${raw}`)).toEqual({
        status: 400,
        body: errorBody(code, `Invalid value in parameter \`${parameter}\`: could not parse \`${raw}\` as a positive integer`),
      });
    });
  });
});

const RANGE = (name: string) => `the value of \`${name}\` is invalid, expected a float between \`0.0\` and \`1.0\`.`;

describe('floats with a range', () => {
  const cases = [
    ['POST', '/indexes/movies/search', '{"rankingScoreThreshold":@}', '.rankingScoreThreshold', 'invalid_search_ranking_score_threshold', RANGE('rankingScoreThreshold')],
    ['POST', '/indexes/movies/facet-search', '{"facetName":"genres","rankingScoreThreshold":@}', '.rankingScoreThreshold', 'invalid_search_ranking_score_threshold', RANGE('rankingScoreThreshold')],
    ['POST', '/multi-search', '{"queries":[{"indexUid":"movies","rankingScoreThreshold":@}]}', '.queries[0].rankingScoreThreshold', 'invalid_search_ranking_score_threshold', RANGE('rankingScoreThreshold')],
    ['POST', '/indexes/movies/search', '{"hybrid":{"embedder":"default","semanticRatio":@}}', '.hybrid.semanticRatio', 'invalid_search_semantic_ratio', RANGE('semanticRatio')],
  ] as const;
  describe.each(cases)('%s %s %s', (method, path, template, location, code, reason) => {
    it.each(NUMBERS.map(([raw]) => raw))('%s', async (raw) => {
      expect(await send(method, path, template.replace('@', raw))).toEqual({
        status: 400,
        body: errorBody(code, `Invalid value at \`${location}\`: ${reason}`),
      });
    });
  });

  it.each(NUMBERS.map(([raw]) => raw))('GET search rankingScoreThreshold=%s', async (raw) => {
    expect(await send('GET', `/indexes/movies/search?rankingScoreThreshold=${raw}`)).toEqual({
      status: 400,
      body: errorBody('invalid_search_ranking_score_threshold', `Invalid value in parameter \`rankingScoreThreshold\`: ${RANGE('rankingScoreThreshold')}`),
    });
  });

  it.each(['1e308', '1.5', TOO_BIG])('a federation weight of %s is a positive float, accepted', async (raw) => {
    const reply = await send('POST', '/multi-search', `{"federation":{},"queries":[{"indexUid":"movies","federationOptions":{"weight":${raw}}}]}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });

  it('a negative federation weight is refused', async () => {
    expect(await send('POST', '/multi-search', '{"federation":{},"queries":[{"indexUid":"movies","federationOptions":{"weight":-1}}]}')).toEqual({
      status: 400,
      body: errorBody(
        'invalid_multi_search_weight',
        'Invalid value at `.queries[0].federationOptions.weight`: the value of `weight` is invalid, expected a positive float (>= 0.0).',
      ),
    });
  });
});

describe('the largest counts that fit are accepted', () => {
  it.each(['offset', 'limit', 'page', 'hitsPerPage'])('search %s of 10^19 answers at once', async (parameter) => {
    const reply = await send('POST', '/indexes/movies/search', `{"${parameter}":10000000000000000000}`);
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    expect(reply.body.hits).toEqual([]);
  });

  it('a federation mergeFacets.maxValuesPerFacet may be null (an Option<usize>)', async () => {
    const reply = await send('POST', '/multi-search', '{"federation":{"mergeFacets":{"maxValuesPerFacet":null}},"queries":[{"indexUid":"movies"}]}');
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  });
});
