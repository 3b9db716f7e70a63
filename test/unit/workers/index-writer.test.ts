// The index writer's side of the extraction threads (src/workers/index-writer.ts): writes that do
// not use them (a documents write too small for them, a settings write without a rebuild of the
// word index) leave them unstarted, so a server whose writes stay small pays for the writer thread
// only; the segmenter thread starts when a write first needs it. The writer thread keeps no
// handle of the writes it has done.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { IndexEnvs as IndexEnvsType } from '../../../src/engine/index-env.js';
import type { WorkerPools as WorkerPoolsType } from '../../../src/workers/pool.js';
import type { writeIndex as WriteIndex } from '../../../src/workers/index-writer.js';
import type { defaultSettings as DefaultSettings } from '../../../src/types/settings.js';
import type { Worker } from 'node:worker_threads';

/** The built modules: the index writer thread runs dist/. */
const dist = (file: string) => import(new URL(`../../../dist/src/${file}`, import.meta.url).href);

/** An index's environment folder name (index-env.ts takes uuids). */
const UUID = '8f2d5b3c-0a4e-4c1b-9d6f-2e7a1b3c4d5e';

let dir: string;
let workers: WorkerPoolsType;
let envs: IndexEnvsType;
let writeIndex: typeof WriteIndex;
let defaultSettings: typeof DefaultSettings;

beforeEach(async () => {
  const [pool, index, writer, settings] = await Promise.all([dist('workers/pool.js'), dist('engine/index-env.js'), dist('workers/index-writer.js'), dist('types/settings.js')]);
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-index-writer-'));
  workers = new pool.WorkerPools(1);
  envs = new index.IndexEnvs(dir);
  writeIndex = writer.writeIndex;
  defaultSettings = settings.defaultSettings;
});
afterEach(async () => {
  await workers.close();
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

describe('threads started around an index write', () => {
  it('leaves the extraction threads unstarted after a documents write too small to use them and a settings write that rebuilds no word index', async () => {
    const file = path.join(dir, 'payload.ndjson');
    writeFileSync(file, '{"id":1,"title":"a small write"}\n{"id":2,"title":"of two documents"}');
    const signal = new AbortController().signal;
    const outcome = await writeIndex(workers, envs, UUID, { kind: 'documents', ops: [{ op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false }], primaryKey: null }, signal);
    expect(outcome.primaryKey).toBe('id');
    expect(workers.writerPool().threads.length).toBe(1);
    expect(workers.extractAheadPool().threads.length).toBe(0);

    await writeIndex(workers, envs, UUID, { kind: 'settings', settings: { ...defaultSettings(), filterableAttributes: ['title'] }, clear: false, rebuild: [] }, signal);
    expect(workers.extractAheadPool().threads.length).toBe(0);
  });

  // the segmenter thread starts when the writer first asks for it: were it never started, the
  // writer would wait the channel's 30 s start timeout before segmenting on its own
  it('starts the segmenter thread when a write first has Japanese text to segment', async () => {
    const file = path.join(dir, 'payload.ndjson');
    writeFileSync(file, '{"id":1,"title":"クーポンで無料で頂きました"}');
    const started = performance.now();
    const signal = new AbortController().signal;
    await writeIndex(workers, envs, UUID, { kind: 'documents', ops: [{ op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false }], primaryKey: null }, signal);
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 40_000);
});

/** How many objects of class `name` a heap snapshot of `thread` holds (the snapshot collects garbage first). */
async function objectsIn(thread: Worker, name: string): Promise<number> {
  const chunks: Buffer[] = [];
  for await (const chunk of await thread.getHeapSnapshot()) chunks.push(chunk as Buffer);
  const snapshot = JSON.parse(Buffer.concat(chunks).toString()) as { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] };
  const { node_fields: fields, node_types: types } = snapshot.snapshot.meta;
  const [typeAt, nameAt] = [fields.indexOf('type'), fields.indexOf('name')];
  let count = 0;
  for (let at = 0; at < snapshot.nodes.length; at += fields.length) {
    if (types[0][snapshot.nodes[at + typeAt]!] === 'object' && snapshot.strings[snapshot.nodes[at + nameAt]!] === name) count++;
  }
  return count;
}

describe('the writer thread between writes', () => {
  // it opens a handle per write; lmdb-js's read transactions leave a timer holding it, which fires
  // only if the thread's event loop turns between tasks (each write kept ~0.15 MB without bound)
  it('holds no environment handle of the writes it has done', async () => {
    const file = path.join(dir, 'payload.ndjson');
    const signal = new AbortController().signal;
    for (let k = 0; k < 8; k++) {
      writeFileSync(file, `{"id":${k},"title":"write number ${k}"}`);
      await writeIndex(workers, envs, UUID, { kind: 'documents', ops: [{ op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false }], primaryKey: null }, signal);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [thread] = workers.writerPool().threads;
    // at most the one a module of the thread may hold; on piscina's default waiting, one per write
    expect(await objectsIn(thread!, 'Env')).toBeLessThanOrEqual(1);
  }, 30_000);
});
