/**
 * The crash harness: random writes (operations.ts) against a real server that is killed with
 * SIGKILL at random moments and restarted on the same db path. After every restart each
 * acknowledged task (every 202) must be listed as it was acknowledged and the stores must answer;
 * at the end every task must finish, and the tasks' outcomes, documents and searches must equal
 * those of an uninterrupted server sent the same enqueued requests in uid order (snapshot.ts).
 * A request cut off by a kill may or may not have been enqueued; requests go one at a time, so
 * such a task is one of the cut-off requests sent after the last acknowledged task below it.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { call, waitTask } from '../helpers/api.js';
import { mulberry32 } from '../helpers/random.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { randomOp, SETUP, type Op } from './operations.js';
import { send } from './send.js';
import { differences, indexStates, taskOutcomes } from './snapshot.js';

export interface CrashReport {
  seed: number;
  kills: number;
  requests: number;
  acknowledged: number;
  tasks: number;
  /** Acknowledged tasks missing or changed after a restart. */
  lostTasks: string[];
  /** Restarts whose stores did not open or answer. */
  corruptedStores: string[];
  /** Where the crashed run ended otherwise than the uninterrupted one. */
  differences: string[];
  ms: number;
}

/** A request the harness sent, and the 202 it got (undefined: the kill cut the answer off). */
interface Sent {
  op: Op;
  summary?: { taskUid: number; indexUid: string | null; type: string; enqueuedAt: string };
}

const OPS_PER_ROUND = 25;
const KILL_WITHIN_MS = 1000;
const SETTLE_MS = 300_000;

/** Turns on the experimental features the operations need (not a task: done on every new server). */
async function prepare(server: TestServer): Promise<void> {
  const reply = await call(server, 'PATCH', '/experimental-features', { editDocumentsByFunction: true });
  if (reply.status !== 200) throw new Error(`experimental features: ${reply.text}`);
}

