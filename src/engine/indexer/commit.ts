/**
 * The writes a batch makes to one index environment, as data: a batch processor describes them
 * (document operations, new settings with the updaters to rebuild, a declared primary key, or a
 * topology change's resharding, shards/reshard.ts) and the index writer
 * thread applies them (workers/index-writer.ts), so a long commit never blocks the HTTP thread.
 * Each write is ONE transaction: documents and everything derived from them land together.
 *
 * `checkpoint` is called between steps and throws to interrupt; the transaction then rolls back.
 * Every committed write also records, in its transaction, the environment's storage format and,
 * when given, the batch it applies (applied-batch.ts).
 */
import { DocumentStore } from '../documents/store.js';
import type { IndexEnv } from '../index-env.js';
import { readSettings, writeSettings } from '../index-settings.js';
import type { IndexSettings, SettingKey } from '../../types/settings.js';
import { applyDocumentBatch, numberPrimaryKey, type DocumentBatchOutcome, type DocumentOp } from './document-batch.js';
import type { AheadParts } from '../words/ahead-parts.js';
import { INDEX_UPDATERS, RECONCILING_UPDATERS } from './registry.js';
import { StepReporter } from '../indexing-steps.js';
import { recordAppliedBatch, type AppliedBatch } from '../applied-batch.js';
import { stampIndexFormat } from '../storage-upgrade.js';
import { reshardIndex, type ReshardOutcome, type ReshardWrite } from '../shards/reshard.js';
import type { Sharding } from '../shards/shard-of.js';
import { addShards, readShardDocids, writeShardDocids } from '../shards/shard-docids.js';
import { EMPTY } from '../docset.js';

export interface DocumentsWrite {
  readonly kind: 'documents';
  /** the batch's operations, in task order (document-batch.ts) */
  readonly ops: readonly DocumentOp[];
  /** the index's primary key before the batch */
  readonly primaryKey: string | null;
  /** run the write and roll it back: whether and how the operations apply, nothing written */
  readonly rehearsal?: boolean;
  /** the batch this write applies, recorded with it */
  readonly applied?: AppliedBatch;
  /** the network's shards when it has a leader: only documents of owned shards are kept (document-batch.ts) */
  readonly sharding?: Sharding | null;
}

export interface SettingsWrite {
  readonly kind: 'settings';
  readonly settings: IndexSettings;
  /** the index is emptied first (a document clear batched before the settings) */
  readonly clear: boolean;
  /** names of the updaters whose derived data the new settings change */
  readonly rebuild: readonly string[];
  /** an index the batch creates with a sharded network: it knows every shard from the start */
  readonly sharding?: Sharding | null;
  /** the batch this write applies, recorded with it */
  readonly applied?: AppliedBatch;
  /**
   * the settings the write leaves as stored (equal to them): the writer thread is sent the others
   * only (`threadSettingsWrite`) and reads these itself, off the thread answering requests, where
   * cloning 450,000 unchanged synonyms to it held that thread ~2 s at every settings batch
   */
  readonly unchanged?: readonly SettingKey[];
  /**
   * the JSON text of settings the write holds as a task sent them (settings/merge.ts
   * `VERBATIM_SETTINGS`): the writer thread is sent that text instead (a string's copy), and
   * parses it itself; cloning 450,000 new synonyms held the thread answering requests ~0.7 s
   */
  readonly texts?: Readonly<Partial<Record<SettingKey, string>>>;
}

/** `write` as sent to the writer thread: its settings without those it leaves as stored, and null for those it sends as text. */
export function threadSettingsWrite(write: SettingsWrite): SettingsWrite {
  const unchanged = write.unchanged ?? [];
  const texts = Object.keys(write.texts ?? {}) as SettingKey[];
  if (unchanged.length === 0 && texts.length === 0) return write;
  const sent: Partial<Record<SettingKey, unknown>> = { ...write.settings };
  for (const key of unchanged) delete sent[key];
  // null keeps the member's place among the settings, which the text's value then takes
  for (const key of texts) if (!unchanged.includes(key)) sent[key] = null;
  return { ...write, settings: sent as IndexSettings };
}

/**
 * The whole settings `write` stores: those sent, those sent as text, and the stored ones it
 * leaves unchanged, read only when the write crossed to the writer thread without them (an inline
 * write, the library's, holds them all: no decode of 450,000 synonyms on its only thread).
 */
