/**
 * A small static file server for the browser demo and the browser benchmark: a fixed table of URL
 * paths to files, nothing else (no directory listing, no path from the request ever reaches the
 * file system). Files are read once and kept, gzipped once for clients that accept it, as a
 * static host would serve them; loopback only.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};

export interface StaticServer {
  readonly url: string;
  close(): Promise<void>;
}

interface Served {
  readonly type: string;
  readonly raw: Buffer;
  gzipped?: Buffer;
}

/** Serves `files` (URL path → file) on 127.0.0.1:`port` (0: any free port). */
export async function serveFiles(files: Readonly<Record<string, string>>, port = 0): Promise<StaticServer> {
  const cache = new Map<string, Served>();
  const load = (urlPath: string): Served | undefined => {
    const file = files[urlPath];
    if (file === undefined) return undefined;
    let served = cache.get(urlPath);
    if (served === undefined) {
      served = { type: TYPES[path.extname(file)] ?? 'application/octet-stream', raw: readFileSync(file) };
      cache.set(urlPath, served);
    }
    return served;
  };
  const server: Server = createServer((request, response) => {
    const urlPath = new URL(request.url ?? '/', 'http://localhost').pathname;
    let served: Served | undefined;
    try {
      served = request.method === 'GET' || request.method === 'HEAD' ? load(urlPath) : undefined;
    } catch (error) {
      response.writeHead(500, { 'content-type': 'text/plain' }).end(`cannot read ${urlPath}: ${(error as Error).message}`);
      return;
    }
    if (served === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const gzip = /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')) && served.type !== 'image/png';
    const body = gzip ? (served.gzipped ??= gzipSync(served.raw)) : served.raw;
    response.writeHead(200, {
      'content-type': served.type,
      'content-length': body.length,
      'cache-control': 'no-cache',
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${bound}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
