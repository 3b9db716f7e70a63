// A large `PATCH /indexes/{uid}/settings` body (or a setting's, on its sub-route) is parsed,
// validated and made canonical on a formatting thread (src/settings/body.ts): 250,000 synonyms
// (31 MB) held the thread answering requests 1.5-5 s before. The answers are those of a body read
// on that thread: the same task, details and errors as a small body's, on both routes. The bound on
// /health is generous: it catches the parse coming back to that thread, not a slow machine (which
// test/unit/http/routes/settings.test.ts counts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileHealthAnswers } from '../../helpers/responsive.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import { errorBody } from '../auth/request.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.url}${path}`, { method, headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body });
  return { status: res.status, body: await res.json() };
}

async function finished(taskUid: number): Promise<any> {
  for (;;) {
    const task = (await send('GET', `/tasks/${taskUid}`)).body;
    if (task.status === 'succeeded' || task.status === 'failed') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** `count` synonyms, keys out of order, each with a long value (~130 bytes a synonym). */
function synonyms(count: number): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (let k = count - 1; k >= 0; k--) out[`word${k}`] = [`synonym number ${k} of a large settings body, long enough to make a large body of few synonyms`, `word${k + 1}`];
  return out;
}

describe('a large settings body', () => {
  it('is read off the thread answering requests: /health keeps answering during a 31 MB PATCH', async () => {
    const body = JSON.stringify({ synonyms: synonyms(250_000) });
    expect(body.length).toBeGreaterThan(25_000_000);
    // a dry run (DryRun header): checked as any write, nothing stored or processed afterwards
    const { result, slowestHealth } = await whileHealthAnswers(server, () => send('PATCH', '/indexes/big/settings', body, { DryRun: 'true' }));
    expect(result).toMatchObject({ status: 202, body: { indexUid: 'big', status: 'enqueued', type: 'settingsUpdate' } });
    expect(slowestHealth, `/health took ${slowestHealth} ms`).toBeLessThan(2_000);
  }, 120_000);

  it('makes the task a small body makes: the same canonical details', async () => {
    const value = synonyms(2_500);
    const large = JSON.stringify({ synonyms: value, rankingRules: ['words', 'year:desc'] });
    expect(large.length).toBeGreaterThan(256 * 1024);
    const patched = await finished((await send('PATCH', '/indexes/big/settings', large)).body.taskUid);
    const put = await finished((await send('PUT', '/indexes/big/settings/synonyms', JSON.stringify(value))).body.taskUid);
    const ranking = await finished((await send('PUT', '/indexes/big/settings/ranking-rules', JSON.stringify(['words', 'year:desc']))).body.taskUid);
    expect(patched.status).toBe('succeeded');
    expect(patched.details).toEqual({ ...put.details, ...ranking.details });
    expect(Object.keys(patched.details.synonyms).slice(0, 3)).toEqual(['word0', 'word1', 'word10']);
    expect((await send('GET', '/indexes/big/settings/synonyms')).body).toEqual(put.details.synonyms);
  }, 60_000);

  it.each([
    ['a wrong value at its end', 'PATCH', '/indexes/big/settings', (text: string) => `{"synonyms":${text.slice(0, -1)},"zz":[1]}}`, '.synonyms.zz[0]'],
    ['a wrong value at its end', 'PUT', '/indexes/big/settings/synonyms', (text: string) => `${text.slice(0, -1)},"zz":[1]}`, '.zz[0]'],
    ['malformed JSON', 'PATCH', '/indexes/big/settings', (text: string) => `{"synonyms":${text.slice(0, -1)}`, ''],
    ['malformed JSON', 'PUT', '/indexes/big/settings/synonyms', (text: string) => text.slice(0, -1), ''],
  ])('answers the error of a small body with %s (%s %s)', async (_, method, path, spoil, location) => {
    const [small, large] = [synonyms(2), synonyms(2_500)].map((value) => spoil(JSON.stringify(value)));
    expect(large.length).toBeGreaterThan(256 * 1024);
    const [smallAnswer, largeAnswer] = [await send(method, path, small), await send(method, path, large)];
    expect(smallAnswer.status).toBe(400);
    expect(largeAnswer.status).toBe(400);
    if (location !== '') {
      expect(largeAnswer.body).toEqual(smallAnswer.body);
      expect(largeAnswer.body).toEqual(errorBody('invalid_settings_synonyms', `Invalid value type at \`${location}\`: expected a string, but found a positive integer: \`1\``));
    } else {
      // serde_json's position of the end differs with the length; the rest is the same
      expect(largeAnswer.body.code).toBe('malformed_payload');
      expect(largeAnswer.body.message.replace(/line \d+ column \d+/, '')).toBe(smallAnswer.body.message.replace(/line \d+ column \d+/, ''));
    }
  });
});
