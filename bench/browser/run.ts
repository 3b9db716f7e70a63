/**
 * `npm run bench:browser`: Quarry's browser build against MiniSearch and Orama in one Chromium
 * page (bench/browser/page.js) over the same movies: time to first result after load, and the
 * search time of every keystroke of movies.queries.json typed letter by letter (p50, p99), then
 * the sizes: the bundle and the browser build against the raw data, plain and gzipped. Prints
 * the tables bench/RESULTS.md holds. Builds the movies bundle first if dist/demo has none.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { launchChromium } from '../../test/helpers/browser.js';
import { buildMoviesBundle, readMovies } from '../../demo/movies-bundle.js';
import { MOVIES_BUNDLE, ROOT } from '../../demo/serve.js';
import { serveFiles } from '../../demo/static-server.js';

const require = createRequire(import.meta.url);
const MOVIES_JSON = path.join(ROOT, 'dist/demo/movies.json');
const DATASET = path.join(ROOT, '../shared/datasets/movies.json.gz');

interface EngineResult {
  name: string;
  firstResultMs: number | null;
  keystroke: { p50: number; p99: number; max: number; mean: number; samples: number };
}

/** Every file under `dir` as URL paths under `prefix`. */
function tree(dir: string, prefix: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, tree(file, `${prefix}${entry.name}/`));
    else if (entry.name.endsWith('.js')) files[`${prefix}${entry.name}`] = file;
  }
  return files;
}

function sizes(file: string): { raw: number; gzip: number } {
  const bytes = readFileSync(file);
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

async function main(): Promise<void> {
  mkdirSync(path.dirname(MOVIES_BUNDLE), { recursive: true });
  if (!existsSync(MOVIES_BUNDLE)) await buildMoviesBundle(MOVIES_BUNDLE);
  writeFileSync(MOVIES_JSON, JSON.stringify(readMovies()));
  const oramaDir = path.join(path.dirname(require.resolve('@orama/orama/package.json')), 'dist/browser');
  const server = await serveFiles({
    '/': path.join(ROOT, 'bench/browser/page.html'),
    '/page.js': path.join(ROOT, 'bench/browser/page.js'),
    '/quarry.js': path.join(ROOT, 'dist/browser/quarry.js'),
    '/kernels.release.wasm': path.join(ROOT, 'dist/browser/kernels.release.wasm'),
    '/movies.bundle': MOVIES_BUNDLE,
    '/movies.json': MOVIES_JSON,
    '/movies.queries.json': path.join(ROOT, '../shared/datasets/movies.queries.json'),
    // its ES build (require.resolve gives the CommonJS one: dist/cjs/index.cjs)
    '/minisearch.js': path.resolve(path.dirname(require.resolve('minisearch')), '../es/index.js'),
    ...tree(oramaDir, '/orama/'),
  });
  const browser = await launchChromium(['--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update']);
  let result: { keystrokes: number; engines: EngineResult[]; error?: string };
  try {
    const page = await browser.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    page.on('console', (message) => (message.type() === 'error' ? console.error(`console: ${message.text()}`) : console.log(`page: ${message.text()}`)));
    await page.goto(server.url);
    await page.waitForFunction('window.benchResult !== undefined', undefined, { timeout: 20 * 60_000, polling: 500 });
    result = (await page.evaluate('window.benchResult')) as typeof result;
  } finally {
    await browser.close();
    await server.close();
  }
  if (result.error !== undefined) throw new Error(result.error);

  console.log(`\nPer keystroke over movies (${result.keystrokes} keystrokes of movies.queries.json, typed letter by letter), Chromium ${browser.version()}:\n`);
  console.log('| engine | first result after load (ms) | p50 ms | p99 ms | max ms | mean ms |');
  console.log('|---|---|---|---|---|---|');
  for (const engine of result.engines) {
    const k = engine.keystroke;
    console.log(`| ${engine.name} | ${engine.firstResultMs === null ? '—' : engine.firstResultMs.toFixed(0)} | ${ms(k.p50)} | ${ms(k.p99)} | ${ms(k.max)} | ${ms(k.mean)} |`);
  }
  const rows: [string, string][] = [
    ['movies bundle (dist/demo/movies.bundle)', MOVIES_BUNDLE],
    ['the same movies as JSON (id, title, overview, genres, year)', MOVIES_JSON],
    ['browser build (dist/browser/quarry.js)', path.join(ROOT, 'dist/browser/quarry.js')],
    ['kernels (kernels.release.wasm)', path.join(ROOT, 'dist/browser/kernels.release.wasm')],
  ];
  console.log('\n| file | raw | gzip -9 |');
  console.log('|---|---|---|');
  for (const [name, file] of rows) {
    const size = sizes(file);
    const format = size.raw > 2 ** 20 ? mib : kib;
    console.log(`| ${name} | ${format(size.raw)} | ${format(size.gzip)} |`);
  }
  console.log(`| the dataset file (movies.json.gz, every field) | — | ${mib(statSync(DATASET).size)} |`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
