// Geo search through the real server: documents with `_geo` (numbers or numeric strings), the
// `_geoRadius`, `_geoBoundingBox` and `_geoPolygon` filters alone and combined with other
// filters, `_geoPoint(lat, lng):asc|desc` sorting with `_geoDistance` in hits (checked against an
// independent haversine and against figures Meilisearch itself answered), the ranking details of
// a geo sort, the errors for geo not filterable or not sortable, and `_geo` validation failing
// indexing tasks with Meilisearch's messages.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, errorBody, run, uniqueUid } from '../../helpers/api.js';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

type Place = { id: number; name: string; type: string; rating: number; _geo?: { lat: number | string; lng: number | string } | null };

const PLACES: Place[] = [
  { id: 1, name: 'paris', type: 'restaurant', rating: 5, _geo: { lat: 48.8566, lng: 2.3522 } },
  { id: 2, name: 'lyon', type: 'restaurant', rating: 4, _geo: { lat: '45.764', lng: '4.8357' } },
  { id: 3, name: 'marseille', type: 'museum', rating: 3, _geo: { lat: 43.2965, lng: 5.3698 } },
  { id: 4, name: 'lille', type: 'museum', rating: 4, _geo: { lat: 50.6292, lng: 3.0573 } },
  { id: 5, name: 'bordeaux', type: 'restaurant', rating: 5, _geo: { lat: 44.8378, lng: -0.5792 } },
  { id: 6, name: 'brussels', type: 'museum', rating: 5, _geo: { lat: 50.8503, lng: 4.3517 } },
  { id: 7, name: 'amsterdam', type: 'restaurant', rating: 3, _geo: { lat: 52.3676, lng: 4.9041 } },
  { id: 8, name: 'london', type: 'museum', rating: 4, _geo: { lat: 51.5074, lng: -0.1278 } },
  { id: 9, name: 'berlin', type: 'restaurant', rating: 2, _geo: { lat: 52.52, lng: 13.405 } },
  { id: 10, name: 'madrid', type: 'museum', rating: 4, _geo: { lat: 40.4168, lng: -3.7038 } },
  { id: 11, name: 'rome', type: 'restaurant', rating: 5, _geo: { lat: 41.9028, lng: 12.4964 } },
  { id: 12, name: 'new-york', type: 'museum', rating: 5, _geo: { lat: 40.7128, lng: -74.006 } },
  { id: 13, name: 'tokyo', type: 'restaurant', rating: 4, _geo: { lat: 35.6762, lng: 139.6503 } },
  { id: 14, name: 'atlantis', type: 'museum', rating: 1 },
  { id: 15, name: 'nowhere', type: 'restaurant', rating: 2, _geo: null },
  // 0.73 m east of `paris`: within Meilisearch's 1 m margin, so the two rank equal by distance.
  { id: 16, name: 'paris-bistro', type: 'restaurant', rating: 2, _geo: { lat: 48.8566, lng: 2.35221 } },
];
const PARIS = [48.8566, 2.3522] as const;

/** Textbook haversine on a 6,371 km sphere (atan2 form), written independently of the server's. */
function haversine(a: readonly [number, number], b: readonly [number, number]): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b[0] - a[0]);
  const dLng = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_000 * Math.atan2(Math.sqrt(h), Math.sqrt(1 - h));
}

const pointOf = (place: Place): [number, number] | null => (place._geo ? [Number(place._geo.lat), Number(place._geo.lng)] : null);
const located = PLACES.filter((place) => pointOf(place) !== null);
const distanceFrom = (origin: readonly [number, number]) => (place: Place) => haversine(origin, pointOf(place)!);
const names = (hits: readonly Record<string, any>[]) => hits.map((hit) => hit.name);

/** `<start>:<end>` of the first (or last) `fragment` in a filter, as filter errors locate it. */
function at(filter: string, fragment: string, last = false): string {
  const start = (last ? filter.lastIndexOf(fragment) : filter.indexOf(fragment)) + 1;
  return `${start}:${start + fragment.length}`;
}

