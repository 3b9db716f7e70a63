// The browser benchmark's page (bench/browser/run.ts serves it and drives it in Chromium): the
// same movies in Quarry (its bundle, over fetch), MiniSearch and Orama (the documents as JSON,
// indexed in the page), each engine in turn in this page. Per engine: time to its first result
// from the start of its load, then every query of movies.queries.json typed letter by letter,
// one search per keystroke, timed. The figures land in `window.benchResult`.
import { openBundle } from './quarry.js';
import MiniSearch from './minisearch.js';
import { create, insertMultiple, search as oramaSearch } from './orama/index.js';

const log = (line) => {
  document.getElementById('log').textContent += `\n${line}`;
  console.log(line);
};

/** Each prefix of each query, as typed: `m`, `ma`, `mat`… (empty queries left out). */
function keystrokes(queries) {
  const typed = [];
  for (const { q } of queries) for (let end = 1; end <= q.length; end++) typed.push(q.slice(0, end));
  return typed;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times `search` once per keystroke (after one untimed pass over the first queries' keystrokes). */
async function perKeystroke(typed, search) {
  for (const text of typed.slice(0, 100)) await search(text);
  const times = [];
  for (const text of typed) {
    const started = performance.now();
    await search(text);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((sum, t) => sum + t, 0) / times.length;
  return { p50: percentile(times, 50), p99: percentile(times, 99), max: times.at(-1), mean, samples: times.length };
}

async function fetchJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  return response.json();
}

const DEMO_PARAMS = {
  facets: ['genres'],
  attributesToHighlight: ['title', 'overview'],
  attributesToCrop: ['overview'],
  cropLength: 28,
  showRankingScore: true,
};

async function run() {
  const queries = await fetchJson('movies.queries.json');
  const typed = keystrokes(queries.filter((query) => query.q !== ''));
  const result = { keystrokes: typed.length, engines: [] };

  // Quarry: fetch the bundle and the kernels, open, search
  let started = performance.now();
  const quarry = await openBundle(new URL('movies.bundle', location.href));
  await quarry.search('matrix');
  const quarryFirst = performance.now() - started;
  log(`Quarry: first result after ${quarryFirst.toFixed(0)} ms`);
  result.engines.push({ name: 'Quarry', firstResultMs: quarryFirst, keystroke: await perKeystroke(typed, (q) => quarry.search(q)) });
  log('Quarry keystrokes done');
  result.engines.push({ name: 'Quarry, as the demo asks (genre facet, highlight, crop, score)', firstResultMs: null, keystroke: await perKeystroke(typed, (q) => quarry.search(q, DEMO_PARAMS)) });

  // MiniSearch: fetch the documents, index them, search (prefix and fuzzy 0.2, as bench/peers)
  started = performance.now();
  let docs = await fetchJson('movies.json');
  const mini = new MiniSearch({ fields: ['title', 'overview'], storeFields: ['title', 'year', 'genres'], idField: 'id' });
  mini.addAll(docs);
  mini.search('matrix', { prefix: true, fuzzy: 0.2 }).slice(0, 20);
  const miniFirst = performance.now() - started;
  log(`MiniSearch: first result after ${miniFirst.toFixed(0)} ms`);
  result.engines.push({ name: 'MiniSearch', firstResultMs: miniFirst, keystroke: await perKeystroke(typed, (q) => mini.search(q, { prefix: true, fuzzy: 0.2 }).slice(0, 20)) });

  // Orama: fetch the documents, insert them, search (tolerance 1, limit 20, as bench/peers)
  started = performance.now();
  docs = await fetchJson('movies.json');
  const db = create({ schema: { title: 'string', overview: 'string', genres: 'enum[]', year: 'number' } });
  await insertMultiple(db, docs.map(({ id, ...rest }) => ({ ...rest, id: String(id) })), 1000);
  await oramaSearch(db, { term: 'matrix', properties: ['title', 'overview'], tolerance: 1, limit: 20 });
  const oramaFirst = performance.now() - started;
  log(`Orama: first result after ${oramaFirst.toFixed(0)} ms`);
  result.engines.push({
    name: 'Orama',
    firstResultMs: oramaFirst,
    keystroke: await perKeystroke(typed, (q) => oramaSearch(db, { term: q, properties: ['title', 'overview'], tolerance: 1, limit: 20 })),
  });
  window.benchResult = result;
  log('done');
}

run().catch((error) => {
  window.benchResult = { error: String(error?.stack ?? error) };
  log(String(error?.stack ?? error));
});
