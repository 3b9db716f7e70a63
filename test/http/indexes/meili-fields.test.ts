// Port of Meilisearch's crates/meilisearch/tests/index/fields.rs, from the snapshots that have the
// v1.50 `POST /indexes/{uid}/fields` shape: a missing index, an empty index, documents under the
// default settings (every field displayed and searchable), and the `ti` prefix filter — written
// `attributePatterns: ["ti*"]`, as v1.50's filter has no `startsWith` (its snapshot is of an
// older shape). The snapshots sort results by name (insta's sorted redaction); so do these checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { expectJson } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const fields = (uid: string, body: unknown = {}) => call(server, 'POST', `/indexes/${uid}/fields`, body);

/** A field as the default settings show it: displayed and searchable, nothing else. */
const defaultField = (name: string) => ({
  name,
  displayed: { enabled: true },
  searchable: { enabled: true },
  sortable: { enabled: false },
  distinct: { enabled: false },
  rankingRule: { enabled: false },
  filterable: { enabled: false, sortBy: 'alpha', facetSearch: false, equality: false, comparison: false },
  localized: { locales: [] },
});

const byName = (results: { name: string }[]) => [...results].sort((a, b) => (a.name < b.name ? -1 : 1));

describe('POST /indexes/{uid}/fields', () => {
  it('answers index_not_found for a missing index', async () => {
    expectError(await fields('DOES_NOT_EXISTS'), 404, 'index_not_found', 'Index `DOES_NOT_EXISTS` not found.');
  });

  it('lists no field for an empty index', async () => {
    const uid = uniqueUid('fields-empty');
    expect((await run(server, 'POST', '/indexes', { uid })).status).toBe('succeeded');
    const reply = await fields(uid);
    expect(reply.status).toBe(200);
    expectJson(reply.body, { results: [], offset: 0, limit: 20, total: 0 });
  });

  it('lists every document field under the default settings, and the prefix filter keeps title', async () => {
    const uid = uniqueUid('fields-docs');
    expect((await run(server, 'POST', '/indexes', { uid })).status).toBe('succeeded');
    const task = await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, [
      { id: 1, title: 'Titanic', genre: 'drama' },
      { id: 2, title: 'Shazam!', color: 'blue' },
    ]);
    expect(task.status).toBe('succeeded');

    const all = await fields(uid);
    expect(all.status).toBe(200);
    expect({ ...all.body, results: byName(all.body.results) }).toStrictEqual({
      results: ['color', 'genre', 'id', 'title'].map(defaultField),
      offset: 0,
      limit: 20,
      total: 4,
    });

    const prefixed = await fields(uid, { filter: { attributePatterns: ['ti*'] } });
    expect(prefixed.status).toBe(200);
    expect(prefixed.body.results).toStrictEqual([defaultField('title')]);
  });
});
