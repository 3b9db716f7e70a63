/**
 * Search as you type: what an InstantSearch box sends, one search per keystroke. Phrases are the
 * dataset's multi-word queries and the first four words of a text field of every n-th document;
 * each keystroke prefix of each phrase is a query (none ending in a space). A frequent word and a
 * one-letter prefix (`the b`) puts most of a big index in one candidate group, the costliest
 * searches of the set. Each engine indexes the dataset untimed, then answers every keystroke
 * twice: a first pass over cold caches, and a second, timed the same way, as a user's session
 * would repeat them. Engines: Quarry over HTTP (its server process), SQLite FTS5 (prefix on the
 * last word), in the same run.
 *
 *   npm run bench:typing -- [movies|debdocs] [--engines quarry,sqlite] [--phrases N] [--limit N]
 */
import { numberOption } from './args.js';
import { loadDataset, type Dataset, type Doc } from './datasets.js';
import { fmt, percentile } from './latency.js';
import type { Engine } from './peers/engine.js';
import { quarryHttp } from './peers/quarry-http.js';
import { sqliteFts5 } from './peers/sqlite-fts5.js';

const ENGINES: Record<string, () => Engine> = {
  quarry: () => quarryHttp(),
  sqlite: () => sqliteFts5(),
};

const args = process.argv.slice(2);
const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
const phraseCount = numberOption(args, '--phrases', 150);
const limit = numberOption(args, '--limit', Number.POSITIVE_INFINITY);
const enginesAt = args.indexOf('--engines');
const engineNames = enginesAt >= 0 ? args[enginesAt + 1]!.split(',') : ['quarry', 'sqlite'];

/** The text a phrase is taken from: the first field of these a document has. */
const PHRASE_FIELDS: Record<Dataset['name'], string[]> = { movies: ['overview', 'title'], debdocs: ['summary', 'heading', 'title'] };

/** The dataset's multi-word queries, then the first four words of documents spread over the set. */
function phrasesOf(dataset: Dataset, count: number): string[] {
  const phrases = dataset.queries.map((query) => query.q.toLowerCase()).filter((q) => q.includes(' '));
  const stride = Math.max(1, Math.floor(dataset.docs.length / count));
  for (let at = 0; at < dataset.docs.length && phrases.length < count; at += stride) {
    const doc: Doc = dataset.docs[at]!;
    const text = PHRASE_FIELDS[dataset.name].map((field) => doc[field]).find((value) => typeof value === 'string' && value.length > 0);
    const words = typeof text === 'string' ? text.toLowerCase().split(/\s+/).slice(0, 4).join(' ') : '';
    if (words.length > 3) phrases.push(words);
  }
  return phrases.slice(0, count);
}

/** Every keystroke of `phrases`: each prefix, but those ending in a space. */
function keystrokes(phrases: readonly string[]): string[] {
  const out: string[] = [];
  for (const phrase of phrases) for (let k = 1; k <= phrase.length; k++) if (phrase[k - 1] !== ' ') out.push(phrase.slice(0, k));
  return out;
}

interface Pass {
  p50: number;
  p90: number;
  p99: number;
  max: number;
  slowest: string;
}

async function pass(engine: Engine, queries: readonly string[]): Promise<Pass> {
  const times: [number, string][] = [];
  for (const [id, q] of queries.entries()) {
    const started = performance.now();
    await engine.search({ id, type: 'typing', q });
    times.push([performance.now() - started, q]);
  }
  const sorted = times.map(([t]) => t).sort((a, b) => a - b);
  const slowest = [...times].sort((a, b) => b[0] - a[0]).slice(0, 5).map(([t, q]) => `${JSON.stringify(q)} ${fmt(t, 0)}`).join(', ');
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1]!, slowest };
}

const dataset = loadDataset(name, limit);
const queries = keystrokes(phrasesOf(dataset, phraseCount));
console.log(`# as you type, ${name}: ${dataset.docs.length} documents, ${queries.length} keystrokes of ${phraseCount} phrases`);
console.log('| engine | pass | p50 ms | p90 ms | p99 ms | max ms | slowest |');
console.log('|---|---|---|---|---|---|---|');
for (const engineName of engineNames) {
  const make = ENGINES[engineName];
  if (make === undefined) throw new Error(`unknown engine ${engineName}: ${Object.keys(ENGINES).join(', ')}`);
  const engine = make();
  await engine.prepare?.(dataset);
  await engine.index(dataset);
  for (const label of ['first', 'second']) {
    const { p50, p90, p99, max, slowest } = await pass(engine, queries);
    console.log(`| ${engine.name} | ${label} | ${fmt(p50)} | ${fmt(p90)} | ${fmt(p99)} | ${fmt(max, 1)} | ${slowest} |`);
  }
  await engine.close();
}
