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
        { name: 'title', displayed: on, searchable: on, sortable: off, distinct: off, rankingRule: off, filterable: notFilterable, localized: { locales: ['fra'] } },
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
