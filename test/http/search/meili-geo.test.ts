// Port of Meilisearch's crates/meilisearch/tests/search/geo.rs: `_geo` holding numbers or numeric
// strings under `_geoRadius`, `_geoBoundingBox` and `_geoPoint` sorting (with `_geoDistance` in the
// hits), a `geo:asc` ranking rule that names an ordinary (absent) field, and a geo sort after the
// words rule. Requests go through POST and GET, as its `index.search` sends them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueUid } from '../../helpers/api.js';
import { GEO_DOCUMENTS, GEO_DOCUMENTS_SETTINGS, expectJson, inBothOrders, searchBoth, seed, stableResponse } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
/** Meilisearch's `shared_index_with_geo_documents`: documents first, then `_geo` filterable and sortable. */
let places: string;

beforeAll(async () => {
  server = await startServer();
  places = uniqueUid('geo');
  await seed(server, places, GEO_DOCUMENTS, GEO_DOCUMENTS_SETTINGS);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const place = (id: number) => GEO_DOCUMENTS.find((doc) => doc.id === id)!;

/** A placeholder response of offset mode, as Meilisearch's snapshots show it. */
function response(hits: unknown[], query = ''): Record<string, unknown> {
  return { hits, query, processingTimeMs: '[duration]', limit: 20, offset: 0, estimatedTotalHits: hits.length, requestUid: '[uuid]' };
}

async function expectResponse(uid: string, body: Record<string, unknown>, expected: Record<string, unknown>): Promise<void> {
  await searchBoth(server, uid, body, (answer) => expectJson(stableResponse(answer), expected));
}

describe('geo_sort_with_geo_strings', () => {
  it('filters by radius and sorts by distance on a `_geo` of numeric strings', async () => {
    await searchBoth(server, places, { filter: '_geoRadius(45.472735, 9.184019, 10000)', sort: ['_geoPoint(0.0, 0.0):asc'] }, (body) => {
      expect(body.hits.map((hit: { id: number }) => hit.id)).toEqual([2]);
      expect(Number.isInteger(body.hits[0]._geoDistance)).toBe(true);
    });
  });
});

describe('geo_bounding_box_with_string_and_number', () => {
  it('keeps the points of numbers and of numeric strings inside the box', async () => {
    await expectResponse(places, { filter: '_geoBoundingBox([89, 179], [-89, -179])' }, response([place(1), place(2)]));
  });
});

describe('bug_4640', () => {
  it('sorts a `_geo` of strings first at distance 0, and the document without `_geo` last', async () => {
    await expectResponse(
      places,
      { sort: ['_geoPoint(45.4777599, 9.1967508):asc'] },
      response([
        { ...place(2), _geoDistance: 0 },
        { ...place(1), _geoDistance: 9714063 },
        place(3),
      ]),
    );
  });
});

const DOGGOS = [
  { id: 0, doggo: 'jean', _geo: { lat: 0, lng: 0 } },
  { id: 1, doggo: 'intel', _geo: { lat: 88, lng: 0 } },
  { id: 2, doggo: 'jean bob', _geo: { lat: -89, lng: 0 } },
  { id: 3, doggo: 'jean michel', _geo: { lat: 0, lng: 178 } },
  { id: 4, doggo: 'bob marley', _geo: { lat: 0, lng: -179 } },
];
const doggo = (id: number) => DOGGOS.find((doc) => doc.id === id)!;

describe('geo_asc_with_words', () => {
  // `geo:asc` sorts on a field named `geo`, which no document has: it leaves the words order.
  const settings = { searchableAttributes: ['id', 'doggo'], rankingRules: ['words', 'geo:asc'] };

  it.each([
    ['jean', [0, 2, 3]],
    ['bob', [2, 4]],
    ['intel', [1]],
  ])('ranks %s by words alone, with no `_geoDistance`', async (q, expected) => {
    await inBothOrders(server, DOGGOS, settings, (uid) => expectResponse(uid, { q }, response(expected.map(doggo), q)));
  });
});

describe('geo_sort_with_words', () => {
  it('sorts the documents matching all words by distance after the words rule', async () => {
    const settings = { searchableAttributes: ['id', 'doggo'], rankingRules: ['words', 'sort'], sortableAttributes: ['_geo'] };
    const expected = response(
      [
        { ...doggo(0), _geoDistance: 0 },
        { ...doggo(2), _geoDistance: 9896348 },
        { ...doggo(3), _geoDistance: 19792697 },
      ],
      'jean',
    );
    await inBothOrders(server, DOGGOS, settings, (uid) => expectResponse(uid, { q: 'jean', sort: ['_geoPoint(0.0, 0.0):asc'] }, expected));
  });
});
