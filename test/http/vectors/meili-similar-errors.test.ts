// Port of Meilisearch's crates/meilisearch/tests/similar/errors.rs: the errors of `POST` and `GET
// /indexes/{uid}/similar` — a missing index, an unknown parameter, bad and unknown ids, bad
// rankingScoreThreshold/offset/limit/retrieveVectors/embedder values (type errors are checked before
// the index is looked up), a missing embedder, and the filter errors (bad type, syntax, attributes
// that are not filterable, reserved `_geo*` keywords) with the `invalid_similar_*` codes. Cases the
// Rust test runs through its `index.similar` helper are sent both as a POST body and as the GET
// query string its `yaup` encoding produces (lists comma-separated).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, uniqueUid, type Reply } from '../../helpers/api.js';
import { expectJson, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

/** similar/mod.rs's DOCUMENTS. */
const DOCUMENTS = [
  { title: 'Shazam!', release_year: 2019, id: '287947', _vectors: { manual: [0.8, 0.4, -0.5] } },
  { title: 'Captain Marvel', release_year: 2019, id: '299537', _vectors: { manual: [0.6, 0.8, -0.2] } },
  { title: 'Escape Room', release_year: 2019, id: '522681', _vectors: { manual: [0.1, 0.6, 0.8] } },
  { title: 'How to Train Your Dragon: The Hidden World', release_year: 2019, id: '166428', _vectors: { manual: [0.7, 0.7, -0.4] } },
  { title: 'All Quiet on the Western Front', release_year: 1930, id: '143', _vectors: { manual: [-0.5, 0.3, 0.85] } },
];

const SETTINGS = { embedders: { manual: { source: 'userProvided', dimensions: 3 } }, filterableAttributes: ['title'] };

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** A new index with the `manual` userProvided embedder and `title` filterable, and DOCUMENTS if asked. */
async function manualIndex(withDocuments: boolean): Promise<string> {
  const uid = uniqueUid('similar-errors');
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, SETTINGS);
  if (withDocuments) await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
  return uid;
}

/** The query string Meilisearch's tests build with `yaup::to_string`: `?k=v&…`, a list's items comma-separated. */
function yaup(body: Record<string, unknown>): string {
  const pairs = Object.entries(body).map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

const post = (uid: string, body: unknown) => call(server, 'POST', `/indexes/${uid}/similar`, body);
const get = (uid: string, query: string) => call(server, 'GET', `/indexes/${uid}/similar${query}`);

/** Meilisearch's `index.similar`: the POST body and its GET query string, each checked. */
async function similarBoth(uid: string, body: Record<string, unknown>, check: (reply: Reply) => void): Promise<void> {
  for (const [route, reply] of [
    ['POST', await post(uid, body)],
    ['GET', await get(uid, yaup(body))],
  ] as const) {
    try {
      check(reply);
    } catch (err) {
      if (err instanceof Error) err.message = `${route} similar: ${err.message}`;
      throw err;
    }
  }
}

/** Status and exact error body, key order included. */
function expectErrorJson(reply: Reply, status: number, code: string, message: string): void {
  expect(reply.status, reply.text).toBe(status);
  expectJson(reply.body, errorBody(code, message));
}

const EXPECTING_AN_OPERATION =
  'Was expecting an operation `=`, `!=`, `>=`, `>`, `<=`, `<`, `IN`, `NOT IN`, `TO`, `EXISTS`, `NOT EXISTS`, `IS NULL`, `IS NOT NULL`, `IS EMPTY`, `IS NOT EMPTY`, `CONTAINS`, `NOT CONTAINS`, `STARTS WITH`, `NOT STARTS WITH`, `_geoRadius`, `_geoBoundingBox` or `_geoPolygon`';
const INVALID_DOCID = (shown: string) =>
  `Invalid value at \`.id\`: Document identifier \`${shown}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`;
const RESERVED = (keyword: string, filter: string, span: string) =>
  `\`${keyword}\` is a reserved keyword and thus can't be used as a filter expression. Use the \`_geoRadius(latitude, longitude, distance)\` or \`_geoBoundingBox([latitude, longitude], [latitude, longitude])\` built-in rules to filter on \`_geo\` coordinates.\n${span} ${filter}`;

describe('similar_unexisting_index', () => {
  it('answers index_not_found (404) on an index that does not exist', async () => {
    const uid = uniqueUid('missing');
    await similarBoth(uid, { id: 287947, embedder: 'manual' }, (reply) => {
      expect(reply.status, reply.text).toBe(404);
      expect(reply.body).toStrictEqual(errorBody('index_not_found', `Index \`${uid}\` not found.`));
    });
  });
});

describe('similar_unexisting_parameter', () => {
  it('refuses an unknown parameter with bad_request', async () => {
    const uid = uniqueUid('missing');
    await similarBoth(uid, { id: 287947, marin: 'hello' }, (reply) => {
      expect(reply.status, reply.text).toBe(400);
      expect(reply.body.code).toBe('bad_request');
    });
  });
});

describe('similar_bad_id', () => {
  it('refuses an id that is neither an integer nor a string', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(await post(uid, { id: ['doggo'], embedder: 'manual' }), 400, 'invalid_similar_id', INVALID_DOCID('["doggo"]'));
  });
});

