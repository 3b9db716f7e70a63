// A JSON body of more values than Quarry's bound (src/validation/json-body.ts MAX_BODY_VALUES) is refused
// before it is parsed: JSON.parse of ten million zeros (a 20 MB body, within the payload limit)
// held the thread answering every request for about a second before the first element's 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callRaw, errorBody, run } from '../../helpers/api.js';
import { whileHealthAnswers } from '../../helpers/responsive.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const STALL_MS = 1_000;
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await run(server, 'POST', '/indexes/movies/documents', [{ id: 1, title: 'Heat' }]);
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const json = { 'content-type': 'application/json' };
const zeros = (n: number) => `[${'0,'.repeat(n - 1)}0]`;
const TOO_MANY = errorBody(
  'payload_too_large',
  'The JSON payload holds more than 1000000 values. A body is read whole on the thread that answers every request: send its values in several requests.',
);

describe('a JSON body of more than a million values', () => {
  it('is refused with payload_too_large at once, while /health answers', async () => {
    const body = `{"q":"heat","attributesToRetrieve":${zeros(10_000_000)}}`;
    const { result: reply, slowestHealth } = await whileHealthAnswers(server, () => callRaw(server, 'POST', '/indexes/movies/search', body, json));
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual(TOO_MANY);
    expect(slowestHealth).toBeLessThan(STALL_MS);
  });

  it('is refused on every JSON route: settings, fetch ids, deletion by ids', async () => {
    const many = zeros(1_000_001);
    for (const [method, path, body] of [
      ['PATCH', '/indexes/movies/settings', `{"stopWords":${many}}`],
      ['POST', '/indexes/movies/documents/fetch', `{"ids":${many}}`],
      ['POST', '/indexes/movies/documents/delete-batch', many],
    ] as const) {
      const reply = await callRaw(server, method, path, body, json);
      expect(reply.status, path).toBe(413);
      expect(reply.body).toEqual(TOO_MANY);
    }
  });

  it('counts no comma or bracket inside strings: a long string of them is read', async () => {
    const reply = await callRaw(server, 'POST', '/indexes/movies/search', JSON.stringify({ q: `heat ${',[{'.repeat(1_000_000)}` }), json);
    expect(reply.status).toBe(200);
    expect(reply.body.hits).toEqual([{ id: 1, title: 'Heat' }]);
  });

  it('reads a body within the bound: 999,990 ids fetch the one document', async () => {
    const ids = `[1,${Array.from({ length: 999_989 }, (_, i) => i + 2).join(',')}]`;
    const reply = await callRaw(server, 'POST', '/indexes/movies/documents/fetch', `{"ids":${ids},"limit":1}`, json);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ results: [{ id: 1, title: 'Heat' }], offset: 0, limit: 1, total: 1 });
  });
});