async function enqueue(server: TestServer, op: Op): Promise<Sent['summary']> {
  const reply = await send(server.url, op.method, op.route, op.body, op.contentType);
  if (reply.status !== 202) throw new Error(`${op.method} ${op.route} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** Restarts on the db path; a server that cannot start is a corrupted store, and ends the run. */
async function restart(dbPath: string, report: CrashReport): Promise<TestServer> {
  try {
    return await startServer({ dbPath });
  } catch (err) {
    report.corruptedStores.push(`restart after kill ${report.kills}: ${(err as Error).message}`);
    throw err;
  }
}

/**
 * After a restart: every acknowledged task is listed with the type and enqueue date of its 202 (not
 * its index uid: a swap relabels older tasks), and the stores answer.
 */
async function checkRestart(server: TestServer, sent: Sent[], report: CrashReport): Promise<void> {
  const tasks = await call(server, 'GET', '/tasks?limit=1000000');
  const listed = new Map<number, any>((tasks.body?.results ?? []).map((task: any) => [task.uid, task]));
  for (const { summary } of sent) {
    if (summary === undefined) continue;
    const task = listed.get(summary.taskUid);
    if (task?.type !== summary.type || task.enqueuedAt !== summary.enqueuedAt) {
      report.lostTasks.push(`after kill ${report.kills}: task ${summary.taskUid} (${summary.type}) is ${task === undefined ? 'missing' : JSON.stringify(task)}`);
    }
  }
  for (const route of ['/tasks?limit=1', '/batches?limit=1', '/indexes', '/indexes/rk/stats', '/indexes/rk2/stats', '/stats']) {
    const reply = await call(server, 'GET', route);
    if (reply.status !== 200) report.corruptedStores.push(`after kill ${report.kills}: GET ${route} answered ${reply.status} ${reply.text}`);
  }
}

/** One round: random requests, one at a time, until the kill at a random moment. */
async function round(server: TestServer, pick: (n: number) => number, sent: Sent[]): Promise<void> {
  let killed = false;
  const killer = setTimeout(() => {
    killed = true;
    void server.kill();
  }, pick(KILL_WITHIN_MS));
  for (let k = 0; k < OPS_PER_ROUND && !killed; k++) {
    const request: Sent = { op: randomOp(pick) };
    sent.push(request);
    try {
      request.summary = await enqueue(server, request.op);
    } catch (err) {
      if (!killed) throw err;
    }
  }
  clearTimeout(killer);
  await server.kill();
}

/**
 * The enqueued requests in uid order: the acknowledged ones, and those whose 202 a kill cut off.
 * Each round ends at its cut-off request, and a round may start with one, so between two
 * acknowledged tasks lie the cut-off requests sent between them, some enqueued, in send order.
 */
function enqueuedOps(tasks: any[], sent: Sent[], report: CrashReport): Op[] {
  const ackedAt = new Map<number, number>();
  sent.forEach(({ summary }, i) => summary !== undefined && ackedAt.set(summary.taskUid, i));
  const ops: Op[] = [];
  let next = 0;
  for (const task of tasks) {
    let at = ackedAt.get(task.uid);
    for (let i = next; at === undefined && i < sent.length && sent[i]!.summary === undefined; i++) {
      const { op } = sent[i]!;
      if (op.type === task.type && (op.documents === undefined || op.documents === task.details?.receivedDocuments)) at = i;
    }
    if (at === undefined) {
      report.differences.push(`task ${task.uid} (${task.type}) matches none of the requests cut off after request ${next - 1}`);
      continue;
    }
    ops.push(sent[at]!.op);
    next = at + 1;
  }
  return ops;
}

/** Waits until no task is enqueued or processing (a dump runs before older index tasks). */
async function settle(server: TestServer): Promise<any[]> {
  const deadline = Date.now() + SETTLE_MS;
  while ((await call(server, 'GET', '/tasks?statuses=enqueued,processing&limit=0')).body.total > 0) {
    if (Date.now() > deadline) throw new Error(`tasks still unfinished after ${SETTLE_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return taskOutcomes(server);
}

/** The same requests on a fresh server, never killed. */
async function uninterrupted(ops: Op[]): Promise<{ tasks: any[]; states: Record<string, unknown> }> {
  const server = await startServer();
  try {
    await prepare(server);
    for (const op of ops) await enqueue(server, op);
    const tasks = await settle(server);
    return { tasks, states: await indexStates(server) };
  } finally {
    await server.dispose();
  }
}

export async function runCrash(seed: number, kills: number, log: (line: string) => void = () => {}): Promise<CrashReport> {
  const started = performance.now();
  const random = mulberry32(seed);
  const pick = (n: number) => Math.floor(random() * n);
  const report: CrashReport = { seed, kills: 0, requests: 0, acknowledged: 0, tasks: 0, lostTasks: [], corruptedStores: [], differences: [], ms: 0 };
  let server = await startServer();
  const dbPath = server.dbPath;
  const sent: Sent[] = [];
  try {
    await prepare(server);
    for (const op of SETUP) sent.push({ op, summary: await enqueue(server, op) });
    await waitTask(server, sent.at(-1)!.summary!.taskUid);
    while (report.kills < kills) {
      await round(server, pick, sent);
      report.kills += 1;
      server = await restart(dbPath, report);
      await checkRestart(server, sent, report);
      log(`kill ${report.kills}/${kills}: ${sent.length} requests sent, ${sent.filter((s) => s.summary !== undefined).length} acknowledged`);
    }
    const tasks = await settle(server);
    for (const task of tasks) if (task.status !== 'succeeded') report.differences.push(`task ${task.uid} (${task.type}) ended ${task.status}: ${task.error}`);
    const states = await indexStates(server);
    const reference = await uninterrupted(enqueuedOps(tasks, sent, report));
    report.differences.push(...differences(tasks, reference.tasks, 'tasks'), ...differences(states, reference.states, 'indexes'));
    report.requests = sent.length;
    report.acknowledged = sent.filter((s) => s.summary !== undefined).length;
    report.tasks = tasks.length;
    report.ms = Math.round(performance.now() - started);
    return report;
  } catch (err) {
    throw new Error(`crash harness, seed ${seed}, after ${report.kills} kills: ${(err as Error).message}`, { cause: err });
  } finally {
    await server.kill();
    rmSync(path.dirname(dbPath), { recursive: true, force: true });
  }
}
