// `locales` and `localizedAttributes` through the real server, on the documents and queries of
// Meilisearch's own tests (crates/meilisearch/tests/search/locales.rs): the locales restrict
// charabia's language detection, which picks jieba (Mandarin) or lindera (Japanese) for Han
// text and unifies Chinese ideograph variants for Mandarin only, so a query and a field meet
// only when both were cut the same way.
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCUMENTS = [
  {
    id: 852,
    name_en: 'Attack on Titan',
    description_en: 'Attack on Titan is a Japanese manga series written and illustrated by Hajime Isayama',
    author_en: 'Hajime Isayama',
    name_ja: '進撃の巨人',
    description_ja: '進撃の巨人は、日本の漫画シリーズであり、諫山 創によって作画されている。',
    author_ja: '諫山 創',
  },
  { id: 853, name_zh: '进击的巨人', description_zh: '进击的巨人是日本的漫画系列，由諫山 創作画。', author_zh: '諫山創' },
  {
    id: 654,
    name_en: 'One Piece',
    description_en: 'One Piece is a Japanese manga series written and illustrated by Eiichiro Oda',
    author_en: 'Eiichiro Oda',
    name_ja: 'ワンピース',
    description_ja: 'ワンピースは、日本の漫画シリーズであり、尾田 栄一郎によって作画されている。',
    author_ja: '尾田 栄一郎',
  },
  { id: 655, name_zh: 'ONE PIECE', description_zh: '海贼王》是尾田荣一郎创作的日本漫画系列。', author_zh: '尾田 栄一郎' },
];

const NESTED_DOCUMENTS = [
  {
    id: 852,
    document_en: { name: 'Attack on Titan', description: 'Attack on Titan is a Japanese manga series written and illustrated by Hajime Isayama', author: 'Hajime Isayama' },
    document_ja: { name: '進撃の巨人', description: '進撃の巨人は、日本の漫画シリーズであり、諫山 創によって作画されている。', author: '諫山 創' },
    document_zh: { name: '进击的巨人', description: '进击的巨人是日本的漫画系列，由諫山 創作画。', author: '諫山創' },
  },
  {
    id: 654,
    document_en: { name: 'One Piece', description: 'One Piece is a Japanese manga series written and illustrated by Eiichiro Oda', author: 'Eiichiro Oda' },
    document_ja: { name: 'ワンピース', description: 'ワンピースは、日本の漫画シリーズであり、尾田 栄一郎によって作画されている。', author: '尾田 栄一郎' },
    document_zh: { name: 'ONE PIECE', description: '海贼王》是尾田荣一郎创作的日本漫画系列。', author: '尾田 栄一郎' },
  },
];

const SEARCHABLE = ['name_en', 'name_ja', 'name_zh', 'author_en', 'author_ja', 'author_zh', 'description_en', 'description_ja', 'description_zh'];
const PHRASE = '"进击的巨人"';

let server: TestServer;
let client: Meilisearch;
let serial = 0;

/** A new index with `settings`, then `documents` added. */
async function indexWith(settings: Record<string, unknown>, documents: readonly object[]) {
  const index = client.index(`locales-${++serial}`);
  await settle(client, (await index.updateSettings(settings)).taskUid);
  await settle(client, (await index.addDocuments([...documents])).taskUid);
  return index;
}

/** The ids a search finds. */
async function ids(index: ReturnType<Meilisearch['index']>, q: string, params: Record<string, unknown> = {}): Promise<unknown[]> {
  const { hits } = await index.search(q, { attributesToRetrieve: ['id'], ...params });
  return hits.map((hit) => hit.id);
}

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('locales at search time', () => {
  it('detects the language of a query and of each field: 進撃 is Mandarin alone, Japanese beside its kana', async () => {
    const index = await indexWith({ searchableAttributes: SEARCHABLE }, DOCUMENTS);
    expect(await ids(index, 'Atta')).toEqual([852]);
    // the query is Mandarin: unified to the variants of 进击, as the Chinese document
    expect(await ids(index, '進撃')).toEqual([853]);
    // forced Japanese: kept as written, as in the Japanese document
    expect(await ids(index, '進撃', { locales: ['jpn'] })).toEqual([852]);
    expect(await ids(index, '进击')).toEqual([853]);
  });

  it('accepts the two-letter code of a locale', async () => {
    const index = await indexWith({ searchableAttributes: SEARCHABLE }, DOCUMENTS);
    expect(await ids(index, '進撃', { locales: ['ja'] })).toEqual([852]);
  });
});

