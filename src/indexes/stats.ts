/**
 * Index and instance statistics (indexes.md §4), measured from LMDB's own page accounting so they
 * cost O(1) per index whatever its size (the embedding counts aside: one pass over each
 * embedder's document entries when the vectors changed), after each batch that writes an index (stats-store.ts):
 * the routes read what was stored and open no index environment (an index nothing opened yet
 * counts as empty, with nothing on disk).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Database, RootDatabase } from 'lmdb';
import { dataFileBytes, type IndexEnv, type IndexEnvs } from '../engine/index-env.js';
import { INDEX_DBS, INDEX_MAIN_KEYS } from '../engine/index-read-env.js';
import { embeddingCounts } from '../engine/vectors/index.js';
import type { InstanceStore } from '../store/env.js';
import { ownRecord } from '../types/own-record.js';
import type { Timestamp } from '../types/task.js';
import type { IndexRecord, IndexRegistry } from './registry.js';
import { IndexStatsStore, type MeasuredIndex } from './stats-store.js';

export interface IndexStats {
  numberOfDocuments: number;
  rawDocumentDbSize: number;
  avgDocumentSize: number;
  isIndexing: boolean;
  /** only when asked for: used bytes per non-empty internal database, largest first */
  internalDatabaseSizes?: Record<string, number>;
  numberOfEmbeddings: number;
  numberOfEmbeddedDocuments: number;
  fieldDistribution: Record<string, number>;
}

export interface InstanceStats {
  databaseSize: number;
  usedDatabaseSize: number;
  lastUpdate: Timestamp | null;
  indexes: Record<string, IndexStats>;
}

interface DbStats {
  pageSize: number;
  treeBranchPageCount: number;
  treeLeafPageCount: number;
  overflowPages: number;
  lastPageNumber?: number;
}

function usedBytes(db: Database<unknown, never> | RootDatabase): number {
  const stats = db.getStats() as DbStats;
  return (stats.treeBranchPageCount + stats.treeLeafPageCount + stats.overflowPages) * stats.pageSize;
}

function envSizes(root: RootDatabase, folder: string): { onDisk: number; used: number } {
  const stats = root.getStats() as DbStats;
  let onDisk = 0;
  try {
    onDisk = dataFileBytes(folder);
  } catch {
    onDisk = 0;
  }
  return { onDisk, used: ((stats.lastPageNumber ?? 0) + 1) * stats.pageSize };
}

/**
 * Meilisearch writes an index's creation metadata (dates, version) into its main database, which
 * therefore holds a page from the index's creation on; Quarry keeps that metadata in the instance
 * store, so main's first page is counted as if it were there. Without it, an index's first
 * settings or documents would show main growing from nothing.
 */
function metadataPage(name: string, db: Database<unknown, never>): number {
  return name === INDEX_DBS.main ? (db.getStats() as DbStats).pageSize : 0;
}

/**
 * Used bytes of each internal database of an index, named by its `INDEX_DBS` key (the camelCase
 * name Meilisearch shows) or `shardDocids` (the shard records a sharded network keeps, v1.50's
 * `shard_docids`), largest first, empty ones left out.
 */
export function databaseSizes(env: object): Record<string, number> {
  const sizes: [string, number][] = [];
  for (const name of [...Object.keys(INDEX_DBS), 'shardDocids']) {
    // IndexEnv exposes each database under its INDEX_DBS key.
    const db = (env as Record<string, Database<unknown, never> | undefined>)[name];
    const size = db === undefined ? 0 : Math.max(usedBytes(db), metadataPage(name, db));
    if (size > 0) sizes.push([name, size]);
  }
  return Object.fromEntries(sizes.sort((a, b) => b[1] - a[1]));
}

/** `databaseSizes` of an index just created, before anything is written to it: its metadata page. */
export function createdIndexSizes(env: object): Record<string, number> {
  const main = (env as Record<string, Database<unknown, never>>)[INDEX_DBS.main]!;
  return { main: metadataPage(INDEX_DBS.main, main) };
}

/**
 * The statistics of an index no batch has written: measured from its environment when it has one
 * (a primary key declared at creation, a search, a dump import made one), else empty with nothing
 * on disk and the page its creation metadata takes in main (`metadataPage`), without creating it.
 * `pageSize`: the instance environment's.
 */