describe('similar_bad_ranking_score_threshold', () => {
  it('refuses a rankingScoreThreshold that is not a number', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(
      await post(uid, { rankingScoreThreshold: ['doggo'] }),
      400,
      'invalid_similar_ranking_score_threshold',
      'Invalid value type at `.rankingScoreThreshold`: expected a number, but found an array: `["doggo"]`',
    );
  });
});

describe('similar_invalid_ranking_score_threshold', () => {
  it('refuses a rankingScoreThreshold outside [0, 1]', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(
      await post(uid, { rankingScoreThreshold: 42 }),
      400,
      'invalid_similar_ranking_score_threshold',
      'Invalid value at `.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.',
    );
  });
});

describe('similar_invalid_id', () => {
  it('refuses a string id with characters a document id cannot have', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(await post(uid, { id: 'http://invalid-docid/', embedder: 'manual' }), 400, 'invalid_similar_id', INVALID_DOCID('"http://invalid-docid/"'));
  });
});

describe('similar_not_found_id', () => {
  it('answers not_found_similar_id (400) for a valid id of no document', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(await post(uid, { id: 'definitely-doesnt-exist', embedder: 'manual' }), 400, 'not_found_similar_id', 'Document `definitely-doesnt-exist` not found.');
  });
});

describe('similar_bad_offset', () => {
  it('refuses a non-integer offset in the body and in the query string', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(
      await post(uid, { id: 287947, offset: 'doggo', embedder: 'manual' }),
      400,
      'invalid_similar_offset',
      'Invalid value type at `.offset`: expected a positive integer, but found a string: `"doggo"`',
    );
    expectErrorJson(
      await get(uid, '?id=287947&offset=doggo&embedder=manual'),
      400,
      'invalid_similar_offset',
      'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer',
    );
  });
});

describe('similar_bad_limit', () => {
  it('refuses a non-integer limit in the body and in the query string', async () => {
    const uid = await manualIndex(false);
    expectErrorJson(
      await post(uid, { id: 287947, limit: 'doggo', embedder: 'manual' }),
      400,
      'invalid_similar_limit',
      'Invalid value type at `.limit`: expected a positive integer, but found a string: `"doggo"`',
    );
    expectErrorJson(
      await get(uid, '?id=287946&limit=doggo&embedder=manual'),
      400,
      'invalid_similar_limit',
      'Invalid value in parameter `limit`: could not parse `doggo` as a positive integer',
    );
  });
});

describe('similar_bad_filter', () => {
  it('refuses a filter that is neither a string nor an array', async () => {
    const uid = await manualIndex(true);
    expectErrorJson(
      await post(uid, { id: 287947, filter: true, embedder: 'manual' }),
      400,
      'invalid_similar_filter',
      'Invalid syntax for the filter parameter: `expected String, Array, found: true`.',
    );
  });
});

describe('filter syntax errors', () => {
  it.each([
    ['filter_invalid_syntax_object', 'title & Glass'],
    ['filter_invalid_syntax_array', ['title & Glass']],
  ])('%s: a condition without an operation lists the expected operations', async (_name, filter) => {
    const uid = await manualIndex(true);
    await similarBoth(uid, { id: 287947, filter, embedder: 'manual' }, (reply) =>
      expectErrorJson(reply, 400, 'invalid_similar_filter', `${EXPECTING_AN_OPERATION} at \`title & Glass\`.\n1:14 title & Glass`),
    );
  });

  it('filter_invalid_syntax_string: unexpected characters after a complete condition', async () => {
    const uid = await manualIndex(true);
    await similarBoth(uid, { id: 287947, filter: 'title = Glass XOR title = Glass', embedder: 'manual' }, (reply) =>
      expectErrorJson(
        reply,
        400,
        'invalid_similar_filter',
        'Found unexpected characters at the end of the filter: `XOR title = Glass`. You probably forgot an `OR` or an `AND` rule.\n15:32 title = Glass XOR title = Glass',
      ),
    );
  });
});

