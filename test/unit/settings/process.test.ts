// The settings batch processor on real LMDB environments: index creation rules, the batch-wide
// failure of a state-dependent conflict, clear-and-settings batches and updater rebuilds (seen
// through a recording updater added to the registry for the test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../../src/engine/document-id.js';
import { DocumentStore } from '../../../src/engine/documents/store.js';
import { IndexEnvs } from '../../../src/engine/index-env.js';
import { readSettings, searchSettings } from '../../../src/engine/index-settings.js';
import { INDEX_UPDATERS } from '../../../src/engine/indexer/registry.js';
import { threadSettingsWrite } from '../../../src/engine/indexer/commit.js';
import type { IndexUpdater } from '../../../src/engine/updater.js';
import { IndexRegistry } from '../../../src/indexes/registry.js';
import { IndexStatsStore } from '../../../src/indexes/stats-store.js';
import { canonicalPatch } from '../../../src/settings/patch.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { UpdateFiles } from '../../../src/store/update-files.js';
import { SearchRuleStore } from '../../../src/search-rules/store.js';
import type { NextBatch } from '../../../src/tasks/autobatcher.js';
import type { ProcessContext, ProcessOutcome } from '../../../src/tasks/process/context.js';
import { processSettings } from '../../../src/tasks/process/settings.js';
import { Progress } from '../../../src/tasks/progress.js';
import { WorkerPools } from '../../../src/workers/pool.js';
import { TaskQueue } from '../../../src/tasks/queue.js';
import { inlineIndexWriter } from '../tasks/inline-writer.js';
import type { Task, TaskKind } from '../../../src/types/task.js';
import { textMembers } from '../../../src/types/json-text-object.js';

let dir: string;
let store: InstanceStore;
let ctx: ProcessContext;
const rebuilds: { filterable: unknown; docs: { docid: number; doc: JsonObject }[] }[] = [];
const recorder: IndexUpdater = {
  name: 'recorder',
  step: 'post processing facets',
  // derives from filterableAttributes only
  shape: (settings) => settings.filterableAttributes,
  apply: () => undefined,
  rebuild: (_env, settings, documents) => {
    rebuilds.push({ filterable: settings.filterableAttributes, docs: [...documents] });
  },
};

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-settings-'));
  store = openInstanceStore(dir, '0.1.0');
  const indexEnvs = new IndexEnvs(dir);
  ctx = {
    queue: new TaskQueue(store),
    indexes: new IndexRegistry(store),
    indexEnvs,
    writeIndex: inlineIndexWriter(indexEnvs),
    batchUid: 0,
    indexStats: new IndexStatsStore(store),
    updateFiles: new UpdateFiles(store),
    searchRules: new SearchRuleStore(store),
    now: 5_000n,
    // pools start lazily: none does here
    workers: new WorkerPools(1),
    signal: new AbortController().signal,
    progress: new Progress(),
  };
  rebuilds.length = 0;
  INDEX_UPDATERS.push(recorder);
});

