/**
 * The site the InstantSearch end-to-end tests load in Chromium: test/e2e/instantsearch/index.html
 * (its widgets' containers and the import map) at `/`, the test's own `app` script at `/app.js`,
 * and instantsearch.js, meilisearch and @meilisearch/instant-meilisearch straight from
 * node_modules, on a free loopback port (another origin than Quarry's: calls are CORS requests).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

const ROOT = new URL('../../', import.meta.url);

export interface InstantSearchSite {
  readonly url: string;
  close(): void;
}

/** Serves the InstantSearch page with `app` (a file URL) as its script. */
export function serveInstantSearch(app: URL): Promise<InstantSearchSite> {
  const files: Record<string, { url: URL; type: string }> = {
    '/': { url: new URL('test/e2e/instantsearch/index.html', ROOT), type: 'text/html' },
    '/app.js': { url: app, type: 'text/javascript' },
    '/vendor/instantsearch.js': { url: new URL('node_modules/instantsearch.js/dist/instantsearch.production.min.js', ROOT), type: 'text/javascript' },
    '/vendor/meilisearch.js': { url: new URL('node_modules/meilisearch/dist/index.js', ROOT), type: 'text/javascript' },
    '/vendor/instant-meilisearch.js': { url: new URL('node_modules/@meilisearch/instant-meilisearch/dist/index.js', ROOT), type: 'text/javascript' },
  };
  const server: Server = createServer(async (request, response) => {
    const file = files[new URL(request.url ?? '/', 'http://site').pathname];
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': file.type }).end(await readFile(file.url));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() })),
  );
}