describe('filter attribute errors', () => {
  it.each([
    ['filter_invalid_attribute_array', ['many = Glass']],
    ['filter_invalid_attribute_string', 'many = Glass'],
  ])('%s: an attribute that is not filterable names the filterable patterns', async (_name, filter) => {
    const uid = await manualIndex(true);
    await similarBoth(uid, { id: 287947, filter, embedder: 'manual' }, (reply) =>
      expectErrorJson(reply, 400, 'invalid_similar_filter', 'Attribute `many` is not filterable. Available filterable attribute patterns are: `title`.\n1:5 many = Glass'),
    );
  });

  it.each([
    ['filter_reserved_geo_attribute_array', '_geo', ['_geo = Glass'], '1:13'],
    ['filter_reserved_geo_attribute_string', '_geo', '_geo = Glass', '1:13'],
    ['filter_reserved_attribute_array', '_geoDistance', ['_geoDistance = Glass'], '1:21'],
    ['filter_reserved_attribute_string', '_geoDistance', '_geoDistance = Glass', '1:21'],
    ['filter_reserved_geo_point_array', '_geoPoint', ['_geoPoint = Glass'], '1:18'],
    ['filter_reserved_geo_point_string', '_geoPoint', '_geoPoint = Glass', '1:18'],
  ])('%s: `%s` is a reserved keyword', async (_name, keyword, filter, span) => {
    const uid = await manualIndex(true);
    const text = Array.isArray(filter) ? filter[0] : filter;
    await similarBoth(uid, { id: 287947, filter, embedder: 'manual' }, (reply) => {
      expect(reply.body).toStrictEqual(errorBody('invalid_similar_filter', RESERVED(keyword, text, span)));
      expect(reply.status).toBe(400);
    });
  });
});

describe('similar_bad_retrieve_vectors', () => {
  it('refuses a retrieveVectors that is not a boolean, before looking for the index', async () => {
    const uid = uniqueUid('missing');
    expectErrorJson(
      await post(uid, { retrieveVectors: 'doggo', embedder: 'manual' }),
      400,
      'invalid_similar_retrieve_vectors',
      'Invalid value type at `.retrieveVectors`: expected a boolean, but found a string: `"doggo"`',
    );
    expectErrorJson(
      await post(uid, { retrieveVectors: [true], embedder: 'manual' }),
      400,
      'invalid_similar_retrieve_vectors',
      'Invalid value type at `.retrieveVectors`: expected a boolean, but found an array: `[true]`',
    );
    expectErrorJson(
      await get(uid, '?retrieveVectors='),
      400,
      'invalid_similar_retrieve_vectors',
      'Invalid value in parameter `retrieveVectors`: could not parse `` as a boolean, expected either `true` or `false`',
    );
    expectErrorJson(
      await get(uid, '?retrieveVectors=doggo'),
      400,
      'invalid_similar_retrieve_vectors',
      'Invalid value in parameter `retrieveVectors`: could not parse `doggo` as a boolean, expected either `true` or `false`',
    );
  });
});

describe('similar_bad_embedder', () => {
  it('refuses an unknown embedder, a non-string one, and a missing one', async () => {
    const uid = await manualIndex(true);
    await similarBoth(uid, { id: 287947, embedder: 'auto' }, (reply) => {
      expect(reply.body).toStrictEqual(errorBody('invalid_similar_embedder', 'Cannot find embedder with name `auto`.'));
      expect(reply.status).toBe(400);
    });

    let reply = await post(uid, { id: 287947, embedder: 42 });
    expect(reply.body).toStrictEqual(errorBody('invalid_similar_embedder', 'Invalid value type at `.embedder`: expected a string, but found a positive integer: `42`'));
    expect(reply.status).toBe(400);

    reply = await post(uid, { id: 287947, embedder: null });
    expect(reply.body).toStrictEqual(errorBody('invalid_similar_embedder', 'Invalid value type at `.embedder`: expected a string, but found null'));
    expect(reply.status).toBe(400);

    reply = await post(uid, { id: 287947 });
    expect(reply.body).toStrictEqual(errorBody('bad_request', 'Missing field `embedder`'));
    expect(reply.status).toBe(400);

    reply = await get(uid, '?id=287947');
    expect(reply.body).toStrictEqual(errorBody('bad_request', 'Missing parameter `embedder`'));
    expect(reply.status).toBe(400);
  });
});
