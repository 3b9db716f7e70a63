// proximityPrecision through the real server (settings.md §proximityPrecision): `byAttribute`
// indexes no word distances, so a phrase matches its words anywhere in one attribute.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCS = [
  { id: 1, a: 'Soup of the day', b: 'many the fish' },
  { id: 2, a: 'Soup of day', b: 'many the lazy fish' },
  { id: 3, a: 'the Soup of day', b: 'many the fish' },
];

let server: TestServer;
let client: Meilisearch;

async function indexWith(uid: string, proximityPrecision: 'byWord' | 'byAttribute'): Promise<Index> {
  const index = client.index(uid);
  await client.tasks.waitForTask((await index.addDocuments(DOCS)).taskUid, { interval: 20, timeout: 60_000 });
  const task = await client.tasks.waitForTask((await index.updateSettings({ proximityPrecision, rankingRules: ['words', 'typo', 'proximity'] })).taskUid, {
    interval: 20,
    timeout: 60_000,
  });
  expect(task.status).toBe('succeeded');
  return index;
}

async function ids(index: Index, q: string): Promise<unknown[]> {
  return (await index.search(q)).hits.map((hit) => hit.id);
}

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

describe('phrases', () => {
  it('byWord needs the words consecutive', async () => {
    const index = await indexWith('by-word', 'byWord');
    expect(await ids(index, '"the soup of day"')).toEqual([3]);
    expect(await ids(index, '"many the fish"')).toEqual([1, 3]);
  });

  it('byAttribute needs the words in one attribute only, in any order and distance', async () => {
    const index = await indexWith('by-attribute', 'byAttribute');
    // document 2 has `the` in b only, the other words in a
    expect(await ids(index, '"the soup of day"')).toEqual([1, 3]);
    expect(await ids(index, '"many the fish"')).toEqual([1, 2, 3]);
  });
});
