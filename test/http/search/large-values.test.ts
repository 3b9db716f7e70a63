// A search page holding a document of a megabyte or more: the document is highlighted, cropped and
// its matches placed on the server's formatting thread (src/workers/format-thread.ts), and the
// answer, holding megabytes of strings, is sent in pieces (src/search/streamed-answer.ts); both
// read as a small document's would, the other hits formatted as usual.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const WORDS = ['batman', 'robin', 'gotham', 'joker', 'alfred', 'wayne', 'cave', 'night'];
/** ~1.25 MB of words, "joker" every eighth word; `score` sent as `2.0`, which v1.50 writes back so. */
const LARGE = { id: 1, text: Array.from({ length: 200_000 }, (_, i) => `${WORDS[(i * 5) % 8]}${i % 1000 === 999 ? '.' : ''}`).join(' '), score: 2 };
const SMALL = { id: 2, text: 'the joker laughs at night', score: 1.5 };
const PAYLOAD = JSON.stringify([LARGE, SMALL]).replace('"score":2}', '"score":2.0}');

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'PATCH', '/indexes/comics/settings', { sortableAttributes: ['id'] });
  await run(server, 'POST', '/indexes/comics/documents', PAYLOAD);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** A search's answer headers, and its body parsed from the text as sent. */
function search(body: unknown): Promise<{ headers: Record<string, unknown>; text: string; body: { hits: Record<string, any>[] } }> {
  return new Promise((resolve, reject) => {
    const req = request(`${server.url}/indexes/comics/search`, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const text = Buffer.concat(chunks).toString();
        resolve({ headers: answer.headers, text, body: JSON.parse(text) });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const highlighted = (text: string) => text.replace(/\bjoker\b/g, '<em>joker</em>');

describe('a page with a document of a megabyte or more', () => {
  it('highlights every match of the large value, and the small hit as usual, in an answer sent in pieces', async () => {
    const { headers, text, body } = await search({ q: 'joker', sort: ['id:asc'], attributesToHighlight: ['*'] });
    expect(headers['transfer-encoding']).toBe('chunked');
    // the text as sent is JSON.stringify's, but for the float written as v1.50 writes it
    expect(text === JSON.stringify(body).replace('"score":2,', '"score":2.0,')).toBe(true);
    const [large, small] = body.hits;
    expect(large!.text === LARGE.text).toBe(true);
    const { text: formatted, ...others } = large!._formatted;
    expect(others).toEqual({ id: '1', score: '2.0' });
    expect(formatted === highlighted(LARGE.text)).toBe(true);
    expect(small!._formatted).toEqual({ id: '2', text: 'the <em>joker</em> laughs at night', score: '1.5' });
  });

  it('crops the large value around its best match and places each of its matches', async () => {
    const { body } = await search({ q: 'alfred joker', sort: ['id:asc'], attributesToCrop: ['text'], cropLength: 4, showMatchesPosition: true });
    const [large] = body.hits;
    // "alfred" and "joker" are three words apart at best: the first such pair
    expect(large!._formatted.text).toBe('…alfred robin cave joker…');
    const positions = large!._matchesPosition.text as { start: number; length: number }[];
    const starts = [...LARGE.text.matchAll(/\b(joker|alfred)\b/g)].map((match) => match.index);
    expect(positions.map((position) => position.start)).toEqual(starts);
    expect(positions.every((position) => position.length === 5 || position.length === 6)).toBe(true);
  });
});
