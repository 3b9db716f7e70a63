/**
 * Meilisearch's `LocalMeili` (crates/meilisearch/tests/search/multi/proxy.rs): a loopback HTTP
 * proxy in front of a test server, as the network tests register their instances with each
 * other; it can delay, fail with a 500 once or always, replace the answer's body, or forward only
 * the Content-Type header. Like the Rust helper, it sends the answer back as JSON it parsed.
 */
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestServer } from './server.js';

export interface LocalMeiliParams {
  /** delay the response by this many milliseconds */
  delayMs?: number;
  fails?: 'never' | 'once' | 'always';
  /** replace the response body with this string */
  overrideResponseBody?: string;
  /** forward only `Content-Type: application/json`, not the request's headers */
  gobbleHeaders?: boolean;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'expect', 'upgrade']);

/** Meilisearch's `LocalMeili`: a loopback HTTP server forwarding every request to `server`; its url and how to close it. */
export async function localMeili(server: TestServer, params: LocalMeiliParams = {}): Promise<{ url: string; close(): Promise<void> }> {
  let failedAlready = false;
  const fail = (res: ServerResponse) => {
    res.writeHead(500, { 'content-type': params.overrideResponseBody === undefined ? 'application/json' : 'text/plain' });
    res.end(params.overrideResponseBody ?? JSON.stringify({ error: 'provoked error', code: 'test_error', link: 'https://docs.meilisearch.com/errors#test_error' }));
  };
  const handle = async (request: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    if (params.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, params.delayMs));
    if (params.fails === 'always' || (params.fails === 'once' && !failedAlready)) {
      failedAlready = true;
      return fail(res);
    }
    const headers: Record<string, string> = {};
    if (params.gobbleHeaders === true) headers['content-type'] = 'application/json';
    else for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name) && typeof value === 'string') headers[name] = value;
    const method = request.method ?? 'GET';
    const answer = await fetch(`${server.url}${request.url}`, { method, headers, body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks) });
    const text = await answer.text();
    if (params.overrideResponseBody !== undefined) {
      res.writeHead(answer.status, { 'content-type': 'text/plain' });
      res.end(params.overrideResponseBody);
      return;
    }
    // the Rust helper parses the answer into a `Value` and sends it back as JSON (`null` when empty)
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      json = text;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(json));
  };
  const proxy: HttpServer = createServer((request, res) => {
    handle(request, res).catch((error) => {
      res.writeHead(502);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}
