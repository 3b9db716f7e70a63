// `_geojson` shapes through the real server: `_geoPolygon`, `_geoBoundingBox` and `_geoRadius`
// over documents whose `_geojson` is a point, a city outline or a country (Meilisearch's own test
// assets, test/fixtures/geojson), with the answers Meilisearch's tests expect for them: shapes
// indexed whether the setting or the documents come first, replaced, updated, deleted and added
// back; both `_geo` points and `_geojson` shapes answering one filter; an invalid `_geojson`
// failing its task; `_geojson` neither searchable nor faceted.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../fixtures/geojson/${name}`, import.meta.url), 'utf8'));
const LILLE = fixture('lille.geojson');
const COUNTRIES = fixture('countries.json') as { name: string; _geojson: unknown }[];

const AROUND_ONE = '_geoPolygon([0,0],[0,2],[2,2],[2,0])';
const BELOW_ONE = '_geoPolygon([0,0],[0,0.9],[0.9,0.9],[0.9,0])';
const ABOVE_ONE = '_geoPolygon([0.9,0.9],[0.9,2],[2,2],[2,0.9])';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const search = async (uid: string, filter: string, extra: Record<string, unknown> = {}) => call(server, 'POST', `/indexes/${uid}/search`, { filter, ...extra });
const ids = async (uid: string, filter: string) => {
  const reply = await search(uid, filter, { limit: 1000 });
  expect(reply.status, reply.text).toBe(200);
  return reply.body.hits.map((hit: { id?: unknown; name?: unknown }) => hit.id ?? hit.name);
};

const POINT = { id: 'point', _geojson: { type: 'Point', coordinates: [1, 1] } };
const DOCUMENTS = [{ id: 'missing' }, POINT, { id: 'lille', _geojson: LILLE }];

describe('_geoPolygon', () => {
  it('finds the shapes inside the polygon once `_geojson` is filterable, the setting first', async () => {
    const uid = uniqueUid('geojson');
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] })).status).toBe('succeeded');
    expect(await ids(uid, AROUND_ONE)).toEqual([]);
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    expect(task.status).toBe('succeeded');
    expect(task.details).toEqual({ receivedDocuments: 3, indexedDocuments: 3 });
    const reply = await search(uid, AROUND_ONE);
    expect(reply.body.hits).toEqual([POINT]);
    expect(reply.body.estimatedTotalHits).toBe(1);
  });

  it('refuses the filter until `_geojson` is filterable, then finds the shapes the documents already had', async () => {
    const uid = uniqueUid('geojson');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS)).status).toBe('succeeded');
    const refused = await call(server, 'GET', `/indexes/${uid}/search?filter=${encodeURIComponent(AROUND_ONE)}`);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual(
      errorBody(
        'invalid_search_filter',
        `Index \`${uid}\`: Attribute \`_geojson\` is not filterable. This index does not have configured filterable attributes.\n14:15 _geoPolygon([0, 0], [0, 2], [2, 2], [2, 0])`,
      ),
    );
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] })).status).toBe('succeeded');
    expect((await search(uid, AROUND_ONE)).body.hits).toEqual([POINT]);
  });

  it('follows a shape deleted, added back and moved by a partial update', async () => {
    const uid = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 'missing' }, { id: 0, _geojson: { type: 'Point', coordinates: [1, 1] } }]);
    expect(await ids(uid, BELOW_ONE)).toEqual([]);
    expect(await ids(uid, AROUND_ONE)).toEqual([0]);

    await run(server, 'DELETE', `/indexes/${uid}/documents/0`);
    expect(await ids(uid, BELOW_ONE)).toEqual([]);
    expect(await ids(uid, AROUND_ONE)).toEqual([]);

    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0, _geojson: { type: 'Point', coordinates: [1, 1] } }]);
    expect(await ids(uid, AROUND_ONE)).toEqual([0]);

    await run(server, 'PUT', `/indexes/${uid}/documents`, [{ id: 0, _geojson: { type: 'Point', coordinates: [0.5, 0.5] } }]);
    expect(await ids(uid, BELOW_ONE)).toEqual([0]);
    expect(await ids(uid, AROUND_ONE)).toEqual([0]);
    expect(await ids(uid, ABOVE_ONE)).toEqual([]);

    // a document losing its `_geojson` loses its shape
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 0 }]);
    expect(await ids(uid, AROUND_ONE)).toEqual([]);
  });

  it('ignores documents that only have a `_geo` point', async () => {
    const uid = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geo', '_geojson'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 'geo-only', _geo: { lat: 1, lng: 1 } }, POINT]);
    expect(await ids(uid, AROUND_ONE)).toEqual(['point']);
  });

  it('finds a city outline that crosses the polygon without any corner inside it', async () => {
    const uid = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
    // a thin horizontal band across Lille's outline (lat 50.60–50.66), wider than the city
    expect(await ids(uid, '_geoPolygon([50.631,2.9],[50.631,3.3],[50.6305,3.3],[50.6305,2.9])')).toEqual(['lille']);
    // a small polygon wholly inside the outline
    expect(await ids(uid, '_geoPolygon([50.63,3.05],[50.631,3.05],[50.631,3.051])')).toEqual(['lille']);
    expect(await ids(uid, '_geoPolygon([48,2],[48,2.5],[48.5,2.5])')).toEqual([]);
  });
});

