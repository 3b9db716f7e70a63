// Field order of stored documents (documents, hits) against how the primary key was set, as
// v1.50's indexer numbers fields (milli's retrieve_or_guess_primary_key): a declared key, whether
// given with the documents or when the index was created, takes the next field id before the
// documents' fields, so it leads every document; an inferred one is numbered with the first
// document's fields, in their order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const DOCS = [
  { title: 'Gläss', id: '1', color: ['blue'] },
  { genre: 'drama', title: 'Shazam!', id: '2' },
];

/** The keys of each stored document, in the order GET documents answers them. */
async function storedKeys(uid: string): Promise<string[][]> {
  const reply = await call(server, 'GET', `/indexes/${uid}/documents`);
  expect(reply.status).toBe(200);
  return (reply.body.results as Record<string, unknown>[]).map((doc) => Object.keys(doc));
}

describe('primary key field order', () => {
  it('puts a key given with the documents first in every document and hit', async () => {
    const uid = uniqueUid('pk-given');
    expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=id`, DOCS)).status).toBe('succeeded');
    expect(await storedKeys(uid)).toEqual([
      ['id', 'title', 'color'],
      ['id', 'title', 'genre'],
    ]);
    const search = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'shazam' });
    expect(Object.keys(search.body.hits[0])).toEqual(['id', 'title', 'genre']);
  });

  it('puts a key declared at index creation first', async () => {
    const uid = uniqueUid('pk-created');
    expect((await run(server, 'POST', '/indexes', { uid, primaryKey: 'id' })).status).toBe('succeeded');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCS)).status).toBe('succeeded');
    expect((await storedKeys(uid))[0]).toEqual(['id', 'title', 'color']);
  });

  it('numbers every key declared while the index had no documents, in the order they were declared', async () => {
    const uid = uniqueUid('pk-redeclared');
    expect((await run(server, 'POST', '/indexes', { uid, primaryKey: 'genre' })).status).toBe('succeeded');
    expect((await run(server, 'PATCH', `/indexes/${uid}`, { primaryKey: 'id' })).status).toBe('succeeded');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCS)).status).toBe('succeeded');
    expect(await storedKeys(uid)).toEqual([
      ['id', 'title', 'color'],
      ['genre', 'id', 'title'],
    ]);
  });

  it('keeps an inferred key where the first document has it', async () => {
    const uid = uniqueUid('pk-inferred');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCS)).status).toBe('succeeded');
    expect(await storedKeys(uid)).toEqual([
      ['title', 'id', 'color'],
      ['title', 'id', 'genre'],
    ]);
  });

  it('numbers no field for a declared key whose addition fails', async () => {
    const uid = uniqueUid('pk-failed');
    // documents without the declared key fail the task: `ref` gets no field id
    expect((await run(server, 'POST', `/indexes/${uid}/documents?primaryKey=ref`, DOCS)).status).toBe('failed');
    expect((await run(server, 'POST', `/indexes/${uid}/documents`, DOCS)).status).toBe('succeeded');
    expect((await storedKeys(uid))[0]).toEqual(['title', 'id', 'color']);
    const fields = await call(server, 'POST', `/indexes/${uid}/fields`, {});
    expect((fields.body.results as { name: string }[]).map(({ name }) => name).sort()).toEqual(['color', 'genre', 'id', 'title']);
  });
});
