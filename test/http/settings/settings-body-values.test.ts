// A settings body of more than 100,000 values (Quarry's bound, src/http/body/json.ts
// SETTINGS_BODY_VALUES) is refused before it is parsed: an index's settings are walked whole on the
// thread answering every request when a change is enqueued, applied, read back and first searched
// with, and synonyms of 450,000 keys held that thread 13 s at each step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, callRaw, errorBody, run } from '../../helpers/api.js';
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
const TOO_MANY = errorBody(
  'payload_too_large',
  "The JSON payload holds more than 100000 values. An index's settings are read whole on the thread that answers every request.",
);
/** `n` synonyms of one value each: two values (a comma, a bracket) per key. */
const synonyms = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`w${i}`, [`v${i}`]]));

describe('a settings body of more than 100,000 values', () => {
  it('is refused with payload_too_large at once on PATCH /settings and on a sub-route, while /health answers', async () => {
    const body = JSON.stringify({ synonyms: synonyms(450_000) });
    const { result: reply, slowestHealth } = await whileHealthAnswers(server, () => callRaw(server, 'PATCH', '/indexes/movies/settings', body, json));
    expect(reply.status).toBe(413);
    expect(reply.body).toEqual(TOO_MANY);
    expect(slowestHealth).toBeLessThan(STALL_MS);
    const stopWords = JSON.stringify(Array.from({ length: 100_001 }, (_, i) => `w${i}`));
    const sub = await callRaw(server, 'PUT', '/indexes/movies/settings/stop-words', stopWords, json);
    expect(sub.status).toBe(413);
    expect(sub.body).toEqual(TOO_MANY);
  });

  it('takes a body within the bound: 49,000 synonyms apply and a search uses them', async () => {
    const task = await run(server, 'PATCH', '/indexes/movies/settings', { synonyms: { ...synonyms(49_000), robbery: ['heat'] } });
    expect(task.status).toBe('succeeded');
    const reply = await call(server, 'POST', '/indexes/movies/search', { q: 'robbery' });
    expect(reply.body.hits).toEqual([{ id: 1, title: 'Heat' }]);
  }, 120_000);
});