describe('countries (Meilisearch test assets)', () => {
  const uid = 'countries';
  beforeAll(async () => {
    expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=name`, COUNTRIES)).status).toBe('succeeded');
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson', 'name'] })).status).toBe('succeeded');
    expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] })).status).toBe('succeeded');
  }, 60_000);

  it('answers a bounding box over middle Europe with the countries Meilisearch answers, in document order', async () => {
    const reply = await search(uid, '_geoBoundingBox([50.53987503447863,21.43443989912143],[43.76393151539099,0.54979129195425])', {
      attributesToRetrieve: ['name'],
    });
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body.hits.map((hit: { name: string }) => hit.name)).toEqual([
      'Austria',
      'Belgium',
      'Bosnia_and_Herzegovina',
      'Switzerland',
      'Czech_Republic',
      'Germany',
      'France',
      'Croatia',
      'Hungary',
      'Italy',
      'Luxembourg',
      'Netherlands',
      'Poland',
      'Romania',
      'Republic_of_Serbia',
      'Slovakia',
      'Slovenia',
    ]);
    expect(reply.body.estimatedTotalHits).toBe(17);
  });

  it('finds the countries a radius reaches, borders included, and none in the open sea', async () => {
    // 50 km around Brussels reaches only Belgium; 150 km also the Netherlands, France, Germany and Luxembourg
    expect(await ids(uid, '_geoRadius(50.8466, 4.3528, 50000)')).toEqual(['Belgium']);
    expect([...(await ids(uid, '_geoRadius(50.8466, 4.3528, 150000)'))].sort()).toEqual(['Belgium', 'France', 'Germany', 'Luxembourg', 'Netherlands']);
    expect(await ids(uid, '_geoRadius(0, -30, 100000)')).toEqual([]);
  });

  it('leaves `_geojson` out of the searchable and faceted fields', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'MultiPolygon', limit: 1 });
    expect(reply.body.estimatedTotalHits).toBe(0);
    const facets = await call(server, 'POST', `/indexes/${uid}/search`, { facets: ['*'], limit: 0 });
    expect(facets.body.facetDistribution).toEqual({});
  });
});

describe('_geoRadius and _geoBoundingBox over points and shapes', () => {
  it('answers the union of `_geo` points and `_geojson` shapes when both are filterable', async () => {
    const uid = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geo', '_geojson'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, _geo: { lat: 50.8503, lng: 4.3517 } },
      { id: 2, _geojson: { type: 'Point', coordinates: [4.35, 50.8467] } },
      { id: 3, _geojson: { type: 'LineString', coordinates: [[4.2, 50.9], [4.5, 50.8]] } },
      { id: 4, _geojson: { type: 'Point', coordinates: [2.35, 48.85] } },
    ]);
    expect(await ids(uid, '_geoRadius(50.8466, 4.35, 5000)')).toEqual([1, 2, 3]);
    // a circle of 3 points (a triangle) still holds its centre
    expect(await ids(uid, '_geoRadius(50.8467, 4.35, 20, 3)')).toEqual([2]);
    expect(await ids(uid, '_geoBoundingBox([51, 4.4], [50.84, 4.3])')).toEqual([1, 2, 3]);
    expect(await ids(uid, '_geoBoundingBox([49, 3], [48, 2])')).toEqual([4]);
  });

  it('reads only `_geojson` shapes when `_geo` is not filterable', async () => {
    const uid = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'], sortableAttributes: ['_geo'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 1, _geo: { lat: 50.8503, lng: 4.3517 } },
      { id: 2, _geojson: { type: 'Point', coordinates: [4.35, 50.8467] } },
    ]);
    expect(await ids(uid, '_geoRadius(50.8466, 4.35, 5000)')).toEqual([2]);
  });
});

describe('invalid `_geojson`', () => {
  it('fails the task with invalid_document_geo_field (the geojson crate\'s errors in v1.50) while `_geojson` is filterable, and is stored as any field otherwise', async () => {
    const uid = uniqueUid('geojson');
    const invalid = [{ id: 1, _geojson: { type: 'Point' } }];
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, invalid)).status).toBe('succeeded');
    const task = await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['_geojson'] });
    expect(task.status).toBe('failed');
    expect(task.error.code).toBe('invalid_document_geo_field');
    expect(task.error.type).toBe('invalid_request');

    const other = uniqueUid('geojson');
    await run(server, 'PATCH', `/indexes/${other}/settings`, { filterableAttributes: ['_geojson'] });
    for (const value of [{ type: 'Point' }, { type: 'Circle', coordinates: [1, 1] }, 'POINT (1 1)', { type: 'Polygon', coordinates: [[[0, 0], [1, 1]]] }]) {
      const failed = await run(server, 'POST', `/indexes/${other}/documents`, [{ id: 2, _geojson: value }]);
      expect(failed.status, JSON.stringify(value)).toBe('failed');
      expect(failed.error.code).toBe('invalid_document_geo_field');
    }
    expect((await call(server, 'GET', `/indexes/${other}/documents`)).body.total).toBe(0);
    const featureless = await run(server, 'POST', `/indexes/${other}/documents`, [{ id: 3, _geojson: { type: 'Feature', geometry: null, properties: {} } }]);
    expect(featureless.error).toMatchObject({
      code: 'invalid_document_geo_field',
      message: `Index \`${other}\`: Attempted to a convert a feature without a geometry into a geo_types::Geometry: \`{"type":"Feature","geometry":null,"properties":{}}\``,
    });
  });
});
