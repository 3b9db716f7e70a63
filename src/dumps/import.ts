/**
 * `--import-dump`: fills an empty database from a v6 dump (dumps-snapshots-upgrade.md §3.9; an older
 * one reaches it already rewritten as v6 by reader.ts), in
 * Meilisearch's order: instance uid, runtime webhooks (replacing the stored ones), keys (replacing
 * the default ones), chat workspaces (none from a dump without `chat-completions-settings/`),
 * experimental features, the network (`self` cleared), then each index (created with its dates and primary key, its settings applied, its documents
 * indexed as one replacement through the normal index write; v1.50's internal `.meili_dsr` index
 * restores the dynamic search rules instead: search-rules/internal-index.ts), then batches and tasks with their
 * uids, statuses and dates; enqueued document tasks get a new update file from the dump and run
 * once the server is up.
 *
 * The dump's values are checked as v1.50's typed reader checks them: each index's settings as a
 * `PATCH /indexes/{uid}/settings` body (settings/parse.ts), the instance uid, key uids and webhook
 * uuids as uuids, key actions as known ones, and an index uid met twice is refused.
 *
 * Caller: main.ts, before the scheduler starts and the server listens (nothing else writes). Any
 * error aborts the import; main.ts then removes the half-filled db path.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import type { ApiKey, KeyStore } from '../auth/key-store.js';
import { parseUuid } from '../auth/uuid.js';
import { workspaceSettingsFromDump } from '../chats/workspace-settings.js';
import type { ChatWorkspaceStore } from '../chats/workspace-store.js';
import { normalizeExactWords } from '../engine/exact-words.js';
import type { IndexEnvs } from '../engine/index-env.js';
import { INDEX_UPDATERS } from '../engine/indexer/registry.js';
import { INDEXING_STEPS } from '../engine/indexing-steps.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexRegistry } from '../indexes/registry.js';
import type { ImportProgress } from '../logs/import-progress.js';
import { diffSettings } from '../settings/diff.js';
import { applyPatch, mergedSettingsProblem } from '../settings/merge.js';
import { parseSettings } from '../settings/parse.js';
import { canonicalPatch } from '../settings/patch.js';
import type { InstanceStore } from '../store/env.js';
import { writeInstanceUid } from '../store/instance-uid.js';
import type { UpdateFiles } from '../store/update-files.js';
import { writeTxn } from '../store/write-txn.js';
import { indexUidProblem } from '../types/index-uid.js';
import { FEATURE_NAMES, type FeatureName } from '../types/features.js';
import { defaultSettings, SETTING_KEYS } from '../types/settings.js';
import { isJsonObject, withoutBigInts } from '../types/json-text.js';
import { ACTIONS, type Action } from '../types/key.js';
import { DSR_INDEX_UID, type Batch, type DumpedKey, type Task } from '../types/task.js';
import { MEILISEARCH_VERSION } from '../version.js';
import { writeIndex, type StepWatcher } from '../workers/index-writer.js';
import type { WorkerPools } from '../workers/pool.js';
import { DumpReader, type DumpedIndex } from './reader.js';
import type { Network } from '../network/network.js';
import type { WebhookStore } from '../webhooks/store.js';
import { ruleFromDocument } from '../search-rules/internal-index.js';
import type { RuleChange, SearchRuleStore } from '../search-rules/store.js';

/** Where the dump's batches and tasks go, stored as they are (tasks/queue.ts does it). */
export interface RestoredQueue {
  writeBatch(batch: Batch): void;
  restoreTasks(tasks: readonly Task[]): void;
}

export interface ImportTargets {
  store: InstanceStore;
  keys: KeyStore;
  features: ExperimentalFeatures;
  webhooks: Pick<WebhookStore, 'restore'>;
  chatWorkspaces: Pick<ChatWorkspaceStore, 'put'>;
  network: Pick<Network, 'restore'>;
  queue: RestoredQueue;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  updateFiles: UpdateFiles;
  workers: WorkerPools;
  searchRules: Pick<SearchRuleStore, 'apply'>;
}

/** The rules of a dumped `.meili_dsr` index's `documents.jsonl`. */
function readRules(file: string): RuleChange[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      const change = ruleFromDocument(JSON.parse(line));
      return change === null ? [] : [change];
    });
}

/** Tasks and batches are stored this many at a time: a queue of millions never sits in memory. */
const RECORDS_PER_WRITE = 1000;

/** Stores `records` in groups of RECORDS_PER_WRITE, one transaction each. */
async function storeInGroups<T>(records: AsyncIterable<T>, store: (group: T[]) => void): Promise<void> {
  let group: T[] = [];
  for await (const record of records) {
    group.push(record);
    if (group.length === RECORDS_PER_WRITE) {
      store(group);
      group = [];
    }
  }
  store(group);
}