let server: TestServer;
let client: Meilisearch;
let places: Index;
const PLACES_UID = 'places';

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  places = client.index(PLACES_UID);
  await settle(client, (await places.updateSettings({ filterableAttributes: ['_geo', 'id', 'type', 'rating'], sortableAttributes: ['_geo', 'rating'] })).taskUid);
  await settle(client, (await places.addDocuments(PLACES)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('_geoRadius', () => {
  it('keeps the documents whose point lies within the radius, in metres', async () => {
    const res = await places.search('', { filter: '_geoRadius(48.8566, 2.3522, 300000)', limit: 50 });
    const expected = located.filter((place) => distanceFrom(PARIS)(place) <= 300_000).map((place) => place.name);
    expect(expected).toEqual(['paris', 'lille', 'brussels', 'paris-bistro']);
    expect(names(res.hits)).toEqual(expected);
    // London is 344 km away.
    const wider = await places.search('', { filter: '_geoRadius(48.8566, 2.3522, 350000)', limit: 50 });
    expect(names(wider.hits)).toEqual(['paris', 'lille', 'brussels', 'london', 'paris-bistro']);
  });

  it('includes a point at distance 0 with a zero radius, and accepts a resolution', async () => {
    expect(names((await places.search('', { filter: '_geoRadius(48.8566, 2.3522, 0)' })).hits)).toEqual(['paris']);
    expect(names((await places.search('', { filter: '_geoRadius(48.8566, 2.3522, 300000, 10)' })).hits)).toEqual(['paris', 'lille', 'brussels', 'paris-bistro']);
  });

  it('combines with other filters, NOT and OR', async () => {
    const near = '_geoRadius(48.8566, 2.3522, 600000)';
    const inRange = located.filter((place) => distanceFrom(PARIS)(place) <= 600_000);
    const museums = await places.search('', { filter: `${near} AND type = museum`, limit: 50 });
    expect(names(museums.hits)).toEqual(inRange.filter((place) => place.type === 'museum').map((place) => place.name));
    const far = await places.search('', { filter: [`NOT ${near}`, 'rating >= 5'], limit: 50 });
    // Documents without a point are outside every radius, so NOT keeps them.
    expect(names(far.hits)).toEqual(['rome', 'new-york']);
    const either = await places.search('', { filter: `_geoRadius(35.6762, 139.6503, 1000) OR _geoRadius(40.7128, -74.006, 1000)`, limit: 50 });
    expect(names(either.hits)).toEqual(['new-york', 'tokyo']);
  });

  it('refuses a resolution out of 3..=1000 and coordinates out of range', async () => {
    const badResolution = '_geoRadius(48.8566, 2.3522, 1000, 2)';
    const reply = await call(server, 'POST', `/indexes/${PLACES_UID}/search`, { filter: badResolution });
    expect(reply.body).toEqual(
      errorBody('invalid_search_filter', `Index \`${PLACES_UID}\`: Invalid resolution \`2\`. Resolution must be between 3 and 1000.\n${at(badResolution, '2', true)} ${badResolution}`),
    );
    const badLat = '_geoRadius(-100, 2.3522, 1000)';
    const lat = await call(server, 'POST', `/indexes/${PLACES_UID}/search`, { filter: badLat });
    expect(lat.body).toEqual(
      errorBody('invalid_search_filter', `Index \`${PLACES_UID}\`: Bad latitude \`-100\`. Latitude must be contained between -90 and 90 degrees.\n${at(badLat, '-100')} ${badLat}`),
    );
    const badLng = '_geoRadius(0, 250, 1000)';
    const lng = await call(server, 'POST', `/indexes/${PLACES_UID}/search`, { filter: badLng });
    expect(lng.body).toEqual(
      errorBody(
        'invalid_search_filter',
        `Index \`${PLACES_UID}\`: Bad longitude \`250\`. Longitude must be contained between -180 and 180 degrees. Hint: try using \`-110\` instead.\n${at(badLng, '250')} ${badLng}`,
      ),
    );
  });
});

describe('_geoBoundingBox', () => {
  it('keeps the points between the top-right and bottom-left corners', async () => {
    const res = await places.search('', { filter: '_geoBoundingBox([53, 7], [50, 2])', limit: 50 });
    expect(names(res.hits)).toEqual(['lille', 'brussels', 'amsterdam']);
    const rated = await places.search('', { filter: '_geoBoundingBox([53, 7], [50, 2]) AND rating >= 4', limit: 50 });
    expect(names(rated.hits)).toEqual(['lille', 'brussels']);
  });

  it('wraps around the antimeridian when the east edge is west of the west edge', async () => {
    const res = await places.search('', { filter: '_geoBoundingBox([41, -70], [30, 130])', limit: 50 });
    expect(names(res.hits)).toEqual(['new-york', 'tokyo']);
  });

  it('refuses a top latitude below the bottom one', async () => {
    const filter = '_geoBoundingBox([30, 7], [50, 2])';
    const reply = await call(server, 'POST', `/indexes/${PLACES_UID}/search`, { filter });
    expect(reply.body).toEqual(errorBody('invalid_search_filter', `Index \`${PLACES_UID}\`: The top latitude \`30\` is below the bottom latitude \`50\`.\n${at(filter, '2', true)} ${filter}`));
  });
});

describe('_geo in keyword search', () => {
  it('is never searchable, under `*` or named, as v1.50 leaves it out of the fields it tokenizes', async () => {
    expect((await places.search('48.8566')).hits).toEqual([]);
    const uid = 'geo-named-searchable';
    await settle(client, (await client.index(uid).updateSettings({ searchableAttributes: ['_geo', 'name'] })).taskUid);
    await settle(client, (await client.index(uid).addDocuments(PLACES.slice(0, 3))).taskUid);
    expect((await client.index(uid).search('48.8566')).hits).toEqual([]);
    expect((await client.index(uid).search('paris')).hits.map((hit) => hit.id)).toEqual([1]);
  });
});

describe('_geo in facets', () => {
  it('lists `_geo` (no values of its own) with its coordinates, as v1.50 selects `_geo.lat`/`_geo.lng` below the `_geo` field', async () => {
    const named = await places.search('', { facets: ['_geo'], filter: 'id = 1 OR id = 15', limit: 0 });
    expect(named.facetDistribution).toEqual({ _geo: {}, '_geo.lat': { '48.8566': 1 }, '_geo.lng': { '2.3522': 1 } });
    expect(named.facetStats).toEqual({ '_geo.lat': { min: 48.8566, max: 48.8566 }, '_geo.lng': { min: 2.3522, max: 2.3522 } });
    const all = await places.search('', { facets: ['*'], filter: 'id = 1', limit: 0 });
    expect(Object.keys(all.facetDistribution!)).toEqual(['_geo', '_geo.lat', '_geo.lng', 'id', 'rating', 'type']);
  });
});

describe('_geoPolygon', () => {
  it('needs `_geojson` to be filterable, whatever `_geo` allows', async () => {
    const filter = '_geoPolygon([45, 0], [50, 5], [44, 6])';
    const reply = await call(server, 'POST', `/indexes/${PLACES_UID}/search`, { filter });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      errorBody(
        'invalid_search_filter',
        `Index \`${PLACES_UID}\`: Attribute \`_geojson\` is not filterable. Available filterable attribute patterns are: \`_geo\`, \`id\`, \`rating\`, \`type\`.\n${at(filter, '45')} ${filter}`,
      ),
    );
  });
});

describe('_geoPoint sort', () => {
  it('orders by distance, nearest first, with _geoDistance in metres; documents without a point come last', async () => {
    const res = await places.search('', { sort: ['_geoPoint(48.8566, 2.3522):asc'], limit: 50 });
    const byDistance = [...located].sort((a, b) => distanceFrom(PARIS)(a) - distanceFrom(PARIS)(b));
    expect(names(res.hits)).toEqual([...byDistance.map((place) => place.name), 'atlantis', 'nowhere']);
    for (const hit of res.hits) {
      const place = PLACES.find((p) => p.id === hit.id)!;
      if (pointOf(place) === null) {
        expect(hit).not.toHaveProperty('_geoDistance');
      } else {
        expect(Number.isInteger(hit._geoDistance)).toBe(true);
        expect(Math.abs(hit._geoDistance - distanceFrom(PARIS)(place))).toBeLessThanOrEqual(1);
      }
    }
    expect(res.hits.find((hit) => hit.name === 'tokyo')!._geoDistance).toBeGreaterThan(9_700_000);
  });

  it('orders farthest first with desc, documents without a point still last', async () => {
    const res = await places.search('', { sort: ['_geoPoint(48.8566, 2.3522):desc'], filter: 'type = museum', limit: 50 });
    const museums = located.filter((place) => place.type === 'museum').sort((a, b) => distanceFrom(PARIS)(b) - distanceFrom(PARIS)(a));
    expect(names(res.hits)).toEqual([...museums.map((place) => place.name), 'atlantis']);
  });

  it('ranks points less than a metre apart as equal, so the next sort criterion decides', async () => {
    const filter = '_geoRadius(48.8566, 2.3522, 10)';
    const best = await places.search('', { filter, sort: ['_geoPoint(48.8566, 2.3522):asc', 'rating:asc'] });
    expect(names(best.hits)).toEqual(['paris-bistro', 'paris']);
    expect(best.hits.map((hit) => hit._geoDistance)).toEqual([1, 0]);
    const worst = await places.search('', { filter, sort: ['_geoPoint(48.8566, 2.3522):asc', 'rating:desc'] });
    expect(names(worst.hits)).toEqual(['paris', 'paris-bistro']);
  });

  it('sorts by every _geoPoint given, a later one breaking the ties of an earlier one (v1.50 keeps each as a rule)', async () => {
    const uid = uniqueUid('two-points');
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: 'c', _geo: { lat: 0, lng: -0.0009 } },
      { id: 'b', _geo: { lat: 0, lng: 0.0009 } },
    ]);
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { sort: ['_geoPoint(0,0):asc', '_geoPoint(0,0.1):asc'], showRankingScoreDetails: true });
    expect(reply.body.hits.map((hit: { id: string }) => hit.id)).toEqual(['b', 'c']);
    expect(Object.keys(reply.body.hits[0]._rankingScoreDetails)).toEqual(['_geoPoint(0, 0):asc', '_geoPoint(0, 0.1):asc']);
  });

  it('places _geoDistance after the document fields, before _formatted and the ranking fields', async () => {
    const res = await places.search('', {
      filter: 'id = 4',
      sort: ['_geoPoint(48.8566, 2.3522):asc'],
      attributesToHighlight: ['name'],
      showRankingScore: true,
    });
    const [hit] = res.hits;
    expect(Object.keys(hit!)).toEqual(['id', 'name', 'type', 'rating', '_geo', '_geoDistance', '_formatted', '_rankingScore']);
    // Every number leaf of `_formatted` is a string, `_geo` included; `_geoDistance` is not a document field.
    expect(hit!._formatted).toEqual({ id: '4', name: 'lille', type: 'museum', rating: '4', _geo: { lat: '50.6292', lng: '3.0573' } });
  });

  it('adds _geoDistance only when the retrieved document has both coordinates', async () => {
    const sort = ['_geoPoint(48.8566, 2.3522):asc'];
    const withoutGeo = await places.search('', { filter: 'id = 4', sort, attributesToRetrieve: ['name'] });
    expect(withoutGeo.hits).toEqual([{ name: 'lille' }]);
    const withGeo = await places.search('', { filter: 'id = 2', sort, attributesToRetrieve: ['name', '_geo'] });
    // Numeric strings are coordinates too.
    expect(withGeo.hits).toEqual([{ name: 'lyon', _geo: { lat: '45.764', lng: '4.8357' }, _geoDistance: Math.round(distanceFrom(PARIS)(PLACES[1]!)) }]);
    const latOnly = await places.search('', { filter: 'id = 4', sort, attributesToRetrieve: ['name', '_geo.lat'] });
    expect(latOnly.hits).toEqual([{ name: 'lille', _geo: { lat: 50.6292 } }]);
    const unsorted = await places.search('', { filter: 'id = 4' });
    expect(unsorted.hits[0]).not.toHaveProperty('_geoDistance');
  });

  it('shows the bucket point and its distance in _rankingScoreDetails', async () => {
    const res = await places.search('', { filter: 'id = 4 OR id = 14', sort: ['_geoPoint(48.8566, 2.3522):asc'], showRankingScoreDetails: true });
    const key = '_geoPoint(48.8566, 2.3522):asc';
    // the client types score details by ranking rule name, not by a sort's expression
    const details = res.hits.map((hit) => hit._rankingScoreDetails as unknown as Record<string, { order: number; value: unknown; distance: number }>);
    expect(details.map((detail) => Object.keys(detail))).toEqual([[key], [key]]);
    const lille = details[0]![key]!;
    expect(Object.keys(lille)).toEqual(['order', 'value', 'distance']);
    expect(lille.order).toBe(0);
    expect(lille.value).toEqual({ lat: 50.6292, lng: 3.0573 });
    expect(Math.abs(lille.distance - distanceFrom(PARIS)(PLACES[3]!))).toBeLessThan(0.01);
    expect(lille.distance).not.toBe(Math.round(lille.distance));
    expect(details[1]![key]).toEqual({ order: 0, value: null, distance: null });
  });

  it('keeps the commas of _geoPoint together in a GET sort', async () => {
    const sort = encodeURIComponent('_geoPoint(48.8566,2.3522):desc,rating:asc');
    const reply = await call(server, 'GET', `/indexes/${PLACES_UID}/search?sort=${sort}&attributesToRetrieve=name,_geo&limit=2`);
    expect(reply.status).toBe(200);
    expect(names(reply.body.hits)).toEqual(['tokyo', 'new-york']);
    expect(reply.body.hits[0]._geoDistance).toBe(Math.round(distanceFrom(PARIS)(PLACES[12]!)));
  });
});

