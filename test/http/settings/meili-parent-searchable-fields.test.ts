// Port of Meilisearch's crates/meilisearch/tests/settings/parent_seachable_fields.rs: a nested field
// becomes searchable when named in searchableAttributes, and stops being when removed again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson, searchBoth, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCUMENTS = [
  { id: 1, meta: { title: 'Soup of the day', description: 'many the fish' } },
  { id: 2, meta: { title: 'Soup of day', description: 'many the lazy fish' } },
  { id: 3, meta: { title: 'the Soup of day', description: 'many the fish' } },
];

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await succeed(server, 'POST', '/indexes/test/documents', DOCUMENTS);
});
afterAll(async () => {
  await server.dispose();
});

const searchable = (fields: string[]) => succeed(server, 'PATCH', '/indexes/test/settings', { searchableAttributes: fields });
const noHits = (answer: any) => expect(answer.hits).toEqual([]);

describe('nested_field_becomes_searchable', () => {
  it('meta.description is searched only while it is listed in searchableAttributes', async () => {
    await searchable(['meta.title']);
    await searchBoth(server, 'test', { q: 'many fish' }, noHits);

    await searchable(['meta.title', 'meta.description']);
    await searchBoth(server, 'test', { q: 'many fish' }, (answer) => expectJson(answer.hits, [DOCUMENTS[0], DOCUMENTS[2], DOCUMENTS[1]]));

    await searchable(['meta.title']);
    await searchBoth(server, 'test', { q: 'many fish' }, noHits);
  });
});
