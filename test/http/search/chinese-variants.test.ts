// Chinese ideograph variants through the real server: as in Meilisearch (charabia's
// ChineseNormalizer, kVariants table), a document written with one variant of an ideograph is
// found by a query written with another, and highlighted at its own bytes; Cj text with as much
// kana as Han is Japanese to charabia's language detection (whatlang) and keeps its ideographs.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: number;
  text: string;
}

const DOCS: Doc[] = [
  { id: 1, text: '亞洲' },
  { id: 2, text: '亚洲へいく' },
];

let server: TestServer;
let index: Index<Doc>;

/** Ids of the documents matching every query word. */
async function ids(q: string): Promise<number[]> {
  const { hits } = await index.search(q, { matchingStrategy: 'all' });
  return hits.map((hit) => hit.id);
}

beforeAll(async () => {
  server = await startServer();
  const client = new Meilisearch({ host: server.url });
  index = client.index<Doc>('variants');
  await settle(client, (await index.addDocuments(DOCS)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('Chinese ideograph variants', () => {
  it('finds a document written in traditional characters with a simplified query, and highlights it as written', async () => {
    expect(await ids('亚洲')).toEqual([1]);
    const { hits } = await index.search('亚洲', { attributesToHighlight: ['text'] });
    expect(hits.map((hit) => hit._formatted!.text)).toEqual(['<em>亞洲</em>']);
  });

  it('finds it with the traditional query too', async () => {
    expect(await ids('亞洲')).toEqual([1]);
  });

  it('does not unify the ideographs of Japanese text (as much kana as Han)', async () => {
    expect(await ids('亚洲へいく')).toEqual([2]);
    expect(await ids('亞洲へいく')).toEqual([]);
  });
});
