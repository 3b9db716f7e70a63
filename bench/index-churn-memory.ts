/**
 * Memory over index churn: one server creates an index (DOCS documents), searches it and deletes
 * it, CYCLES times, as a multi-tenant server dropping tenants or a reindex swapped in does all day.
 * Every EVERY cycles it prints the server's memory from /proc: RSS, its anonymous part (V8 heaps,
 * malloc arenas, WASM memories) and its file-backed part, the LMDB maps still mapped (and of those,
 * files already deleted), the threads and descriptors. Each build's server (this one, and `--base`
 * builds' main.js) runs in turn, run by run, so before and after share a window. `--tasks-deleted`
 * deletes the finished tasks every EVERY cycles, so that the task store's growth is left out.
 * The server inherits the environment: `MALLOC_ARENA_MAX=2` tells glibc arena fragmentation apart.
 * `--heaps` has the server write a diagnostic report (node --report-on-signal) at each sample and
 * prints each thread's V8 heap from it (used / committed MiB, external MiB): the main thread's and
 * its worker threads'. `--idle S` samples once more after S seconds without requests (idle pool
 * threads exit after 60 s: what they held goes with them). `--one-index` writes and searches one
 * index every cycle, never deleted (the same writes without the churn, to compare).
 *
 *   npm run bench:index-churn-memory -- [--cycles 500] [--every 50] [--docs 100] [--runs 1] [--tasks-deleted] [--heaps] [--idle S] [--one-index] [--base path/to/dist/src/main.js]...
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { call, startServer, stopServer, waitTask } from './http-server.js';

const args = process.argv.slice(2);
const CYCLES = numberOption(args, '--cycles', 500);
const EVERY = numberOption(args, '--every', 50);
const DOCS = numberOption(args, '--docs', 100);
const RUNS = numberOption(args, '--runs', 1);
const TASKS_DELETED = args.includes('--tasks-deleted');
const HEAPS = args.includes('--heaps');
const IDLE_S = numberOption(args, '--idle', 0);
const ONE_INDEX = args.includes('--one-index');
const servers = [fileURLToPath(new URL('../src/main.js', import.meta.url)), ...args.flatMap((arg, i) => (arg === '--base' ? [path.resolve(args[i + 1]!)] : []))];

interface Sample {
  readonly cycle: number;
  readonly rss: number;
  readonly anon: number;
  readonly malloc: number;
  readonly file: number;
  readonly lmdbMaps: number;
  readonly deletedMaps: number;
  readonly threads: number;
  readonly fds: number;
}

const MiB = (kb: number) => (kb / 1024).toFixed(1);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface ThreadHeap {
  readonly usedMemory: number;
  readonly totalCommittedMemory: number;
  readonly externalMemory: number;
}
interface Report {
  readonly javascriptHeap: ThreadHeap;
  readonly workers?: readonly Report[];
}

/** Each thread's V8 heap, from a diagnostic report the server writes into `dir` on SIGUSR2. */
async function heaps(pid: number, dir: string): Promise<string> {
  process.kill(pid, 'SIGUSR2');
  for (;;) {
    await sleep(100);
    const written = readdirSync(dir).find((name) => name.endsWith('.json'));
    if (written === undefined) continue;
    let report: Report;
    try {
      report = JSON.parse(readFileSync(path.join(dir, written), 'utf8')) as Report;
    } catch {
      continue; // still being written
    }
    unlinkSync(path.join(dir, written));
    const heap = ({ usedMemory, totalCommittedMemory, externalMemory }: ThreadHeap) =>
      `${(usedMemory / 2 ** 20).toFixed(1)}/${(totalCommittedMemory / 2 ** 20).toFixed(1)}+${(externalMemory / 2 ** 20).toFixed(1)}`;
    return `main ${heap(report.javascriptHeap)}  workers ${(report.workers ?? []).map((w) => heap(w.javascriptHeap)).join(' ')}`;
  }
}

/**
 * The process's memory from /proc/<pid>/smaps: resident kB, anonymous and file-backed, and of the
 * anonymous, glibc's malloc arenas (the main thread's brk heap, and the 64 MiB-aligned heaps of
 * other threads' arenas: a reserved tail follows their used part) apart from the rest (V8 heaps,
 * WASM memories, large mmap'd allocations); and its LMDB maps.
 */
