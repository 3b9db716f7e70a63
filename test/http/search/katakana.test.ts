// Katakana through the real server: as in Meilisearch's default build (charabia's
// JapaneseNormalizer, wana_kana), a word of Japanese text written in katakana is the word written
// in hiragana, so either spelling finds a document written in the other, highlighted as written;
// a field whose lone locale is another language keeps its katakana.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: number;
  text: string;
}

const DOCS: Doc[] = [
  { id: 1, text: 'ネコの本' },
  { id: 2, text: 'りんご' },
  { id: 3, text: 'サクラ' },
];

let server: TestServer;
let index: Index<Doc>;
/** The same documents, their field's lone locale English. */
let english: Index<Doc>;

/** Ids of the documents matching every query word. */
async function ids(q: string, of: Index<Doc> = index): Promise<number[]> {
  const { hits } = await of.search(q, { matchingStrategy: 'all' });
  return hits.map((hit) => hit.id).sort();
}

beforeAll(async () => {
  server = await startServer();
  const client = new Meilisearch({ host: server.url });
  index = client.index<Doc>('kana');
  english = client.index<Doc>('kana-eng');
  await settle(client, (await english.updateSettings({ localizedAttributes: [{ attributePatterns: ['text'], locales: ['eng'] }] })).taskUid);
  await settle(client, (await index.addDocuments(DOCS)).taskUid);
  await settle(client, (await english.addDocuments(DOCS)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('katakana and hiragana', () => {
  it('finds a document written in katakana with a hiragana query, and highlights it as written', async () => {
    expect(await ids('ねこ')).toEqual([1]);
    const { hits } = await index.search('ねこ', { attributesToHighlight: ['text'] });
    expect(hits.map((hit) => hit._formatted!.text)).toEqual(['<em>ネコ</em>の本']);
  });

  it('finds a document written in hiragana with a katakana query', async () => {
    expect(await ids('リンゴ')).toEqual([2]);
  });

  it("keeps the katakana of a field whose lone locale is English: only the same spelling finds it", async () => {
    expect(await ids('さくら')).toEqual([3]);
    expect(await ids('サクラ', english)).toEqual([3]);
    expect(await ids('さくら', english)).toEqual([]);
  });
});
