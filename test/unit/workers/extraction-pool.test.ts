// A documents write, and a settings write re-indexing the words, whose words the extraction
// workers extract (the real pool threads, run from dist/) leave the index a write extracting
// everything itself leaves: the word index word for word and the facet data byte for byte, over a
// slice of movies large enough to use the workers.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadDataset } from '../../../bench/datasets.js';
import type { IndexEnv, IndexEnvs as IndexEnvsType } from '../../../src/engine/index-env.js';
import type { applyIndexWrite as ApplyIndexWrite, SettingsWrite } from '../../../src/engine/indexer/commit.js';
import type { DocumentOp } from '../../../src/engine/indexer/document-batch.js';
import type { writeIndex as WriteIndex } from '../../../src/workers/index-writer.js';
import type { WorkerPools as WorkerPoolsType } from '../../../src/workers/pool.js';
import { defaultSettings } from '../../../src/types/settings.js';
import { INDEXING_STEPS } from '../../../src/engine/indexing-steps.js';
import { wantsExtraction } from '../../../src/workers/extraction-pool.js';
import { wordIndexSnapshot } from '../engine/search/harness.js';

/** The built modules: the writer and extraction threads run dist/. */
const dist = (file: string) => import(new URL(`../../../dist/src/${file}`, import.meta.url).href);

let dir: string;
let workers: WorkerPoolsType;
let envs: IndexEnvsType;
let writeIndex: typeof WriteIndex;
let applyIndexWrite: typeof ApplyIndexWrite;

beforeEach(async () => {
  const [pool, index, writer, commit] = await Promise.all([dist('workers/pool.js'), dist('engine/index-env.js'), dist('workers/index-writer.js'), dist('engine/indexer/commit.js')]);
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-extraction-pool-'));
  workers = new pool.WorkerPools(2);
  envs = new index.IndexEnvs(dir);
  writeIndex = writer.writeIndex;
  applyIndexWrite = commit.applyIndexWrite;
});
afterEach(async () => {
  await workers.close();
  await envs.closeAll();
  rmSync(dir, { recursive: true, force: true });
});

/** The facet data as stored: every key and value, in hex. */
function facetBytes(env: IndexEnv) {
  env.root.resetReadTxn();
  const hex = (value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value);
  return {
    facets: [...env.facetDocids.getRange()].map(({ key, value }) => [hex(key), hex(value)]),
    geo: [...env.geoPoints.getRange()].map(({ key, value }) => [hex(key), hex(value)]),
  };
}