function writtenSettings(env: IndexEnv, write: SettingsWrite): IndexSettings {
  const missing = write.unchanged?.some((key) => !Object.hasOwn(write.settings, key)) === true;
  const settings = missing ? { ...readSettings(env), ...write.settings } : { ...write.settings };
  for (const [key, text] of Object.entries(write.texts ?? {}) as [SettingKey, string][]) {
    if (settings[key] === null) (settings as Record<SettingKey, unknown>)[key] = JSON.parse(text);
  }
  return settings;
}

/**
 * The primary key an index creation or update declares: an index without documents numbers it in
 * its fields (v1.50's settings `update_primary_key`), so it is listed and leads the documents to
 * come; an index with documents keeps its fields as they are.
 */
export interface PrimaryKeyWrite {
  readonly kind: 'primaryKey';
  readonly primaryKey: string;
  /** the batch this write applies, recorded with it */
  readonly applied?: AppliedBatch;
}

export type IndexWrite = DocumentsWrite | SettingsWrite | ReshardWrite | PrimaryKeyWrite;

/** What a write answers: each operation's outcome (documents), what moved (reshard), nothing (settings, primary key). */
export type IndexWriteOutcome = DocumentBatchOutcome | ReshardOutcome | null;

/** What write `W` answers. */
export type WriteOutcome<W extends IndexWrite> = W extends DocumentsWrite ? DocumentBatchOutcome : W extends ReshardWrite ? ReshardOutcome : null;

/**
 * Applies `write`; a documents write answers each operation's outcome. `ahead` has words
 * extracted ahead: of a documents write's payloads, or of the stored documents a settings write
 * rebuilds the word index from; `indexingMemory` (bytes) sizes a documents write's chunks.
 */
export function applyIndexWrite(env: IndexEnv, write: DocumentsWrite, checkpoint?: () => void, steps?: StepReporter, ahead?: AheadParts, indexingMemory?: number): DocumentBatchOutcome;
export function applyIndexWrite(env: IndexEnv, write: ReshardWrite, checkpoint?: () => void, steps?: StepReporter, ahead?: AheadParts, indexingMemory?: number): ReshardOutcome;
export function applyIndexWrite(env: IndexEnv, write: IndexWrite, checkpoint?: () => void, steps?: StepReporter, ahead?: AheadParts, indexingMemory?: number): IndexWriteOutcome;
export function applyIndexWrite(env: IndexEnv, write: IndexWrite, checkpoint: () => void = () => {}, steps = new StepReporter(), ahead?: AheadParts, indexingMemory?: number): IndexWriteOutcome {
  const stamp = () => {
    stampIndexFormat(env);
    if (write.applied !== undefined) recordAppliedBatch(env, write.applied);
  };
  if (write.kind === 'documents') return applyDocumentBatch(env, write.ops, write.primaryKey, checkpoint, steps, ahead, write.rehearsal, stamp, write.sharding ?? null, indexingMemory);
  if (write.kind === 'primaryKey') {
    env.root.transactionSync(() => {
      if (env.documents.getCount() === 0) numberPrimaryKey(env, readSettings(env), write.primaryKey);
      stamp();
    });
    return null;
  }
  if (write.kind === 'reshard') {
    return env.root.transactionSync(() => {
      const outcome = reshardIndex(env, write.sharding, checkpoint);
      stamp();
      return outcome;
    });
  }
  env.root.transactionSync(() => {
    applySettings(env, write, checkpoint, steps, ahead);
    stamp();
  });
  return null;
}

function applySettings(env: IndexEnv, write: SettingsWrite, checkpoint: () => void, steps: StepReporter, ahead: AheadParts | undefined): void {
  const store = new DocumentStore(env);
  if (write.clear) {
    store.apply(new Map(), true);
    // v1.50 keeps the shards, emptied
    writeShardDocids(env, new Map([...readShardDocids(env).keys()].map((name) => [name, EMPTY])));
  }
  const settings = writtenSettings(env, write);
  writeSettings(env, settings);
  if (write.sharding) addShards(env, write.sharding.shards);
  // An emptied index is rebuilt from nothing, which also clears what the old documents left.
  // Each updater walks the documents on its own, so hand out a fresh iterator every time.
  const documents = write.clear ? [] : { [Symbol.iterator]: () => store.entries() };
  for (const updater of INDEX_UPDATERS) {
    checkpoint();
    if (!write.clear && !write.rebuild.includes(updater.name) && !RECONCILING_UPDATERS.has(updater.name)) continue;
    steps.enter(updater.step);
    updater.rebuild(env, settings, documents, checkpoint, ahead);
  }
  steps.enter('finalizing');
}