function sample(pid: number, cycle: number): Sample {
  let rss = 0;
  let anon = 0;
  let malloc = 0;
  let lmdbMaps = 0;
  let deletedMaps = 0;
  const ARENA = 64 * 2 ** 20;
  // the mapping being read, and the end of the last one an arena's used part could be
  let current: { start: number; end: number; name: string; arena: boolean } | null = null;
  let unnamedEnd = -1;
  let unnamedAnon = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head !== null) {
      const [start, end, perms, name] = [parseInt(head[1]!, 16), parseInt(head[2]!, 16), head[3]!, head[4]!];
      // a reserved tail right after an unnamed 64 MiB-aligned mapping: that one was an arena's heap
      if (perms === '---p' && name === '' && current !== null && current.arena && start === unnamedEnd) malloc += unnamedAnon;
      current = { start, end, name, arena: name === '' && start % ARENA === 0 };
      if (name.includes('.mdb')) lmdbMaps++;
      if (name.includes('.mdb') && name.endsWith('(deleted)')) deletedMaps++;
    } else if (line.startsWith('Rss:')) rss += Number(line.split(/\s+/)[1]);
    else if (line.startsWith('Anonymous:') && current !== null) {
      const kb = Number(line.split(/\s+/)[1]);
      anon += kb;
      if (current.name === '[heap]') malloc += kb;
      if (current.arena) [unnamedEnd, unnamedAnon] = [current.end, kb];
    }
  }
  return { cycle, rss, anon, malloc, file: rss - anon, lmdbMaps, deletedMaps, threads: readdirSync(`/proc/${pid}/task`).length, fds: readdirSync(`/proc/${pid}/fd`).length };
}

async function churn(server: string): Promise<Sample[]> {
  const dbPath = mkdtempSync(path.join(tmpdir(), 'quarry-churn-'));
  const reports = path.join(dbPath, 'reports');
  mkdirSync(reports);
  const nodeArgs = [...(process.env.QUARRY_NODE_ARGS?.split(' ').filter(Boolean) ?? []), ...(HEAPS ? ['--report-on-signal', `--report-directory=${reports}`] : [])];
  const { child, url } = await startServer(server, path.join(dbPath, 'db'), nodeArgs);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const taskOf = (body: string) => (JSON.parse(body) as { taskUid: number }).taskUid;
  const samples: Sample[] = [sample(child.pid!, 0)];
  try {
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const uid = ONE_INDEX ? 'kept' : `churn${cycle}`;
      const docs = Array.from({ length: DOCS }, (_, id) => ({ id, title: `document ${id} of cycle ${cycle}`, body: `word${id % 17} text${cycle % 13} more words here`, n: id }));
      await waitTask(agent, url, taskOf((await call(agent, `${url}/indexes/${uid}/documents`, 'POST', JSON.stringify(docs))).body));
      const found = await call(agent, `${url}/indexes/${uid}/search`, 'POST', JSON.stringify({ q: 'document word3', limit: 5 }));
      if (found.status !== 200) throw new Error(`search: ${found.status} ${found.body}`);
      if (!ONE_INDEX) await waitTask(agent, url, taskOf((await call(agent, `${url}/indexes/${uid}`, 'DELETE')).body));
      if (cycle % EVERY === 0) {
        if (TASKS_DELETED) await waitTask(agent, url, taskOf((await call(agent, `${url}/tasks?statuses=succeeded,failed`, 'DELETE')).body));
        const s = sample(child.pid!, cycle);
        samples.push(s);
        console.log(`  ${String(cycle).padStart(5)}  rss ${MiB(s.rss)}  anon ${MiB(s.anon)} (malloc ${MiB(s.malloc)})  file ${MiB(s.file)}  lmdb maps ${s.lmdbMaps} (${s.deletedMaps} deleted)  threads ${s.threads}  fds ${s.fds}`);
        if (HEAPS) console.log(`         heaps (used/committed+external MiB): ${await heaps(child.pid!, reports)}`);
      }
    }
    if (IDLE_S > 0) {
      await sleep(IDLE_S * 1000);
      const s = sample(child.pid!, CYCLES);
      console.log(`  idle ${IDLE_S} s: rss ${MiB(s.rss)}  anon ${MiB(s.anon)} (malloc ${MiB(s.malloc)})  file ${MiB(s.file)}  threads ${s.threads}`);
      if (HEAPS) console.log(`         heaps (used/committed+external MiB): ${await heaps(child.pid!, reports)}`);
    }
  } finally {
    agent.destroy();
    await stopServer(child);
    rmSync(dbPath, { recursive: true, force: true });
  }
  return samples;
}

for (let run = 1; run <= RUNS; run++) {
  for (const server of servers) {
    console.log(`run ${run}: ${server}`);
    const samples = await churn(server);
    const first = samples.find((s) => s.cycle >= EVERY) ?? samples[0]!;
    const last = samples[samples.length - 1]!;
    const perCycle = (kb: number) => (kb / Math.max(1, last.cycle - first.cycle)).toFixed(0);
    console.log(`  cycles ${first.cycle} -> ${last.cycle}: rss ${MiB(first.rss)} -> ${MiB(last.rss)} MiB (${perCycle(last.rss - first.rss)} KiB a cycle), anon ${MiB(first.anon)} -> ${MiB(last.anon)} (malloc ${MiB(first.malloc)} -> ${MiB(last.malloc)}), file ${MiB(first.file)} -> ${MiB(last.file)}`);
  }
}
