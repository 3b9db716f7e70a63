/**
 * `npm run demo`: builds the movies bundle once (dist/demo/movies.bundle; `--rebuild` makes it
 * again) and serves the demo page, the browser build (dist/browser/) and the bundle on a loopback
 * port (`--port N`, else 8780), printing the URL. Ctrl-C stops it.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildMoviesBundle } from './movies-bundle.js';
import { serveFiles } from './static-server.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The checkout's root, from demo/ or from dist/demo/. */
export const ROOT = path.basename(path.dirname(HERE)) === 'dist' ? path.resolve(HERE, '../..') : path.resolve(HERE, '..');
export const MOVIES_BUNDLE = path.join(ROOT, 'dist/demo/movies.bundle');

/** The demo's URL paths: the page from demo/, quarry.js and the kernels from dist/browser/, the bundle. */
export function demoFiles(bundle: string, browserDir = path.join(ROOT, 'dist/browser')): Record<string, string> {
  const demo = (file: string) => path.join(ROOT, 'demo', file);
  const browser = (file: string) => path.join(browserDir, file);
  return {
    '/': demo('index.html'),
    '/index.html': demo('index.html'),
    '/app.js': demo('app.js'),
    '/style.css': demo('style.css'),
    '/quarry.js': browser('quarry.js'),
    '/quarry.js.map': browser('quarry.js.map'),
    '/kernels.release.wasm': browser('kernels.release.wasm'),
    '/movies.bundle': bundle,
  };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const portAt = args.indexOf('--port');
  const port = portAt >= 0 ? Number(args[portAt + 1]) : 8780;
  if (!existsSync(path.join(ROOT, 'dist/browser/quarry.js'))) throw new Error('dist/browser/quarry.js is missing: run `npm run build:browser`');
  if (args.includes('--rebuild') || !existsSync(MOVIES_BUNDLE)) {
    mkdirSync(path.dirname(MOVIES_BUNDLE), { recursive: true });
    const started = performance.now();
    console.log('Indexing the 36,273 movies and exporting their bundle…');
    await buildMoviesBundle(MOVIES_BUNDLE);
    console.log(`Bundle ready in ${((performance.now() - started) / 1000).toFixed(1)} s: ${MOVIES_BUNDLE}`);
  }
  console.log(`Bundle: ${(statSync(MOVIES_BUNDLE).size / 2 ** 20).toFixed(1)} MiB`);
  const server = await serveFiles(demoFiles(MOVIES_BUNDLE), port);
  console.log(`Quarry in the browser: open ${server.url}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