describe('localizedAttributes', () => {
  it('cuts the fields it forces to Japanese with lindera, so a Mandarin phrase query still meets the Mandarin-cut field', async () => {
    const index = await indexWith(
      { searchableAttributes: SEARCHABLE, localizedAttributes: [{ attributePatterns: ['name_ja', 'name_zh', 'author_ja', 'author_zh', 'description_ja', 'description_zh'], locales: ['jpn'] }] },
      DOCUMENTS,
    );
    // no `locales`: the searched fields' locales (jpn) restrict the query, as the fields were cut
    expect(await ids(index, PHRASE)).toEqual([853]);
    expect(await ids(index, PHRASE, { locales: ['jpn'] })).toEqual([853]);
  });

  it('takes an empty locales list as no locale at all: the query is detected, not restricted by the rules (v1.50\'s Some([]))', async () => {
    const index = await indexWith(
      { searchableAttributes: SEARCHABLE, localizedAttributes: [{ attributePatterns: ['name_ja', 'name_zh', 'author_ja', 'author_zh', 'description_ja', 'description_zh'], locales: ['jpn'] }] },
      DOCUMENTS,
    );
    // detected, the phrase is Mandarin and meets no field the rule cut as Japanese
    expect(await ids(index, PHRASE, { locales: [] })).toEqual([]);
    const res = await fetch(`${server.url}/indexes/${index.uid}/search?attributesToRetrieve=id&locales=&q=${encodeURIComponent(PHRASE)}`);
    expect(((await res.json()) as { hits: unknown[] }).hits).toEqual([]);
  });

  it('takes the first rule whose pattern matches a nested field, and a Mandarin query misses the fields cut as Japanese', async () => {
    const index = await indexWith(
      { searchableAttributes: ['document_en', 'document_ja', 'document_zh'], localizedAttributes: [{ attributePatterns: ['document_ja.*', '*_zh.*'], locales: ['jpn'] }] },
      NESTED_DOCUMENTS,
    );
    expect(await ids(index, PHRASE, { locales: ['cmn'] })).toEqual([]);
    expect(await ids(index, PHRASE, { locales: ['jpn'] })).toEqual([852]);
  });

  it('infers the query locales from the fields searched: all of them, or those of attributesToSearchOn', async () => {
    const index = await indexWith(
      {
        searchableAttributes: SEARCHABLE,
        localizedAttributes: [
          { attributePatterns: ['*_zh'], locales: ['jpn'] },
          { attributePatterns: ['*_ja'], locales: ['cmn'] },
          { attributePatterns: ['*_en'], locales: [] },
        ],
      },
      DOCUMENTS,
    );
    // jpn and cmn together: detection is free, the phrase is Mandarin and meets no field cut alike
    expect(await ids(index, PHRASE)).toEqual([]);
    expect(await ids(index, PHRASE, { attributesToSearchOn: ['name_zh', 'description_zh'] })).toEqual([853]);
  });

  it('re-cuts the stored documents when the rules change', async () => {
    const index = client.index(`locales-${++serial}`);
    await settle(client, (await index.addDocuments(NESTED_DOCUMENTS)).taskUid);
    await settle(
      client,
      (await index.updateSettings({ searchableAttributes: ['document_en', 'document_ja', 'document_zh'], localizedAttributes: [{ attributePatterns: ['document_ja.*', '*_zh.*'], locales: ['jpn'] }] })).taskUid,
    );
    expect(await ids(index, PHRASE, { locales: ['cmn'] })).toEqual([]);
    expect(await ids(index, PHRASE, { locales: ['jpn'] })).toEqual([852]);
    await settle(
      client,
      (
        await index.updateSettings({
          searchableAttributes: ['document_en', 'document_ja', 'document_zh'],
          localizedAttributes: [
            { attributePatterns: ['*_zh.*'], locales: ['jpn'] },
            { attributePatterns: ['document_ja.*'], locales: ['cmn'] },
          ],
        })
      ).taskUid,
    );
    expect(await ids(index, PHRASE, { locales: ['cmn'] })).toEqual([]);
    expect(await ids(index, PHRASE, { locales: ['jpn'] })).toEqual([852]);
  });
});

describe('highlighting', () => {
  it('highlights a field cut as Japanese with the query cut as Japanese', async () => {
    const index = await indexWith({ searchableAttributes: SEARCHABLE, localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['jpn'] }] }, DOCUMENTS);
    const { hits } = await index.search('進撃', { locales: ['jpn'], attributesToHighlight: ['name_ja'], attributesToRetrieve: ['id'] });
    expect(hits.map((hit) => [hit.id, hit._formatted?.name_ja])).toEqual([[852, '<em>進撃</em>の巨人']]);
  });
});
