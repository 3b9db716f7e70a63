// Text written without spaces (Chinese, Japanese, Thai) through the real server: its words are
// found inside sentences, highlighted, cropped and located as Meilisearch does (search.md §8.3:
// `で` inside `クーポンで無料で頂きました` is highlighted twice), because documents, queries and
// the formatter are segmented alike; and Arabic, whose article ال charabia cuts off.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../../helpers/client.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: number;
  text: string;
}

const DOCS: Doc[] = [
  { id: 1, text: '我们在北京大学学习中文' },
  { id: 2, text: '北京是中国的首都' },
  { id: 3, text: '上海的大学很多' },
  { id: 4, text: 'クーポンで無料で頂きました' },
  { id: 5, text: '東京タワーに行きました' },
  { id: 6, text: 'ภาษาไทยง่ายนิดเดียว' },
  { id: 7, text: 'Peking University is in Beijing' },
  { id: 8, text: 'الشجرة كبيرة' },
];

let server: TestServer;
let index: Index<Doc>;

/** Ids of the hits, in order. */
async function ids(q: string, locales?: string[]): Promise<number[]> {
  const { hits } = await index.search(q, locales === undefined ? {} : { locales });
  return hits.map((hit) => hit.id);
}

async function highlighted(q: string): Promise<string[]> {
  const { hits } = await index.search(q, { attributesToHighlight: ['text'] });
  return hits.map((hit) => hit._formatted!.text as string);
}

beforeAll(async () => {
  server = await startServer();
  const client = new Meilisearch({ host: server.url });
  index = client.index<Doc>('texts');
  await settle(client, (await index.addDocuments(DOCS)).taskUid);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

describe('Chinese', () => {
  it('finds a word inside a sentence and highlights only that word', async () => {
    expect((await ids('大学')).sort()).toEqual([1, 3]);
    expect((await highlighted('大学')).sort()).toEqual(['上海的<em>大学</em>很多', '我们在北京<em>大学</em>学习中文']);
    expect((await ids('首都'))).toEqual([2]);
  });

  it('splits an unspaced query into words: 北京大学 finds the sentence holding both, then those with 北京', async () => {
    const hits = await ids('北京大学');
    expect(hits[0]).toBe(1);
    expect(hits).toEqual([1, 2]);
    expect((await highlighted('北京大学'))[0]).toBe('我们在<em>北京</em><em>大学</em>学习中文');
  });

  it('crops around the match counting segmented words', async () => {
    const { hits } = await index.search('学习', { attributesToCrop: ['text'], cropLength: 2 });
    expect(hits.map((hit) => hit._formatted!.text)).toEqual(['…大学学习…']);
  });

  it('segments a Han-only query as Mandarin when the locales allow it, whatever else they hold', async () => {
    for (const locales of [['cmn'], ['zho', 'jpn']]) expect(await ids('北京大学', locales)).toEqual(await ids('北京大学'));
  });

  it('keeps the ideographs of a query forced to Japanese, which then miss the unified Mandarin documents', async () => {
    // 学 is unified to 學 in Mandarin text only
    expect((await ids('大学')).sort()).toEqual([1, 3]);
    expect(await ids('大学', ['jpn'])).toEqual([]);
  });
});

describe('Japanese', () => {
  it('highlights the particle で twice in クーポンで無料で頂きました, at its byte offsets', async () => {
    const { hits } = await index.search('で', { attributesToHighlight: ['text'], showMatchesPosition: true });
    expect(hits.map((hit) => hit.id)).toEqual([4]);
    expect(hits[0]!._formatted!.text).toBe('クーポン<em>で</em>無料<em>で</em>頂きました');
    expect(hits[0]!._matchesPosition).toEqual({ text: [{ start: 12, length: 3 }, { start: 21, length: 3 }] });
  });

  it('finds words between kana and kanji inside a sentence', async () => {
    expect(await highlighted('行き')).toEqual(['東京タワーに<em>行き</em>ました']);
    expect(await ids('無料')).toEqual([4]);
    expect(await ids('クーポン')).toEqual([4]);
  });
});

describe('Thai', () => {
  it('finds and highlights a Thai word inside unspaced text, tone marks ignored as for accents', async () => {
    expect(await highlighted('ง่าย')).toEqual(['ภาษาไทย<em>ง่าย</em>นิดเดียว']);
    expect(await ids('งาย')).toEqual([6]);
    // charabia's Thai word list holds ภาษาไทย whole
    expect(await ids('ภาษาไทย')).toEqual([6]);
    expect(await ids('ไทย')).toEqual([]);
  });
});

describe('Arabic', () => {
  it('cuts the article off a word, so the word is found with or without it', async () => {
    expect(await ids('شجرة')).toEqual([8]);
    expect(await ids('الشجرة')).toEqual([8]);
    expect(await highlighted('شجرة')).toEqual(['ال<em>شجرة</em> كبيرة']);
  });
});
