/**
 * Soak (issue 25, item 4): 64 search clients on the movies index (words, filters, facets, sort)
 * while 250k debdocs documents are ingested into a second index. Prints errors, search p50/p99
 * before (idle), during and after the ingestion, ingestion time and rate, and the server's peak
 * RSS; exits 1 on any error, any lost document, or a p99 during ingestion above 3× the idle one.
 *
 *   npm run soak
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDataset, type Dataset } from './datasets.js';
import { fmt, percentile } from './latency.js';
import { peakRss, startQuarry } from './peers/quarry-http.js';
import { startSearchLoad, type PhaseLog } from './soak-clients.js';

const CLIENTS = 64;
const DEBDOCS = 250_000;
const WARM_UP_MS = 5_000;
const PHASE_MS = 20_000;
const MAX_P99_RATIO = 3;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () => os.loadavg().map((l) => fmt(l, 2)).join(' ');
const begun = performance.now();
/** A progress line, for a run that takes minutes on a loaded machine. */
const step = (text: string) => console.log(`[${fmt((performance.now() - begun) / 1000, 0)} s] ${text} (load average ${load()})`);

/** The movies queries as search bodies, a third with facets and a quarter sorted, besides their own filters. */
function searchBodies(movies: Dataset): string[] {
  return movies.queries.map((query, i) =>
    JSON.stringify({
      q: query.q,
      limit: 20,
      ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }),
      ...(i % 3 === 0 ? { facets: ['genres', 'year'] } : {}),
      ...(i % 4 === 1 ? { sort: ['release_date:desc'] } : {}),
    }),
  );
}

async function main(): Promise<void> {
  const movies = loadDataset('movies');
  const debdocs = loadDataset('debdocs', DEBDOCS);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-soak-'));
  const { child, url } = await startQuarry(path.join(dir, 'db'));
  const call = async (method: string, route: string, body?: string, type = 'application/json') =>
    (await (await fetch(url + route, { method, headers: body === undefined ? {} : { 'content-type': type }, body })).json()) as Record<string, any>;
  const settle = async (uid: number) => {
    for (;;) {
      const task = await call('GET', `/tasks/${uid}`);
      if (task.status === 'succeeded') return;
      if (task.status !== 'enqueued' && task.status !== 'processing') throw new Error(`task ${uid} ${task.status}: ${JSON.stringify(task.error)}`);
      await sleep(100);
    }
  };
  const ingest = async (dataset: Dataset) => {
    await call('PATCH', `/indexes/${dataset.name}/settings`, JSON.stringify({ searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable }));
    let last = -1;
    for (const chunk of dataset.ndjson) last = (await call('POST', `/indexes/${dataset.name}/documents?primaryKey=id`, chunk, 'application/x-ndjson')).taskUid;
    await settle(last);
  };
  const failures: string[] = [];
  try {
    console.log(`# soak: ${CLIENTS} search clients on movies (${movies.docs.length} docs), ${debdocs.docs.length} debdocs ingested; ${os.cpus().length} cpus, load average ${load()}`);
    await ingest(movies);
    step('movies indexed; search clients start');
    const searches = startSearchLoad(`${url}/indexes/movies/search`, searchBodies(movies), CLIENTS, 'warm-up');
    await sleep(WARM_UP_MS);
    searches.phase('idle');
    step('idle phase');
    await sleep(PHASE_MS);
    searches.phase('during ingestion');
    step('debdocs ingestion');
    const started = performance.now();
    await ingest(debdocs);
    const ingestMs = performance.now() - started;
    searches.phase('after');
    step('after phase');
    await sleep(PHASE_MS);
    await searches.stop();

    console.log(`ingestion: ${debdocs.docs.length} docs in ${fmt(ingestMs / 1000, 1)} s, ${fmt(debdocs.docs.length / (ingestMs / 1000), 0)} docs/s`);
    console.log('| phase | searches | errors | p50 ms | p99 ms |');
    console.log('|---|---|---|---|---|');
    const p99: Record<string, number> = {};
    for (const name of ['idle', 'during ingestion', 'after']) {
      const log: PhaseLog = searches.log(name);
      const sorted = log.latencies.sort((a, b) => a - b);
      p99[name] = percentile(sorted, 99);
      console.log(`| ${name} | ${sorted.length} | ${log.errors} | ${fmt(percentile(sorted, 50))} | ${fmt(p99[name])} |`);
      if (log.errors > 0) failures.push(`${log.errors} search errors ${name}, the first: ${log.firstError}`);
    }
    console.log(`server peak RSS: ${fmt((peakRss(child.pid!) ?? 0) / 2 ** 20, 0)} MiB; load average at the end ${load()}`);
    if (p99['during ingestion']! > MAX_P99_RATIO * p99.idle!) failures.push(`p99 during ingestion ${fmt(p99['during ingestion']!)} ms > ${MAX_P99_RATIO} × idle ${fmt(p99.idle!)} ms`);
    for (const dataset of [movies, debdocs]) {
      const stored = (await call('GET', `/indexes/${dataset.name}/stats`)).numberOfDocuments as number;
      if (stored !== dataset.docs.length) failures.push(`${dataset.name}: ${stored} documents stored of ${dataset.docs.length}`);
    }
  } finally {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
  for (const failure of failures) console.log(`FAIL ${failure}`);
  if (failures.length > 0) process.exitCode = 1;
}

await main();