/** How often the step an index write is in (read from the writer thread) is shown. */
const STEP_POLL_MS = 200;

/** Shows `uid` and the step its document write is in, `done` indexes being finished. */
function showSteps(progress: ImportProgress, done: number, uid: string): StepWatcher {
  let timer: NodeJS.Timeout | undefined;
  return {
    started(current) {
      const show = () => progress.update(done, `${uid}: ${INDEXING_STEPS[Atomics.load(current, 0) - 1] ?? 'starting'}`);
      show();
      timer = setInterval(show, STEP_POLL_MS);
    },
    ended() {
      clearInterval(timer);
    },
  };
}

/**
 * A Hugging Face embedder dumped without `pooling` (before v1.14) pooled by mean: it keeps doing
 * so (`forceMean`), as v1.50's dump reader patches it; later dumps always carry it.
 */
export function withDumpedPooling(embedders: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(embedders).map(([name, embedder]) =>
      isJsonObject(embedder) && embedder.source === 'huggingFace' && (embedder.pooling === undefined || embedder.pooling === null) ? [name, { ...embedder, pooling: 'forceMean' }] : [name, embedder],
    ),
  );
}

/** The index's known settings parsed as `PATCH /indexes/{uid}/settings` parses its body; throws naming the index. */
function checkedSettings(uid: string, known: Record<string, unknown>): Record<string, unknown> {
  try {
    return parseSettings(known);
  } catch (err) {
    throw new Error(`Index \`${uid}\`: settings.json: ${(err as Error).message}`);
  }
}

/** A uuid of the dump, in its canonical form; throws, as v1.50's typed reader refuses it, when it is none. */
function dumpedUuid(where: string, text: unknown): string {
  const parsed = typeof text === 'string' ? parseUuid(text) : { ok: false as const, error: 'expected a string' };
  if (!parsed.ok) throw new Error(`${where}: \`${String(text)}\` is not a uuid: ${parsed.error}`);
  return parsed.uuid;
}

/** A key of `keys.jsonl` with a uuid and known actions, as v1.50's `Key` reads it. */
function checkedKey(key: DumpedKey): ApiKey {
  const unknown = (Array.isArray(key.actions) ? key.actions : [key.actions]).find((action) => !(ACTIONS as readonly unknown[]).includes(action));
  if (unknown !== undefined) throw new Error(`keys.jsonl: key \`${String(key.uid)}\`: unknown action \`${String(unknown)}\``);
  return { ...key, uid: dumpedUuid('keys.jsonl', key.uid), actions: key.actions as Action[] };
}

/** `webhooks.json` keyed by uuids, as v1.50's `Webhooks` reads it (the store then keeps the webhooks with a url). */
function checkedWebhooks(dumped: unknown): unknown {
  const entries = (dumped as { webhooks?: unknown } | null)?.webhooks;
  if (isJsonObject(entries)) for (const uuid of Object.keys(entries)) dumpedUuid('webhooks.json', uuid);
  return dumped;
}

/** Imports one index; returns how many documents it indexed. */
async function importIndex(index: DumpedIndex, to: ImportTargets, signal: AbortSignal, watcher?: StepWatcher): Promise<number> {
  // a hand-made dump could name an index the API could never reach
  const uidProblem = indexUidProblem(index.uid);
  if (uidProblem !== undefined) throw new Error(uidProblem);
  const record = { ...to.indexes.newRecord(index.uid, index.primaryKey, index.createdAt), updatedAt: index.updatedAt };
  const known = Object.fromEntries(SETTING_KEYS.filter((key) => index.settings[key] !== undefined).map((key) => [key, index.settings[key]]));
  if (isJsonObject(known.embedders)) known.embedders = withDumpedPooling(known.embedders);
  // checked as a PATCH body: a value of the wrong type would be stored and break the index's searches
  const parsed = checkedSettings(index.uid, known);
  // read by parseJson, an integer past 2^53 is a BigInt: settings hold numbers
  const settings = applyPatch(defaultSettings(), withoutBigInts(canonicalPatch(parsed)), normalizeExactWords);
  const problem = mergedSettingsProblem(defaultSettings(), settings);
  if (problem !== undefined) throw new Error(`Index \`${index.uid}\`: ${problem.message}`);
  const { rebuild } = diffSettings(defaultSettings(), settings, INDEX_UPDATERS);
  await writeIndex(to.workers, to.indexEnvs, record.uuid, { kind: 'settings', settings, clear: false, rebuild }, signal);
  // v1.50 sets the dumped primary key with the settings, before the documents: numbered even without any
  if (record.primaryKey !== null) await writeIndex(to.workers, to.indexEnvs, record.uuid, { kind: 'primaryKey', primaryKey: record.primaryKey }, signal);
  let documents = 0;
  if (index.documents !== null) {
    const add = { op: 'add', source: { file: index.documents }, method: 'replace', primaryKey: record.primaryKey, skipMissing: false, dumped: true } as const;
    const outcome = await writeIndex(to.workers, to.indexEnvs, record.uuid, { kind: 'documents', ops: [add], primaryKey: record.primaryKey }, signal, watcher);
    const [result] = outcome.results;
    if (result !== undefined && 'error' in result) throw new Error(`Index \`${index.uid}\`: ${result.error.message}`);
    record.primaryKey = outcome.primaryKey;
    documents = result?.count ?? 0;
  }
  writeTxn(to.store.root, () => to.indexes.put(record));
  return documents;
}

