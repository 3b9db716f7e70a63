/**
 * A connection the server closes after its answer while the client is still sending the request's
 * body (the client asked `Connection: close`; the route does not read the body, or the request
 * is refused before it) must not lose the answer: closing over unread bytes resets the
 * connection, and the reset can reach the client before the answer is read. Before the lingering
 * close, 10–45 % of such answers were lost on this machine. Raw sockets, so the bytes are the test's.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const BODY = Buffer.alloc(1 << 20, 'a');

/** Sends `head` and a 1 MiB body at once; the answer's status, or how the connection failed. */
function exchange(head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let settled = false;
    const settle = (outcome: string) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      resolve(outcome);
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(text.slice(0, split))?.[1];
      if (split !== -1 && length !== undefined && text.length >= split + 4 + Number(length)) settle(text.slice(9, 12));
    });
    socket.on('end', () => settle(`closed after ${Buffer.concat(chunks).length} bytes`));
    socket.on('error', (err: NodeJS.ErrnoException) => settle(`${err.code} after ${Buffer.concat(chunks).length} bytes`));
    socket.write(Buffer.concat([Buffer.from(head.replace('$LENGTH', String(BODY.length)), 'latin1'), BODY]));
  });
}

/** The outcomes of `times` exchanges, counted. */
async function outcomes(head: string, times: number): Promise<Record<string, number>> {
  const counted: Record<string, number> = {};
  for (let i = 0; i < times; i++) {
    const outcome = await exchange(head);
    counted[outcome] = (counted[outcome] ?? 0) + 1;
  }
  return counted;
}

const CLOSE = 'Host: quarry\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: $LENGTH\r\n\r\n';

describe('answers before an unread body', () => {
  it('delivers every answer of a route that ignores the body', async () => {
    expect(await outcomes(`GET /health HTTP/1.1\r\n${CLOSE}`, 100)).toEqual({ '200': 100 });
  });

  it('delivers every answer of a request refused before its body is read', async () => {
    expect(await outcomes(`POST /indexes HTTP/1.1\r\n${CLOSE}`, 40)).toEqual({ '400': 40 });
  });

  it("delivers every answer to a request Node's parser refuses", async () => {
    expect(await outcomes(`GET /in dexes HTTP/1.1\r\n${CLOSE}`, 40)).toEqual({ '400': 40 });
    const headers = Array.from({ length: 100 }, (_, i) => `X-Header-${i}: 1\r\n`).join('');
    expect(await outcomes(`GET /health HTTP/1.1\r\n${headers}${CLOSE}`, 40)).toEqual({ '431': 40 });
  });

  it('closes the connection of a client that goes on sending after the answer, within the linger time', async () => {
    const client = endlessUpload(server.port);
    await new Promise((resolve) => client.socket.on('close', resolve));
    client.stop();
    expect(client.answer()).toMatch(/^HTTP\/1\.1 200 /);
    const ms = performance.now() - client.started;
    expect(ms).toBeGreaterThan(1_500);
    expect(ms).toBeLessThan(6_000);
  });

  it('does not make a shutdown wait for a lingering connection', async () => {
    const own = await startServer();
    const client = endlessUpload(own.port);
    while (!client.answer().includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    const started = performance.now();
    await own.dispose();
    client.stop();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});

/** A client that asks for /health with a 1 GB body and goes on sending it, keeping its side open after the answer. */
function endlessUpload(port: number) {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  const started = performance.now();
  socket.write(`GET /health HTTP/1.1\r\nHost: quarry\r\nConnection: close\r\nContent-Length: 1000000000\r\n\r\n`);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
  socket.on('error', () => {});
  const sending = setInterval(() => socket.write(Buffer.alloc(1 << 20)), 50);
  return {
    socket,
    started,
    answer: () => answer,
    stop: () => {
      clearInterval(sending);
      socket.destroy();
    },
  };
}