afterEach(async () => {
  INDEX_UPDATERS.splice(INDEX_UPDATERS.indexOf(recorder), 1);
  await ctx.indexEnvs.closeAll();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const settings = (body: Record<string, unknown>, o: { deletion?: boolean } = {}): TaskKind => ({
  name: 'settingsUpdate',
  indexUid: 'movies',
  settings: canonicalPatch(body) as JsonObject,
  isDeletion: o.deletion ?? false,
  allowIndexCreation: true,
});

const enqueue = (...kinds: TaskKind[]): Task[] => kinds.map((k) => ctx.queue.register({ kind: k }));

function batch(tasks: Task[], operation: 'settings' | 'clearAndSettings', mustCreateIndex: boolean): NextBatch {
  return { operation, taskUids: tasks.map((t) => t.uid), indexUid: 'movies', mustCreateIndex, primaryKey: null, batchStrategy: '', reuseBatchUid: null };
}

function commit(outcome: ProcessOutcome): void {
  store.root.transactionSync(() => outcome.commit?.());
}

/** An existing index holding `docs` (ids from `id`). */
function indexWith(docs: JsonObject[]) {
  const record = ctx.indexes.newRecord('movies', 'id', 1_000n);
  store.root.transactionSync(() => ctx.indexes.put(record));
  const env = ctx.indexEnvs.get(record.uuid);
  env.root.transactionSync(() => new DocumentStore(env).apply(new Map(docs.map((d) => [String(d.id), d])), false));
  return env;
}

describe('the settings processor', () => {
  it('fails every task with index_not_found when the index is missing and may not be created', async () => {
    const tasks = enqueue(settings({ stopWords: null }, { deletion: true }));
    const outcome = await processSettings(ctx, tasks, batch(tasks, 'settings', false));
    expect(outcome.tasks.map((t) => [t.status, t.error?.message])).toEqual([['failed', 'Index `movies` not found.']]);
    expect(outcome.indexWritten).toBeUndefined();
  });

  it('creates a missing index when allowed, storing the merged settings of every task in order', async () => {
    const tasks = enqueue(settings({ rankingRules: ['typo'], stopWords: ['the'] }), settings({ rankingRules: ['words'] }));
    const outcome = await processSettings(ctx, tasks, batch(tasks, 'settings', true));
    expect(outcome.tasks.map((t) => t.status)).toEqual(['succeeded', 'succeeded']);
    commit(outcome);
    const record = ctx.indexes.get('movies')!;
    expect(record).toMatchObject({ createdAt: 5_000n, updatedAt: 5_000n, primaryKey: null });
    const stored = readSettings(ctx.indexEnvs.get(record.uuid));
    expect(stored.rankingRules).toEqual(['words']);
    expect(stored.stopWords).toEqual(['the']);
  });

  it('fails the whole batch on a typo size conflict with the stored value, creating nothing', async () => {
    const tasks = enqueue(settings({ displayedAttributes: ['title'] }), settings({ typoTolerance: { minWordSizeForTypos: { oneTypo: 10 } } }));
    const outcome = await processSettings(ctx, tasks, batch(tasks, 'settings', true));
    expect(outcome.tasks.map((t) => [t.status, t.error?.code])).toEqual([
      ['failed', 'invalid_settings_typo_tolerance'],
      ['failed', 'invalid_settings_typo_tolerance'],
    ]);
    expect(outcome.tasks[0]!.error!.message).toMatch(/^Index `movies`: `minWordSizeForTypos` setting is invalid\./);
    expect(outcome.commit).toBeUndefined();
  });

  it('rebuilds an updater from every stored document when a setting it derives from changes', async () => {
    indexWith([{ id: 1, genre: 'drama' }, { id: 2, genre: 'horror' }]);
    const tasks = enqueue(settings({ filterableAttributes: ['genre'] }));
    commit(await processSettings(ctx, tasks, batch(tasks, 'settings', false)));
    expect(rebuilds).toEqual([
      {
        filterable: ['genre'],
        docs: [
          { docid: 0, doc: { id: 1, genre: 'drama' } },
          { docid: 1, doc: { id: 2, genre: 'horror' } },
        ],
      },
    ]);
    expect(ctx.indexes.get('movies')!.updatedAt).toBe(5_000n);
  });

  it('hands the settings it wrote to the searches instead of their decoding them again', async () => {
    const env = indexWith([{ id: 1, genre: 'drama' }]);
    const tasks = enqueue(settings({ filterableAttributes: ['genre'], synonyms: { film: ['movie'] } }));
    commit(await processSettings(ctx, tasks, batch(tasks, 'settings', false)));
    const sent = (tasks[0]!.kind as unknown as { settings: { synonyms: unknown } }).settings.synonyms;
    expect(searchSettings(env).synonyms).toEqual(sent);
    expect(searchSettings(env)).toEqual(readSettings(env));
  });

  it('reads a large settings update a slice at a time, giving the event loop turns, and sends the writer its text', async () => {
    const env = indexWith([{ id: 1 }]);
    const synonyms = Object.fromEntries(Array.from({ length: 80_000 }, (_, k) => [`w${k}`, [`s${k}`]]));
    const tasks = enqueue(settings({ synonyms, rankingRules: ['words', 'year:asc'] }));
    // turns the event loop takes until the processor hands the write over
    let turns = 0;
    let running = true;
    const count = () => {
      turns++;
      if (running) setImmediate(count);
    };
    setImmediate(count);
    let write: Parameters<ProcessContext['writeIndex']>[1] | undefined;
    let turnsAtWrite = 0;
    const inline = ctx.writeIndex;
    ctx.writeIndex = (uuid, w, watcher) => {
      turnsAtWrite = turns;
      write = w;
      return inline(uuid, w, watcher);
    };
    commit(await processSettings(ctx, tasks, batch(tasks, 'settings', false)));
    running = false;
    // the old processor parsed it at once: no turn before the write
    expect(turnsAtWrite).toBeGreaterThan(0);
    // the task's texts cross to the writer thread, which parses them: the written settings are the same
    const texts = write?.kind === 'settings' ? write.texts : undefined;
    expect(Object.keys(texts ?? {})).toEqual(['rankingRules', 'synonyms']);
    // (JSON texts compared: a deep equality of 80,000 members takes seconds)
    const taskText = textMembers(tasks[0]!.kind.name === 'settingsUpdate' ? tasks[0]!.kind.settings : {}).find(([key]) => key === 'synonyms')?.[1];
    expect(texts!.synonyms).toBe(taskText);
    const sent = threadSettingsWrite(write as Extract<typeof write, { kind: 'settings' }>).settings;
    expect([sent.synonyms, sent.rankingRules]).toEqual([null, null]);
    expect(JSON.stringify(readSettings(env))).toBe(JSON.stringify(searchSettings(env)));
    expect(JSON.stringify(readSettings(env).synonyms)).toBe(texts!.synonyms);
  });

  it('sends the writer only the settings a batch changes: it keeps the others as stored', async () => {
    const env = indexWith([{ id: 1, genre: 'drama' }]);
    const first = enqueue(settings({ filterableAttributes: ['genre'], stopWords: ['the'], synonyms: { film: ['movie'] } }));
    commit(await processSettings(ctx, first, batch(first, 'settings', false)));
    const shared = searchSettings(env);
    const next = enqueue(settings({ synonyms: { film: ['picture'] } }));
    commit(await processSettings(ctx, next, batch(next, 'settings', false)));
    expect(readSettings(env)).toMatchObject({ filterableAttributes: ['genre'], stopWords: ['the'], synonyms: { film: ['picture'] } });
    expect(searchSettings(env)).toEqual(readSettings(env));
    // the settings searches shared before are left as they were
    expect(shared.synonyms).toEqual({ film: ['movie'] });
    const write = { kind: 'settings', settings: readSettings(env), unchanged: ['stopWords', 'synonyms'], clear: false, rebuild: [] } as const;
    expect(Object.keys(threadSettingsWrite(write).settings)).not.toContain('synonyms');
    expect(Object.keys(threadSettingsWrite(write).settings)).toContain('filterableAttributes');
  });

  it('rebuilds nothing for a metadata-only change', async () => {
    indexWith([{ id: 1 }]);
    const tasks = enqueue(settings({ displayedAttributes: ['id'], synonyms: { a: ['b'] } }));
    commit(await processSettings(ctx, tasks, batch(tasks, 'settings', false)));
    expect(rebuilds).toEqual([]);
  });

  it('rebuilds no updater for a change of settings it does not derive from', async () => {
    indexWith([{ id: 1, genre: 'drama' }]);
    const tasks = enqueue(settings({ stopWords: ['the'], sortableAttributes: ['genre'] }));
    commit(await processSettings(ctx, tasks, batch(tasks, 'settings', false)));
    expect(rebuilds).toEqual([]);
  });

  it('runs the clears of a clear-and-settings batch first: the first clear counts, deletions keep their details', async () => {
    const env = indexWith([{ id: 1 }, { id: 2 }, { id: 3 }]);
    const tasks = enqueue(
      settings({ displayedAttributes: ['id'] }),
      { name: 'documentClear', indexUid: 'movies' },
      { name: 'documentDeletion', indexUid: 'movies', documentIds: ['1'] },
      { name: 'documentClear', indexUid: 'movies' },
    );
    const outcome = await processSettings(ctx, tasks, batch(tasks, 'clearAndSettings', false));
    expect(outcome.tasks.map((t) => [t.status, t.details])).toEqual([
      ['succeeded', { kind: 'settingsUpdate', settings: { displayedAttributes: ['id'] } }],
      ['succeeded', { kind: 'clearAll', deletedDocuments: 3 }],
      ['succeeded', { kind: 'documentDeletion', providedIds: 1, deletedDocuments: null }],
      ['succeeded', { kind: 'clearAll', deletedDocuments: 0 }],
    ]);
    commit(outcome);
    expect(new DocumentStore(env).count()).toBe(0);
    expect(readSettings(env).displayedAttributes).toEqual(['id']);
    expect(rebuilds).toEqual([{ filterable: [], docs: [] }]);
  });
});