/** An enqueued document task gets its payload back as a new update file. */
async function withPayload(task: Task, dump: DumpReader, updateFiles: UpdateFiles): Promise<Task> {
  if (task.kind.name !== 'documentAdditionOrUpdate' || task.status !== 'enqueued') return task;
  const file = dump.updateFile(task.uid);
  const chunks: AsyncIterable<Buffer> = file === null ? (async function* () {})() : createReadStream(file);
  const { uuid, size } = await updateFiles.persist(chunks);
  return { ...task, kind: { ...task.kind, contentFile: uuid, payloadSize: size } };
}

/** Imports the dump `file`; `progress` follows its unpacking and its indexes. */
export async function importDump(file: string, to: ImportTargets, progress?: ImportProgress): Promise<void> {
  progress?.phase('unpacking the dump', statSync(file).size, 'bytes');
  let read = 0;
  const dump = await DumpReader.open(file, to.store.dbPath, (bytes) => progress?.update((read += bytes)));
  const signal = new AbortController().signal;
  try {
    const instanceUid = dump.instanceUid();
    if (instanceUid !== null) writeInstanceUid(to.store.dbPath, dumpedUuid('instance_uid.uuid', instanceUid));
    const webhooks = dump.webhooks();
    if (webhooks !== null) to.webhooks.restore(checkedWebhooks(webhooks));

    const keys: ApiKey[] = [];
    for await (const key of dump.keys()) keys.push(checkedKey(key));
    to.keys.replaceAll(keys);

    for (const [name, text] of dump.chatWorkspaces()) {
      try {
        to.chatWorkspaces.put(name, workspaceSettingsFromDump(JSON.parse(text)));
      } catch (err) {
        throw new Error(`chat-completions-settings/${name}.json: ${(err as Error).message}`);
      }
    }

    // The dump's flags are in force as they are until the next start (absent ones off,
    // `legacySearch` null), as v1.50 puts its features; unknown ones are ignored.
    const features = dump.features() ?? {};
    to.features.restoreDumped(Object.fromEntries(FEATURE_NAMES.map((name) => [name, typeof features[name] === 'boolean' ? features[name] : null])) as Record<FeatureName, boolean | null>);
    const network = dump.network();
    if (network !== null) to.network.restore(network);

    const indexes = [...dump.indexes()];
    progress?.phase('importing indexes', indexes.length, 'indexes');
    let documents = 0;
    const imported = new Set<string>();
    for (const [done, index] of indexes.entries()) {
      // two folders of one uid: the second would replace the first's record and orphan its environment
      if (imported.has(index.uid)) throw new Error(`Index \`${index.uid}\` already exists.`);
      imported.add(index.uid);
      if (index.uid === DSR_INDEX_UID) {
        // v1.50's dynamic search rules, dumped as its internal index: back into the rule store
        const rules = index.documents === null ? [] : readRules(index.documents);
        writeTxn(to.store.root, () => to.searchRules.apply(rules));
        progress?.update(done + 1, `${index.uid}: ${rules.length} rules`);
        continue;
      }
      const indexed = await importIndex(index, to, signal, progress === undefined ? undefined : showSteps(progress, done, index.uid));
      documents += indexed;
      progress?.update(done + 1, `${index.uid}: ${indexed} documents`);
    }

    await storeInGroups<Batch>(dump.batches(), (group) => writeTxn(to.store.root, () => group.forEach((batch) => to.queue.writeBatch(batch))));
    let restored = 0;
    const tasks = async function* () {
      for await (const task of dump.tasks(MEILISEARCH_VERSION)) {
        restored += 1;
        yield await withPayload(task, dump, to.updateFiles);
      }
    };
    await storeInGroups<Task>(tasks(), (group) => to.queue.restoreTasks(group));
    progress?.stop(`dump imported: ${indexes.length} indexes, ${documents} documents, ${restored} tasks`);
  } finally {
    dump.close();
  }
}