describe('the extraction workers', () => {
  it('leave the index a write extracting everything itself leaves, for documents and for a re-index', async () => {
    const dataset = loadDataset('movies', 3_000);
    const settings = { ...defaultSettings(), searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
    const file = path.join(dir, 'movies.ndjson');
    writeFileSync(file, dataset.docs.map((doc) => JSON.stringify(doc)).join('\n'));
    const update = path.join(dir, 'update.ndjson');
    writeFileSync(update, dataset.docs.filter((_, i) => i % 7 === 0).map((doc) => JSON.stringify({ id: doc.id, title: `${String(doc.title)} returns`, genres: ['Sequel'] })).join('\n'));
    const ops: DocumentOp[] = [
      { op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false },
      { op: 'add', source: { file: update }, method: 'update', primaryKey: null, skipMissing: false },
    ];
    const reindex: SettingsWrite = { kind: 'settings', settings: { ...settings, searchableAttributes: ['cast', 'title', 'overview'] }, clear: false, rebuild: ['word-index'] };
    const snapshots: unknown[][] = [[], []];
    for (const pooled of [false, true]) {
      const uuid = pooled ? 'pooled' : 'inline';
      const env = envs.get(uuid);
      applyIndexWrite(env, { kind: 'settings', settings, clear: false, rebuild: [] });
      const write = { kind: 'documents', ops, primaryKey: null } as const;
      const outcome = pooled ? await writeIndex(workers, envs, uuid, write, new AbortController().signal) : applyIndexWrite(env, write);
      expect(outcome.results).toEqual([{ count: 3_000 }, { count: 429 }]);
      const snapshot = () => {
        env.root.resetReadTxn();
        return { words: wordIndexSnapshot(env), ...facetBytes(env) };
      };
      snapshots[0]!.push(snapshot());
      if (pooled) await writeIndex(workers, envs, uuid, reindex, new AbortController().signal);
      else applyIndexWrite(env, reindex);
      snapshots[1]!.push(snapshot());
    }
    // the payload and the index are large enough for the workers: two tasks per write
    expect(workers.extractionPool().completed).toBe(4);
    const [documents, reindexed] = snapshots as { words: { words: object; dictionary: string[] } }[][];
    expect(Object.keys(documents![0]!.words.words).length).toBeGreaterThan(5_000);
    expect(documents![1]).toEqual(documents![0]);
    // the re-index added the cast's words
    expect(reindexed![0]!.words.dictionary.length).toBeGreaterThan(documents![0]!.words.dictionary.length);
    expect(reindexed![1]).toEqual(reindexed![0]);
  }, 60_000);
});

describe('an interrupted write with extraction workers', () => {
  it('rolls back whole, and its workers end', async () => {
    const dataset = loadDataset('movies', 3_000);
    const file = path.join(dir, 'movies.ndjson');
    writeFileSync(file, dataset.docs.map((doc) => JSON.stringify(doc)).join('\n'));
    const env = envs.get('index');
    applyIndexWrite(env, { kind: 'documents', ops: [{ op: 'add', source: { file }, method: 'replace', primaryKey: null, skipMissing: false }], primaryKey: null });
    const before = wordIndexSnapshot(env);
    const abort = new AbortController();
    const reindex: SettingsWrite = { kind: 'settings', settings: { ...defaultSettings(), searchableAttributes: ['title'] }, clear: false, rebuild: ['word-index'] };
    // interrupted while it extracts words
    const words = INDEXING_STEPS.indexOf('extracting words') + 1;
    let poll: NodeJS.Timeout | undefined;
    const watcher = {
      started: (current: Int32Array) => {
        poll = setInterval(() => {
          if (Atomics.load(current, 0) === words) abort.abort();
        }, 1);
      },
      ended: () => clearInterval(poll),
    };
    const write = writeIndex(workers, envs, 'index', reindex, abort.signal, watcher);
    await expect(write).rejects.toThrow('the index write was interrupted');
    env.root.resetReadTxn();
    expect(wordIndexSnapshot(env)).toEqual(before);
    // writeIndex waited for them: both tasks of the write are done
    expect(workers.extractionPool().completed).toBe(2);
  }, 60_000);
});

describe('wantsExtraction', () => {
  const add = (bytes: number): DocumentOp => ({ op: 'add', source: { bytes: new Uint8Array(bytes) }, method: 'replace', primaryKey: null, skipMissing: false });
  const put = (count: number): DocumentOp => ({ op: 'put', changes: new Map(Array.from({ length: count }, (_, i) => [String(i), { id: i }])) });
  const settings = (rebuild: string[], clear = false) => ({ kind: 'settings', settings: defaultSettings(), clear, rebuild }) as const;

  it('starts the workers for 1 MiB of additions or 2,000 edited documents, never for a rehearsal', () => {
    const none = () => 0;
    expect(wantsExtraction({ kind: 'documents', ops: [add(600 << 10), add(600 << 10)], primaryKey: null }, none)).toBe(true);
    expect(wantsExtraction({ kind: 'documents', ops: [add(600 << 10), { op: 'clear' }], primaryKey: null }, none)).toBe(false);
    expect(wantsExtraction({ kind: 'documents', ops: [put(2_000)], primaryKey: 'id' }, none)).toBe(true);
    expect(wantsExtraction({ kind: 'documents', ops: [put(1_999)], primaryKey: 'id' }, none)).toBe(false);
    expect(wantsExtraction({ kind: 'documents', ops: [add(2 << 20)], primaryKey: null, rehearsal: true }, none)).toBe(false);
  });

  it('starts them for a settings write re-indexing the words of 2,000 stored documents or more', () => {
    expect(wantsExtraction(settings(['word-index']), () => 2_000)).toBe(true);
    expect(wantsExtraction(settings(['word-index']), () => 1_999)).toBe(false);
    expect(wantsExtraction(settings(['facets']), () => 50_000)).toBe(false);
    expect(wantsExtraction(settings(['word-index'], true), () => 50_000)).toBe(false);
    expect(wantsExtraction({ kind: 'reshard', sharding: { shards: ['s0'] } }, () => 50_000)).toBe(false);
  });
});