describe('figures Meilisearch answered', () => {
  it('gives the same _geoDistance to the metre', async () => {
    // Points and distances from a Meilisearch bug report (#1872) and a Meilisearch test snapshot.
    const uid = uniqueUid('vienna');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [
      { id: '1', _geo: { lat: 48.2187834, lng: 16.392127 } },
      { id: '2', _geo: { lat: 48.26579, lng: 16.4281601 } },
      { id: '3', _geo: { lat: 48.19431, lng: 16.4071101 } },
      { id: '4', _geo: { lat: '1', lng: '1' } },
    ]);
    const vienna = await client.index(uid).search('', { sort: ['_geoPoint(48.2342154, 16.4205687):asc'] });
    expect(vienna.hits.slice(0, 3).map((hit) => hit._geoDistance)).toEqual([2717, 3556, 4548]);
    const lille = await client.index(uid).search('', { sort: ['_geoPoint(50.629973371633746,3.0569447399419567):desc'], limit: 1 });
    expect(lille.hits).toEqual([{ id: '4', _geo: { lat: '1', lng: '1' }, _geoDistance: 5522018 }]);
  });
});

describe('geo not enabled', () => {
  let uid: string;
  beforeAll(async () => {
    uid = uniqueUid('nogeo');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { filterableAttributes: ['type'], sortableAttributes: ['rating'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, PLACES);
  });

  // The error points into the filter's canonical text (filter.md §4), the geo calls printed as written.
  it.each([
    ['_geoRadius(48.8566, 2.3522, 1000)', '48.8566', '_geoRadius(48.8566, 2.3522, 1000)'],
    ['_geoBoundingBox([53, 7], [50, 2])', '53', '_geoBoundingBox([53, 7], [50, 2])'],
    ['type = museum AND _geoRadius(1, 2, 3)', '1', '("type" = "museum") AND (_geoRadius(1, 2, 3))'],
  ])('refuses %s: `_geo` is not filterable', async (filter, token, canonical) => {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { filter });
    const start = canonical.indexOf(`${token},`) + 1;
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      errorBody(
        'invalid_search_filter',
        `Index \`${uid}\`: Attribute \`_geo/_geojson\` is not filterable. Available filterable attribute patterns are: \`type\`.\n${start}:${start + token.length} ${canonical}`,
      ),
    );
  });

  it('refuses a _geoPoint sort: `_geo` is not sortable', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { sort: ['_geoPoint(48.8566, 2.3522):asc'] });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(errorBody('invalid_search_sort', `Index \`${uid}\`: Attribute \`_geo\` is not sortable. Available sortable attributes are: \`rating\`.`));
    const bare = uniqueUid('bare');
    await run(server, 'POST', `/indexes/${bare}/documents`, [{ id: 1 }]);
    const none = await call(server, 'GET', `/indexes/${bare}/search?sort=${encodeURIComponent('_geoPoint(1,2):asc')}`);
    expect(none.body).toEqual(errorBody('invalid_search_sort', `Index \`${bare}\`: Attribute \`_geo\` is not sortable. This index does not have configured sortable attributes.`));
  });

  it('stores any `_geo` value as is, since nothing reads it', async () => {
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 100, _geo: 'somewhere' }, { id: 101, _geo: { lat: 'x' } }]);
    expect(task.status).toBe('succeeded');
    const doc = await call(server, 'GET', `/indexes/${uid}/documents/101`);
    expect(doc.body).toEqual({ id: 101, _geo: { lat: 'x' } });
  });
});