export function measureUnwritten(envs: IndexEnvs, uuid: string, pageSize: number): MeasuredIndex {
  if (!existsSync(path.join(envs.folderOf(uuid), 'data.mdb'))) {
    return {
      numberOfDocuments: 0,
      rawDocumentDbSize: 0,
      fieldDistribution: {},
      numberOfEmbeddings: 0,
      numberOfEmbeddedDocuments: 0,
      internalDatabaseSizes: { main: pageSize },
      databaseSize: 0,
      usedDatabaseSize: 0,
    };
  }
  // leased, not borrowed: a first `GET /stats` may measure every index in one go
  const lease = envs.acquire(uuid);
  try {
    return measureIndex(lease.env, envs.folderOf(uuid));
  } finally {
    lease.release();
  }
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/** The largest binary unit not exceeding the value, at most 2 decimals, trailing zeros dropped. */
export function humanBinarySize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(2))} ${UNITS[unit]}`;
}

/**
 * A batch's `stats.internalDatabaseSizes` (tasks-batches.md §7): each internal database whose used
 * size the batch's index write changed, as `<size after> (+<growth>)` or `(-<shrink>)`, in the
 * databases' fixed order as Meilisearch lists its own. A database missing from a measure is empty.
 */
export function databaseSizeChanges(before: Record<string, number>, after: Record<string, number>): Record<string, string> {
  const changes: Record<string, string> = {};
  for (const name of Object.keys(INDEX_DBS)) {
    const pre = before[name] ?? 0;
    const post = after[name] ?? 0;
    if (pre === post) continue;
    changes[name] = `${humanBinarySize(post)} (${post > pre ? '+' : '-'}${humanBinarySize(Math.abs(post - pre))})`;
  }
  return changes;
}

/**
 * The statistics of the index whose environment is `env`, stored in `folder`. Measured right
 * after a write that another thread (the index writer) committed: this thread's read
 * transaction, which lmdb renews only a timer tick after a read, may still show the environment
 * as it was before, so it is renewed first.
 */
export function measureIndex(env: IndexEnv, folder: string): MeasuredIndex {
  env.root.resetReadTxn();
  const numberOfDocuments = env.documents.getCount();
  const distribution = (env.main.get(INDEX_MAIN_KEYS.fieldDistribution) ?? {}) as Record<string, number>;
  const sizes = envSizes(env.root, folder);
  return {
    numberOfDocuments,
    rawDocumentDbSize: numberOfDocuments === 0 ? 0 : usedBytes(env.documents as Database<unknown, never>),
    // `_vectors` is never counted, as v1.50's `iter_top_level_fields` skips it (an index without
    // embedders stores it in its documents)
    fieldDistribution: Object.fromEntries(
      Object.keys(distribution)
        .filter((k) => k !== '_vectors')
        .sort()
        .map((k) => [k, distribution[k]!]),
    ),
    ...embeddingCounts(env),
    internalDatabaseSizes: databaseSizes(env),
    databaseSize: sizes.onDisk,
    usedDatabaseSize: sizes.used,
  };
}

/**
 * v1.50's average value size of the documents database (milli database_stats.rs): its used bytes
 * less an estimated 8 bytes of key (a u32 and its overhead) per document, over the documents.
 */
function averageDocumentSize(rawDocumentDbSize: number, numberOfDocuments: number): number {
  return numberOfDocuments === 0 ? 0 : Math.floor(Math.max(0, rawDocumentDbSize - 8 * numberOfDocuments) / numberOfDocuments);
}

function indexStats(measured: MeasuredIndex, isIndexing: boolean, withDatabaseSizes: boolean): IndexStats {
  const { numberOfDocuments, rawDocumentDbSize } = measured;
  return {
    numberOfDocuments,
    rawDocumentDbSize,
    avgDocumentSize: averageDocumentSize(rawDocumentDbSize, numberOfDocuments),
    isIndexing,
    ...(withDatabaseSizes ? { internalDatabaseSizes: measured.internalDatabaseSizes } : {}),
    numberOfEmbeddings: measured.numberOfEmbeddings ?? 0,
    numberOfEmbeddedDocuments: measured.numberOfEmbeddedDocuments ?? 0,
    fieldDistribution: measured.fieldDistribution,
  };
}

export class StatsService {
  private readonly stored: IndexStatsStore;
  /**
   * Indexes no batch has written since their stats began to be stored (created empty, imported
   * from a dump, or older than this version), measured once: until a batch writes them, nothing
   * changes them.
   */
  private readonly unstored = new Map<string, MeasuredIndex>();

  constructor(
    private readonly store: InstanceStore,
    private readonly registry: IndexRegistry,
    private readonly envs: IndexEnvs,
    /** indexes touched by the running batch */
    private readonly indexing: () => ReadonlySet<string>,
  ) {
    this.stored = new IndexStatsStore(store);
  }

  index(record: IndexRecord, withDatabaseSizes = false): IndexStats {
    return indexStats(this.measured(record.uuid), this.indexing().has(record.uid), withDatabaseSizes);
  }

  /** `GET /stats`: sizes count every store; `lastUpdate` and `indexes` only what `canSee` allows. */
  instance(canSee: (uid: string) => boolean, withDatabaseSizes = false): InstanceStats {
    const all = this.registry.list();
    const instance = envSizes(this.store.root, path.join(this.store.dbPath, 'instance'));
    const indexing = this.indexing();
    let databaseSize = instance.onDisk;
    let usedDatabaseSize = instance.used;
    let lastUpdate: Timestamp | null = null;
    // keyed by index uid: `__proto__` is a uid like any other
    const indexes = ownRecord<IndexStats>();
    for (const record of all) {
      const measured = this.measured(record.uuid);
      databaseSize += measured.databaseSize;
      usedDatabaseSize += measured.usedDatabaseSize;
      if (!canSee(record.uid)) continue;
      if (lastUpdate === null || record.updatedAt > lastUpdate) lastUpdate = record.updatedAt;
      indexes[record.uid] = indexStats(measured, indexing.has(record.uid), withDatabaseSizes);
    }
    return { databaseSize, usedDatabaseSize, lastUpdate, indexes };
  }

  private measured(uuid: string): MeasuredIndex {
    const stored = this.stored.get(uuid);
    if (stored !== undefined) {
      this.unstored.delete(uuid);
      return stored;
    }
    let measured = this.unstored.get(uuid);
    if (measured === undefined) {
      // an index nothing opened yet (created, never written nor searched) is not opened, which
      // would create its environment (a first `GET /stats` over 1,000 new indexes created each,
      // 15 s of CPU with the event loop held); index creation stores what it made (index-ops.ts),
      // so only indexes older than that, or imported, are measured here
      measured = measureUnwritten(this.envs, uuid, this.stored.pageSize());
      // one with an environment (bytes on disk) is measured once: only a batch changes it, and
      // a batch stores what it measures
      if (measured.databaseSize > 0) this.unstored.set(uuid, measured);
    }
    return measured;
  }
}
