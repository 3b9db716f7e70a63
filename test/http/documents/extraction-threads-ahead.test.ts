// A documents request declaring a payload large enough for the extraction threads starts them as
// its upload begins, before any task or write (src/tasks/scheduler.ts `expectDocuments`); a small
// one starts none. Seen from outside as the server process's thread count (Linux's /proc).
import { readdirSync } from 'node:fs';
import { request, type ClientRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
const open: ClientRequest[] = [];

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  for (const req of open) req.destroy();
  await server?.dispose();
});

const threads = () => readdirSync(`/proc/${server.process.pid}/task`).length;

/** Starts an NDJSON upload declaring `bytes` and sends only its first line, leaving it open. */
function startUpload(bytes: number): void {
  const req = request(`${server.url}/indexes/movies/documents?primaryKey=id`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-ndjson', 'content-length': String(bytes) },
  });
  req.on('error', () => undefined);
  req.write('{"id":1,"title":"the first line of a longer payload"}\n');
  open.push(req);
}

async function settled(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 500));
  return threads();
}

async function grownPast(count: number, timeoutMs: number): Promise<number> {
  const until = Date.now() + timeoutMs;
  while (threads() <= count && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 25));
  return threads();
}

describe('extraction threads started by a documents upload', () => {
  it('start none for a small declared payload, and start as a large one begins uploading, before its task', async () => {
    // the small upload's request handling (its update file) starts whatever any upload starts;
    // were it to start the extraction threads too, the large one below would find them up and
    // grow the count no further, failing this test
    startUpload(200 * 1024);
    const afterSmall = await settled();
    expect(await settled()).toBe(afterSmall);

    startUpload(8 * 1024 * 1024);
    expect(await grownPast(afterSmall, 10_000)).toBeGreaterThan(afterSmall);
    // neither upload finished: no task exists, so no write started the threads
    const tasks = (await (await fetch(`${server.url}/tasks`)).json()) as { total: number };
    expect(tasks.total).toBe(0);
  });
});
