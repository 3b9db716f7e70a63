// The server's close on a signal: a request in flight that ends within the grace is answered
// whole; one whose client stopped reading its long answer is cut when the grace has passed,
// instead of keeping the process alive.
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { closeGracefully } from '../../../../src/http/transport/graceful-close.js';

let app: FastifyInstance | null = null;

afterEach(async () => {
  app?.server.closeAllConnections();
  await app?.close();
  app = null;
});

/** A server whose `/slow` answers after 200 ms and whose `/endless` writes 64 KiB pieces for ever. */
async function serve(): Promise<string> {
  app = Fastify();
  app.get('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 200));
    return 'done';
  });
  app.get('/endless', async () => Readable.from((function* () {
    for (;;) yield 'x'.repeat(64 * 1024);
  })()));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

const answerOf = (url: string) => new Promise<IncomingMessage>((resolve, reject) => request(url, resolve).on('error', reject).end());

describe('closeGracefully', () => {
  it('lets a request in flight finish within the grace, and closes its connection once idle', async () => {
    const url = await serve();
    const answered = answerOf(`${url}/slow`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const closed = closeGracefully(app!, 5_000);
    const answer = await answered;
    let body = '';
    for await (const chunk of answer) body += chunk;
    expect(body).toBe('done');
    await closed;
    // its connection, kept alive after the answer, is closed as it idles, not when the grace ends
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('closes a connection whose client stopped reading once the grace has passed', async () => {
    const url = await serve();
    const answer = await answerOf(`${url}/endless`);
    answer.pause();
    const started = performance.now();
    await closeGracefully(app!, 300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    // read again, the endless answer ends: what the server sent before it cut the connection
    const ended = new Promise((resolve) => answer.once('close', () => resolve('cut')));
    answer.on('error', () => undefined).resume();
    expect(await ended).toBe('cut');
  });
});
