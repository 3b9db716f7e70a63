/**
 * `POST /indexes/{uid}/fields`: every field sorted by name with what the settings make of it (the
 * top-level fields and every nested path indexing ever numbered, searchable or faceted), the
 * capability filter and offset pagination, as Meilisearch's fields route answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const uid = uniqueUid('fields');

beforeAll(async () => {
  server = await startServer();
  await run(server, 'POST', `/indexes/${uid}/documents`, [{ id: 1, title: 'Alpha', genre: 'sci-fi', year: 2001 }]);
  await run(server, 'PATCH', `/indexes/${uid}/settings`, {
    searchableAttributes: ['title'],
    displayedAttributes: ['title', 'genre'],
    sortableAttributes: ['genre'],
    rankingRules: ['year:desc', 'words'],
    distinctAttribute: 'genre',
    filterableAttributes: [{ attributePatterns: ['gen*'], features: { facetSearch: true, filter: { equality: true, comparison: false } } }],
    faceting: { sortFacetValuesBy: { genre: 'count' } },
    localizedAttributes: [{ attributePatterns: ['title'], locales: ['fra'] }],
  });
});
afterAll(async () => {
  await server.dispose();
});

const off = { enabled: false };
const on = { enabled: true };
const notFilterable = { enabled: false, sortBy: 'alpha', facetSearch: false, equality: false, comparison: false };

describe('POST /indexes/{uid}/fields', () => {
  it('lists every field sorted by name with its capabilities, paginated 0/20', async () => {
    const reply = await call(server, 'POST', `/indexes/${uid}/fields`, {});
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      results: [
        {
          name: 'genre',
          displayed: on,
          searchable: off,
          sortable: on,
          distinct: on,
          rankingRule: off,
          filterable: { enabled: true, sortBy: 'count', facetSearch: true, equality: true, comparison: false },
          localized: { locales: [] },
        },
        { name: 'id', displayed: off, searchable: off, sortable: off, distinct: off, rankingRule: off, filterable: notFilterable, localized: { locales: [] } },
        { name: 'title', displayed: on, searchable: on, sortable: off, distinct: off, rankingRule: off, filterable: notFilterable, localized: { locales: ['Fra'] } },
        { name: 'year', displayed: off, searchable: off, sortable: off, distinct: off, rankingRule: { enabled: true, order: 'desc' }, filterable: notFilterable, localized: { locales: [] } },
      ],
      offset: 0,
      limit: 20,
      total: 4,
    });
    expect(Object.keys(reply.body.results[0])).toEqual(['name', 'displayed', 'searchable', 'sortable', 'distinct', 'rankingRule', 'filterable', 'localized']);
  });

  it('keeps only the fields meeting every filter criterion, then paginates', async () => {
    const names = async (body: unknown) => (await call(server, 'POST', `/indexes/${uid}/fields`, body)).body.results.map((f: { name: string }) => f.name);
    expect(await names({ filter: { displayed: true } })).toEqual(['genre', 'title']);
    expect(await names({ filter: { displayed: true, searchable: false } })).toEqual(['genre']);
    expect(await names({ filter: { attributePatterns: ['*e'] } })).toEqual(['genre', 'title']);
    expect(await names({ filter: { rankingRule: true } })).toEqual(['year']);
    expect(await names({ filter: { filterable: false, displayed: null } })).toEqual(['id', 'title', 'year']);
    const page = await call(server, 'POST', `/indexes/${uid}/fields`, { offset: 1, limit: 1, filter: { displayed: true } });
    expect(page.body).toMatchObject({ results: [{ name: 'title' }], offset: 1, limit: 1, total: 2 });
  });

  it('lists the nested paths indexing numbered, and keeps those a later setting no longer searches (fields.rs recipe)', async () => {
    const nested = uniqueUid('recipe');
    await run(server, 'POST', `/indexes/${nested}/documents`, [
      { id: 1, title: 'Carbonara', cuisine: { type: 'Italian', is_authentic: true }, ingredients: [{ name: 'spaghetti' }], nutrition: { calories: 450, fat: 20 } },
    ]);
    const names = async () => (await call(server, 'POST', `/indexes/${nested}/fields`, { limit: 100 })).body.results.map((f: { name: string }) => f.name);
    const all = ['cuisine', 'cuisine.is_authentic', 'cuisine.type', 'id', 'ingredients', 'ingredients.name', 'nutrition', 'nutrition.calories', 'nutrition.fat', 'title'];
    expect(await names()).toEqual(all);
    await run(server, 'PATCH', `/indexes/${nested}/settings`, { searchableAttributes: ['title', 'cuisine.type'], sortableAttributes: ['nutrition.calories'] });
    expect(await names()).toEqual(all);
    const sortable = await call(server, 'POST', `/indexes/${nested}/fields`, { filter: { sortable: true } });
    expect(sortable.body.results.map((f: { name: string }) => f.name)).toEqual(['nutrition.calories']);
  });

  it('gives the reserved fields their own metadata: never searchable, distinct nor a ranking rule; `_vectors` only displayed, sorted alpha', async () => {
    const reserved = uniqueUid('reserved');
    await run(server, 'POST', `/indexes/${reserved}/documents`, [
      { id: 1, _geo: { lat: 1, lng: 2 }, _geojson: { type: 'Point', coordinates: [2, 1] }, _vectors: { manual: [0.1, 0.2] }, info: { size: 3 } },
    ]);
    await run(server, 'PATCH', `/indexes/${reserved}/settings`, {
      sortableAttributes: ['_geo', '_geojson', '_vectors'],
      filterableAttributes: ['_geo', '_geojson', '_vectors'],
      distinctAttribute: '_geo',
      rankingRules: ['_vectors:asc', 'words'],
      localizedAttributes: [{ attributePatterns: ['_*'], locales: ['fr'] }],
      faceting: { sortFacetValuesBy: { '*': 'count' } },
    });
    const reply = await call(server, 'POST', `/indexes/${reserved}/fields`, { filter: { attributePatterns: ['_*'] } });
    const filterable = { enabled: true, sortBy: 'count', facetSearch: true, equality: true, comparison: true };
    const geo = (name: string) => ({ name, displayed: on, searchable: off, sortable: on, distinct: off, rankingRule: off, filterable, localized: { locales: [] } });
    expect(reply.body.results).toEqual([
      geo('_geo'),
      geo('_geo.lat'),
      geo('_geo.lng'),
      { name: '_geojson', displayed: on, searchable: off, sortable: off, distinct: off, rankingRule: off, filterable, localized: { locales: [] } },
      { name: '_vectors', displayed: on, searchable: off, sortable: off, distinct: off, rankingRule: off, filterable: notFilterable, localized: { locales: [] } },
    ]);
  });

  it('lists `_geo.lat` and `_geo.lng` once a document has `_geo`, geo enabled or not', async () => {
    const geo = uniqueUid('geo-off');
    await run(server, 'POST', `/indexes/${geo}/documents`, [{ id: 1, _geo: { lat: 1, lng: 2 } }]);
    const reply = await call(server, 'POST', `/indexes/${geo}/fields`, {});
    expect(reply.body.results.map((f: { name: string }) => f.name)).toEqual(['_geo', '_geo.lat', '_geo.lng', 'id']);
  });

  it('enables distinct and `field:asc|desc` for the named field only, not the fields below it; a later rule for a field decides its order', async () => {
    const nested = uniqueUid('exact');
    await run(server, 'POST', `/indexes/${nested}/documents`, [{ id: 1, info: { size: 3 }, price: { eur: 4 } }]);
    await run(server, 'PATCH', `/indexes/${nested}/settings`, {
      distinctAttribute: 'info',
      rankingRules: ['price:asc', 'words', 'price:desc'],
      filterableAttributes: ['info.size', 'price.eur'],
    });
    const reply = await call(server, 'POST', `/indexes/${nested}/fields`, { limit: 100 });
    const byName = new Map(reply.body.results.map((f: { name: string }) => [f.name, f]));
    expect(byName.get('info')).toMatchObject({ distinct: on, rankingRule: off });
    expect(byName.get('info.size')).toMatchObject({ distinct: off, rankingRule: off });
    expect(byName.get('price')).toMatchObject({ distinct: off, rankingRule: { enabled: true, order: 'desc' } });
    expect(byName.get('price.eur')).toMatchObject({ distinct: off, rankingRule: off });
  });

  it('names locales as charabia\'s `Language` variants', async () => {
    const localized = uniqueUid('locales');
    await run(server, 'POST', `/indexes/${localized}/documents`, [{ id: 1, title: 'Alpha' }]);
    await run(server, 'PATCH', `/indexes/${localized}/settings`, { localizedAttributes: [{ attributePatterns: ['title'], locales: ['fr', 'cmn', 'ja', 'zh'] }] });
    const reply = await call(server, 'POST', `/indexes/${localized}/fields`, { filter: { attributePatterns: ['title'] } });
    expect(reply.body.results[0].localized).toEqual({ locales: ['Fra', 'Cmn', 'Jpn', 'Zho'] });
  });

  it('looks the uid up unchecked: a malformed one is not found, a reserved one is refused with the index scheduler\'s message', async () => {
    expectError(await call(server, 'POST', '/indexes/bad!/fields', {}), 404, 'index_not_found', 'Index `bad!` not found.');
    expectError(
      await call(server, 'POST', '/indexes/.meilifoo/fields', {}),
      400,
      'invalid_index_uid',
      '.meilifoo is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 400 bytes.',
    );
  });

  it('lists the primary key an index was created with, and one an update declares while it has no documents', async () => {
    const keyed = uniqueUid('keyed');
    expect((await run(server, 'POST', '/indexes', { uid: keyed, primaryKey: 'ref' })).status).toBe('succeeded');
    const names = async () => (await call(server, 'POST', `/indexes/${keyed}/fields`, {})).body.results.map((f: { name: string }) => f.name);
    expect(await names()).toEqual(['ref']);
    expect((await run(server, 'PATCH', `/indexes/${keyed}`, { primaryKey: 'code' })).status).toBe('succeeded');
    expect(await names()).toEqual(['code', 'ref']);
    const reply = await call(server, 'GET', `/indexes/${keyed}/stats`);
    expect(reply.body).toMatchObject({ numberOfDocuments: 0, fieldDistribution: {} });
  });

  it('rejects bad bodies with the fields codes and answers 404 on a missing index', async () => {
    expectError(
      await call(server, 'POST', `/indexes/${uid}/fields`, { filter: { doggo: true } }),
      400,
      'invalid_index_fields_filter',
      'Unknown field `doggo` inside `.filter`: expected one of `attributePatterns`, `displayed`, `searchable`, `sortable`, `distinct`, `rankingRule`, `filterable`',
    );
    expectError(
      await call(server, 'POST', `/indexes/${uid}/fields`, { filter: { sortable: 'yes' } }),
      400,
      'invalid_index_fields_filter_sortable',
      'Invalid value type at `.filter.sortable`: expected a boolean, but found a string: `"yes"`',
    );
    expectError(
      await call(server, 'POST', `/indexes/${uid}/fields`, { limit: -1 }),
      400,
      'invalid_index_limit',
      'Invalid value type at `.limit`: expected a positive integer, but found a negative integer: `-1`',
    );
    const missing = uniqueUid('missing');
    expectError(await call(server, 'POST', `/indexes/${missing}/fields`, {}), 404, 'index_not_found', `Index \`${missing}\` not found.`);
  });
});
