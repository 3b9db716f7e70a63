/**
 * One request timed while /health is asked every 20 ms until it answers: the slowest /health
 * answer tells whether the server kept answering everyone else (issue 25: a single request that
 * holds the event loop is a denial of service). Bounds belong to the tests, and should be
 * generous: they catch a blocked loop (seconds), not a slow machine.
 */
import type { TestServer } from './server.js';

export interface Timed<T> {
  readonly result: T;
  /** the request's own time, in ms */
  readonly ms: number;
  /** the slowest /health answer while the request ran, in ms */
  readonly slowestHealth: number;
}

/** The pause between two /health pings: a stall (seconds) still shows in full, and the pings leave the CPU to the request. */
const PING_EVERY_MS = 20;

export async function whileHealthAnswers<T>(server: TestServer, send: () => Promise<T>): Promise<Timed<T>> {
  let done = false;
  let slowestHealth = 0;
  const started = performance.now();
  const request = send().finally(() => (done = true));
  const settled = request.then(
    () => undefined,
    () => undefined,
  );
  const pings = (async () => {
    do {
      const sent = performance.now();
      const health = await fetch(`${server.url}/health`);
      await health.text();
      if (health.status !== 200) throw new Error(`/health answered ${health.status}`);
      slowestHealth = Math.max(slowestHealth, performance.now() - sent);
      if (!done) await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, PING_EVERY_MS))]);
    } while (!done);
  })();
  const result = await request;
  const ms = performance.now() - started;
  await pings;
  return { result, ms, slowestHealth };
}