describe('_geo validation at indexing', () => {
  let uid: string;
  beforeAll(async () => {
    uid = uniqueUid('validate');
    await run(server, 'PATCH', `/indexes/${uid}/settings`, { sortableAttributes: ['_geo'] });
    await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, _geo: { lat: 1, lng: 1 } }]);
  });

  const id = (value: string) => `\`"${value}"\``;
  it.each([
    ['not an object', 'foobar', `The \`_geo\` field in the document with the id: ${id('11')} is not an object. Was expecting an object with the \`_geo.lat\` and \`_geo.lng\` fields but instead got \`"foobar"\`.`],
    ['an empty object', {}, `Could not find latitude nor longitude in the document with the id: ${id('11')}. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`],
    ['only other keys', { doggos: 'are good' }, `Could not find latitude nor longitude in the document with the id: ${id('11')}. Was expecting \`_geo.lat\` and \`_geo.lng\` fields.`],
    ['only lat', { lat: 12 }, `Could not find longitude in the document with the id: ${id('11')}. Was expecting a \`_geo.lng\` field.`],
    ['only lng', { lng: 12 }, `Could not find latitude in the document with the id: ${id('11')}. Was expecting a \`_geo.lat\` field.`],
    ['a bad lat and no lng', { lat: true }, `Could not find longitude in the document with the id: ${id('11')}. Was expecting a \`_geo.lng\` field.`],
    ['two bad coordinates', { lat: false, lng: true }, `Could not parse latitude nor longitude in the document with the id: ${id('11')}. Was expecting finite numbers but instead got \`false\` and \`true\`.`],
    ['unparsable strings', { lat: 'doggo', lng: 'doggo' }, `Could not parse latitude nor longitude in the document with the id: ${id('11')}. Was expecting finite numbers but instead got \`"doggo"\` and \`"doggo"\`.`],
    ['a null lng', { lng: null, lat: 67 }, `Could not parse longitude in the document with the id: ${id('11')}. Was expecting a finite number but instead got \`null\`.`],
    ['a null lat', { lng: 35, lat: null }, `Could not parse latitude in the document with the id: ${id('11')}. Was expecting a finite number but instead got \`null\`.`],
    ['an extra key', { lat: 1, lng: 2, doggo: 'are the best' }, `The \`_geo\` field in the document with the id: ${id('11')} contains the following unexpected fields: \`{"doggo":"are the best"}\`.`],
  ])('fails the task for %s, adding nothing', async (_, geo, message) => {
    const task = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 10, _geo: { lat: 2, lng: 2 } }, { id: 11, _geo: geo }]);
    expect(task.status).toBe('failed');
    expect(task.details).toEqual({ receivedDocuments: 2, indexedDocuments: 0 });
    expect(task.error).toEqual(errorBody('invalid_document_geo_field', `Index \`${uid}\`: ${message}`));
    expect((await call(server, 'GET', `/indexes/${uid}/documents`)).body.total).toBe(1);
  });

  it('accepts null, numbers and numeric strings, and checks partial updates too', async () => {
    const ok = await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 2, _geo: null }, { id: 3, _geo: { lat: '-1.5', lng: '2e1' } }]);
    expect(ok.status).toBe('succeeded');
    const update = await run(server, 'PUT', `/indexes/${uid}/documents`, [{ id: 2, _geo: { lat: 'north' } }]);
    expect(update.error).toEqual(errorBody('invalid_document_geo_field', `Index \`${uid}\`: Could not find longitude in the document with the id: ${id('2')}. Was expecting a \`_geo.lng\` field.`));
    const res = await client.index(uid).search('', { sort: ['_geoPoint(0, 0):asc'] });
    expect(res.hits.map((hit) => hit.id)).toEqual([1, 3, 2]);
  });

  it('fails a settings task that enables geo over a stored invalid `_geo`, keeping the settings', async () => {
    const later = uniqueUid('later');
    await run(server, 'POST', `/indexes/${later}/documents`, [{ id: 1, _geo: { lat: 1, lng: 1 } }, { id: 'b-2', _geo: { lat: null, lng: 3 } }]);
    const task = await run(server, 'PATCH', `/indexes/${later}/settings`, { filterableAttributes: ['_geo'] });
    expect(task.status).toBe('failed');
    expect(task.error).toEqual(
      errorBody('invalid_document_geo_field', `Index \`${later}\`: Could not parse latitude in the document with the id: ${id('b-2')}. Was expecting a finite number but instead got \`null\`.`),
    );
    expect((await call(server, 'GET', `/indexes/${later}/settings/filterable-attributes`)).body).toEqual([]);
  });
});
