/**
 * Large settings over HTTP: how long each step holds the thread answering requests. Each build's
 * server (this one, and `--base` builds' main.js, alternated run by run) gets an index of 2,000
 * documents, then a PATCH of SYNONYMS synonyms (450,000 by default: a 9.7 MB body), its task (with
 * GET /tasks/{uid} asked every 250 ms meanwhile, as a client waiting for it does), a search, a
 * PATCH of RULES `field:asc` ranking rules (150,000 by default, all but two naming fields no
 * document has), its task and three searches, then three invalid bodies of the same sizes.
 * Meanwhile a second connection asks GET /health every 20 ms; each step prints its wall time and
 * the slowest /health answered during it, in ms, and a digest of its answer (dates and durations
 * and the uids of searches left out) so that builds can be compared byte for byte.
 *
 *   npm run build:ts && tsc -p bench/tsconfig.json && node dist/bench/large-settings-http.js [--synonyms N] [--rules N] [--runs N] [--base path/to/dist/src/main.js]...
 * `QUARRY_NODE_ARGS="--cpu-prof --cpu-prof-dir=…"` profiles the servers.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { numberOption } from './args.js';
import { call, startServer, stopServer, type Answer } from './http-server.js';

const args = process.argv.slice(2);
const SYNONYMS = numberOption(args, '--synonyms', 450_000);
const RULES = numberOption(args, '--rules', 150_000);
const RUNS = numberOption(args, '--runs', 1);
const servers = [fileURLToPath(new URL('../src/main.js', import.meta.url)), ...args.flatMap((arg, i) => (arg === '--base' ? [path.resolve(args[i + 1]!)] : []))];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** The answer without what differs run to run (dates, durations, uids of enqueued tasks stay). */
const digest = (body: string) =>
  createHash('sha256')
    .update(body.replace(/"(enqueuedAt|startedAt|finishedAt|duration|processingTimeMs|queryUid|requestUid)":("[^"]*"|null|\d+)/g, ''))
    .digest('hex')
    .slice(0, 12);

function synonymsBody(count: number, bad: boolean): string {
  const synonyms: Record<string, unknown> = {};
  for (let k = 0; k < count; k++) synonyms[`w${k}`] = [`s${k}`];
  if (bad) synonyms['zz'] = [1];
  return JSON.stringify({ synonyms });
}
function rulesBody(count: number, bad: boolean): string {
  const rankingRules = ['words', 'typo', 'year:desc', 'proximity', 'attribute', 'sort', 'exactness', 'title:asc'];
  for (let k = 0; k < count; k++) rankingRules.push(`missing${k}:${k % 2 === 0 ? 'asc' : 'desc'}`);
  if (bad) rankingRules.push('year:up');
  return JSON.stringify({ rankingRules });
}

interface Step {
  readonly name: string;
  readonly ms: number;
  readonly health: number;
  readonly digest: string;
  readonly extra?: string;
}

/** `send` timed while a second connection asks /health every 20 ms. */
async function held(url: string, send: () => Promise<Answer | string>): Promise<{ answer: string; ms: number; health: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let done = false;
  let health = 0;
  const pings = (async () => {
    while (!done) {
      const sent = performance.now();
      await call(agent, `${url}/health`, 'GET');
      health = Math.max(health, performance.now() - sent);
      await sleep(20);
    }
  })();
  const started = performance.now();
  const answer = await send().finally(() => (done = true));
  const ms = performance.now() - started;
  await pings;
  agent.destroy();
  return { answer: typeof answer === 'string' ? answer : `${answer.status} ${answer.body}`, ms, health };
}

async function scenario(server: string): Promise<Step[]> {
  const dbPath = mkdtempSync(path.join(tmpdir(), 'quarry-large-settings-'));
  const { child, url } = await startServer(server, dbPath, process.env.QUARRY_NODE_ARGS?.split(' ').filter(Boolean) ?? []);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const steps: Step[] = [];
  const taskOf = (answer: Answer) => (JSON.parse(answer.body) as { taskUid: number }).taskUid;
  /** Waits for task `uid`, asking GET /tasks/{uid} every 250 ms; the slowest of those asks. */
  const waitTask = async (uid: number) => {
    let slowest = 0;
    for (;;) {
      const sent = performance.now();
      const answer = await call(agent, `${url}/tasks/${uid}`, 'GET');
      slowest = Math.max(slowest, performance.now() - sent);
      const task = JSON.parse(answer.body) as { status: string };
      if (task.status === 'succeeded' || task.status === 'failed') return { answer: answer.body, slowest };
      await sleep(250);
    }
  };
  const step = async (name: string, send: () => Promise<Answer | string>, extra?: (answer: string) => string) => {
    const { answer, ms, health } = await held(url, send);
    steps.push({ name, ms, health, digest: digest(answer), extra: extra?.(answer) });
    return answer;
  };
  try {
    const docs = Array.from({ length: 2000 }, (_, id) => ({ id, title: `title ${id} word${id % 50} w${id}`, year: 1900 + (id % 120) }));
    const added = taskOf(await call(agent, `${url}/indexes/big/documents`, 'POST', JSON.stringify(docs)));
    await waitTask(added);

    const synonyms = synonymsBody(SYNONYMS, false);
    const patched = await step(`PATCH ${(synonyms.length / 1e6).toFixed(1)} MB synonyms`, () => call(agent, `${url}/indexes/big/settings`, 'PATCH', synonyms));
    const synonymsTask = (JSON.parse(patched.slice(4)) as { taskUid: number }).taskUid;
    let slowestPoll = 0;
    await step('  its task (polled)', async () => {
      const { answer, slowest } = await waitTask(synonymsTask);
      slowestPoll = slowest;
      return answer;
    }, () => `slowest GET /tasks/{uid} ${slowestPoll.toFixed(0)} ms`);
    await step('  GET /tasks/{uid}', () => call(agent, `${url}/tasks/${synonymsTask}`, 'GET'));
    await step('  search', () => call(agent, `${url}/indexes/big/search`, 'POST', JSON.stringify({ q: 'w7 word3' })));

    const rules = rulesBody(RULES, false);
    const rulesAnswer = await step(`PATCH ${RULES} ranking rules`, () => call(agent, `${url}/indexes/big/settings`, 'PATCH', rules));
    await step('  its task (polled)', async () => (await waitTask((JSON.parse(rulesAnswer.slice(4)) as { taskUid: number }).taskUid)).answer);
    for (const q of ['word3', '', 'title']) {
      await step(`  search q=${JSON.stringify(q)}`, () => call(agent, `${url}/indexes/big/search`, 'POST', JSON.stringify({ q, limit: 30 })));
    }
    await step('  search sort=year:asc', () => call(agent, `${url}/indexes/big/search`, 'POST', JSON.stringify({ q: 'word3', sort: ['year:asc'] })));

    const badSynonyms = synonymsBody(SYNONYMS, true);
    await step('PATCH invalid synonyms', () => call(agent, `${url}/indexes/big/settings`, 'PATCH', badSynonyms));
    const badRules = rulesBody(RULES, true);
    await step('PATCH invalid ranking rules', () => call(agent, `${url}/indexes/big/settings`, 'PATCH', badRules));
    await step('PATCH malformed JSON', () => call(agent, `${url}/indexes/big/settings`, 'PATCH', synonyms.slice(0, -2)));
    await step('GET /indexes/big/settings', () => call(agent, `${url}/indexes/big/settings`, 'GET'));
  } finally {
    agent.destroy();
    await stopServer(child);
    rmSync(dbPath, { recursive: true, force: true });
  }
  return steps;
}

for (let run = 0; run < RUNS; run++) {
  for (const server of servers) {
    const steps = await scenario(server);
    console.log(`\n${server} (run ${run + 1}): step, wall ms / slowest /health ms, digest`);
    for (const s of steps) console.log(`${s.name.padEnd(34)} ${s.ms.toFixed(0).padStart(7)} / ${s.health.toFixed(0).padStart(6)}  ${s.digest}${s.extra === undefined ? '' : `  ${s.extra}`}`);
  }
}
