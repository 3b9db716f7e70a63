// The document list and the single document through the service, on a real index.
import { describe, expect, it } from 'vitest';
import { answerDocuments, getDocument, listDocuments, STREAMED_FROM } from '../../../src/search/documents.js';
import { parseJson } from '../../../src/types/json-text.js';
import { StreamedJson } from '../../../src/types/streamed-json.js';
import { apiErrorOf } from '../validation/expect-api-error.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

function open() {
  return openFixture({
    movies: {
      settings: { displayedAttributes: ['title'], filterableAttributes: ['genre'], sortableAttributes: ['year'] },
      docs: [
        { id: 1, title: 'Batman', genre: 'action', year: 1989 },
        { id: 2, title: 'Dune', genre: 'scifi', year: 2021 },
        { id: 3, title: 'Heat', genre: 'action', year: 1995 },
      ],
    },
  });
}

describe('listDocuments', () => {
  it('lists every document in id order, every field whatever displayedAttributes says', async () => {
    expect(await listDocuments(open().ctx, 'movies', { limit: 2 })).toEqual({
      results: [
        { id: 1, title: 'Batman', genre: 'action', year: 1989 },
        { id: 2, title: 'Dune', genre: 'scifi', year: 2021 },
      ],
      offset: 0,
      limit: 2,
      total: 3,
    });
  });

  it('filters, sorts and projects, counting the filtered documents', async () => {
    const listed = await listDocuments(open().ctx, 'movies', { filter: 'genre = action', sort: ['year:desc'], fields: ['title'] });
    expect(listed).toEqual({ results: [{ title: 'Heat' }, { title: 'Batman' }], offset: 0, limit: 20, total: 2 });
  });

  it('reads only the listed ids, skipping unknown ones', async () => {
    expect((await listDocuments(open().ctx, 'movies', { ids: [3, '1', 'nope'], fields: ['id'] })).results).toEqual([{ id: 1 }, { id: 3 }]);
  });

  it('checks ids, then sort syntax, before the index', async () => {
    const f = open();
    await expect(listDocuments(f.ctx, 'nowhere', { ids: ['a b'] })).rejects.toMatchObject({ code: 'invalid_document_ids' });
    await expect(listDocuments(f.ctx, 'nowhere', { sort: ['year:up'] })).rejects.toMatchObject({ code: 'invalid_document_sort' });
    await expect(listDocuments(f.ctx, 'nowhere', {})).rejects.toMatchObject({ code: 'index_not_found' });
    await expect(listDocuments(f.ctx, 'movies', { sort: ['title:asc'] })).rejects.toMatchObject({ code: 'invalid_document_sort' });
  });
});

/** An index of `count` documents with some text each, enough for a list of them to take several time slices. */
function openLarge(count: number) {
  const words = ['river', 'stone', 'quarry', 'lantern', 'harbour', 'meadow', 'copper', 'willow'];
  const docs = Array.from({ length: count }, (_, id) => ({
    id,
    title: `${words[id % 8]} ${words[(id >> 3) % 8]} ${id}`,
    year: 1900 + (id % 120),
    text: Array.from({ length: 30 }, (_, i) => words[(id * 7 + i) % 8]).join(' '),
  }));
  return openFixture({ books: { settings: { filterableAttributes: ['year'], sortableAttributes: ['year'] }, docs } });
}

/** Runs `read` while counting the turns the event loop takes meanwhile. */
async function countingTurns<T>(read: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  const result = await read();
  done = true;
  return { result, turns };
}

describe('answerDocuments', () => {
  it('answers a list of more than STREAMED_FROM documents as JSON pieces that read as the list built whole', async () => {
    const f = openLarge(3_000);
    for (const query of [{ limit: 2_500, offset: 100 }, { limit: 5_000, filter: 'year > 1950', sort: ['year:desc'], fields: ['title', 'year'] }, { ids: Array.from({ length: 2_000 }, (_, i) => i * 2 + 1), limit: 3_000 }]) {
      const answer = await answerDocuments(f.ctx, 'books', query);
      expect(answer).toBeInstanceOf(StreamedJson);
      const pieces: string[] = [];
      for await (const piece of (answer as StreamedJson).pieces) pieces.push(piece);
      expect(pieces.length).toBeGreaterThan(1);
      expect(parseJson(pieces.join(''))).toEqual(await listDocuments(f.ctx, 'books', query));
    }
    expect(await answerDocuments(f.ctx, 'books', { limit: STREAMED_FROM })).not.toBeInstanceOf(StreamedJson);
  });

  it('answers a short list holding a mebibyte of strings as JSON pieces that read as the list', async () => {
    const long = { id: 1, text: '😀 word '.repeat(150_000) };
    const f = openFixture({ long: { docs: [long, { id: 2, text: 'short' }] } });
    const answer = await answerDocuments(f.ctx, 'long', { limit: 2 });
    expect(answer).toBeInstanceOf(StreamedJson);
    expect(parseJson(await (answer as StreamedJson).text())).toEqual({ results: [long, { id: 2, text: 'short' }], offset: 0, limit: 2, total: 2 });
    expect(await answerDocuments(f.ctx, 'long', { offset: 1 })).not.toBeInstanceOf(StreamedJson);
  });

  it('gives the event loop turns while it reads a long list', async () => {
    const f = openLarge(10_000);
    const { result, turns } = await countingTurns(() => listDocuments(f.ctx, 'books', { limit: 10_000 }));
    expect(result.results).toHaveLength(10_000);
    expect(turns).toBeGreaterThan(0);
  });

  it('lists the documents as they were when it started, whatever is written while it reads', async () => {
    const f = openLarge(10_000);
    const before = await listDocuments(f.ctx, 'books', { limit: 10_000, ids: Array.from({ length: 10_000 }, (_, i) => i) });
    let written = false;
    const reading = listDocuments(f.ctx, 'books', { limit: 10_000, ids: Array.from({ length: 10_000 }, (_, i) => i) });
    setImmediate(() => {
      const changes: Record<string, { id: number; title: string } | null> = {};
      for (let id = 0; id < 10_000; id += 2) changes[String(id)] = null;
      for (let id = 1; id < 10_000; id += 2) changes[String(id)] = { id, title: 'rewritten' };
      f.index('books').write(changes);
      written = true;
    });
    const during = await reading;
    expect(written).toBe(true);
    expect(during).toEqual(before);
    const after = await listDocuments(f.ctx, 'books', { limit: 10_000 });
    expect(after.total).toBe(5_000);
    expect(after.results[0]).toEqual({ id: 1, title: 'rewritten' });
  });
});

describe('getDocument', () => {
  it('answers the document with the asked fields, or document_not_found', () => {
    const f = open();
    expect(getDocument(f.ctx, 'movies', '2', ['title', 'year'], undefined)).toEqual({ title: 'Dune', year: 2021 });
    expect(getDocument(f.ctx, 'movies', '2', null, undefined)).toEqual({ id: 2, title: 'Dune', genre: 'scifi', year: 2021 });
    expect(apiErrorOf(() => getDocument(f.ctx, 'movies', '9', null, undefined))).toEqual({ code: 'document_not_found', message: 'Document `9` not found.' });
  });
});
