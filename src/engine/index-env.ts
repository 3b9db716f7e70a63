/**
 * One LMDB environment per index, under `<db path>/indexes/<uuid>/`, so deleting an index is a
 * folder removal and swapping or renaming one only touches the registry. This module opens
 * those environments (a bounded number at a time, open-handles.ts), deletes them and declares the
 * databases inside them (named, with their key and value encodings, in index-read-env.ts).
 * Only the scheduler writes to an index environment; searches read it.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { closeEnv } from '../store/close-env.js';
import { settleCompactedEnv } from '../store/compacted-env.js';
import { countedFromHeader } from '../store/header-count.js';
import { JSON_DOCUMENT_VALUES } from '../store/json-documents.js';
import { PROTO_SAFE_VALUES } from '../store/proto-safe-packr.js';
import { tooManyOpenFiles } from '../errors/os-errors.js';
import { checkSpareDescriptors, openFilesLimit } from './descriptors.js';
import { INDEX_DB_KEYS, INDEX_DB_VALUES, INDEX_DBS, SHARD_DOCIDS_DB, type IndexReadEnv } from './index-read-env.js';
import { OpenHandles } from './open-handles.js';

/** An index's LMDB environment: its databases read as `IndexReadEnv` says, and written. */
export interface IndexEnv extends IndexReadEnv {
  readonly root: RootDatabase;
  readonly main: Database<unknown, string>;
  /** documents keep their keys in field-id order (their JSON text preserves it) */
  readonly documents: Database<Record<string, unknown>, number>;
  readonly externalIds: Database<number, string>;
  readonly facetDocids: Database<Buffer, Buffer>;
  readonly geoPoints: Database<Buffer, number>;
  readonly geojsonShapes: Database<Buffer, number>;
  readonly wordDocids: Database<Buffer, string>;
  readonly prefixDocids: Database<Buffer, string>;
  readonly postingBlocks: Database<Buffer, Buffer>;
  readonly docWords: Database<Buffer, number>;
  readonly wordIds: Database<Buffer, string>;
  readonly vectorDocs: Database<unknown, Buffer>;
  readonly vectorItems: Database<Buffer, Buffer>;
  readonly vectorLinks: Database<Buffer, Buffer>;
  readonly shardDocids: Database<Buffer, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The `openDB` options of each value encoding: msgpack values (the field distribution) and JSON documents keep a `__proto__` key. */
const VALUE_OPTIONS = { binary: { encoding: 'binary' as const }, msgpack: PROTO_SAFE_VALUES, json: JSON_DOCUMENT_VALUES };

/** An index's initial memory map: room for a mid-sized index before the first growth. */
const INITIAL_MAP_BYTES = 1024 ** 3;

/**
 * Opens the environment in `folder`. The scheduler's index writer thread opens its own handle on
 * the same files for each write (workers/index-writer.ts); LMDB serialises the writers.
 */
export function openIndexEnv(folder: string, uuid: string): IndexEnv {
  mkdirSync(folder, { recursive: true });
  checkSpareDescriptors();
  // The map starts at INITIAL_MAP_BYTES and lmdb-js doubles it when a write needs more. A fixed
  // 2 TiB map (Meilisearch's default) reserved so much address space per open environment that
  // the 128 TiB of a process ran out around the 32nd index and the next open segfaulted.
  // MDB_WRITEMAP: a batch's dirty pages go straight to the (sparse) file instead of the heap, so a
  // large batch does not hold its whole written index in anonymous memory until it commits.
  const root = open({ path: folder, maxDbs: 64, mapSize: INITIAL_MAP_BYTES, compression: false, useWritemap: true });
  // a compacted index (compaction, a snapshot, an upgrade's copy) crashes lmdb-js's first large write
  settleCompactedEnv(root);
  const options = (db: keyof typeof INDEX_DBS) => ({
    name: INDEX_DBS[db],
    ...(INDEX_DB_KEYS[db] === 'string' ? {} : { keyEncoding: INDEX_DB_KEYS[db] }),
    ...VALUE_OPTIONS[INDEX_DB_VALUES[db]],
  });
  return {
    uuid,
    root,
    main: root.openDB<unknown, string>(options('main')),
    documents: countedFromHeader(root.openDB<Record<string, unknown>, number>(options('documents'))),
    externalIds: root.openDB<number, string>(options('externalIds')),
    facetDocids: root.openDB<Buffer, Buffer>(options('facetDocids')),
    geoPoints: root.openDB<Buffer, number>(options('geoPoints')),
    geojsonShapes: root.openDB<Buffer, number>(options('geojsonShapes')),
    wordDocids: root.openDB<Buffer, string>(options('wordDocids')),
    prefixDocids: root.openDB<Buffer, string>(options('prefixDocids')),
    postingBlocks: root.openDB<Buffer, Buffer>(options('postingBlocks')),
    docWords: root.openDB<Buffer, number>(options('docWords')),
    wordIds: root.openDB<Buffer, string>(options('wordIds')),
    vectorDocs: root.openDB<unknown, Buffer>(options('vectorDocs')),
    vectorItems: root.openDB<Buffer, Buffer>(options('vectorItems')),
    vectorLinks: root.openDB<Buffer, Buffer>(options('vectorLinks')),
    shardDocids: root.openDB<Buffer, string>({ name: SHARD_DOCIDS_DB, encoding: 'binary' }),
  };
}

/** Closes an index environment opened by `openIndexEnv`, leaving nothing of it in memory. */
export function closeIndexEnv(env: IndexEnv): Promise<void> {
  return closeEnv(env.root);
}

/**
 * The bytes an environment's data file (`<folder>/data.mdb`) holds on disk: its allocated
 * blocks, since MDB_WRITEMAP makes the file sparse at the map size.
 */
export function dataFileBytes(folder: string): number {
  const file = statSync(path.join(folder, 'data.mdb'));
  return Math.min(file.size, file.blocks * 512);
}

/**
 * How many index environments stay open at once when idle (Meilisearch keeps 20): each holds two
 * file descriptors and a memory map of at least INITIAL_MAP_BYTES, so a thousand of them ran out
 * of descriptors under `ulimit -n 1024`. Under a lower limit, fewer: their descriptors stay within
 * a quarter of the limit. Reopening one costs a millisecond or so, plus the caches searches
 * derive from it (entry-cache.ts).
 */
export function openIndexEnvsCapacity(limit = openFilesLimit()): number {
  const MOST = 64;
  return limit === null ? MOST : Math.max(1, Math.min(MOST, Math.floor(limit / 8)));
}

/** A use of an index environment across awaits: it stays open until `release`. */
export interface IndexEnvLease {
  readonly env: IndexEnv;
  release(): void;
}

export class IndexEnvs {
  private readonly open: OpenHandles<IndexEnv>;
  private readonly dir: string;

  constructor(dbPath: string, capacity = openIndexEnvsCapacity()) {
    this.dir = path.join(dbPath, 'indexes');
    mkdirSync(this.dir, { recursive: true });
    this.open = new OpenHandles(
      capacity,
      (uuid) => {
        try {
          return openIndexEnv(this.folderOf(uuid), uuid);
        } catch (err) {
          throw tooManyOpenFiles(err);
        }
      },
      (env) => void closeIndexEnv(env),
    );
  }

  folderOf(uuid: string): string {
    return path.join(this.dir, uuid);
  }

  /** The uuids of the environment folders on disk, used or not. */
  storedUuids(): string[] {
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && UUID.test(entry.name))
      .map((entry) => entry.name);
  }

  /**
   * The environment of the index stored under `uuid`, opened if needed, for synchronous use: it
   * stays open until the current turn of the event loop ends. Across awaits, use `acquire`.
   */
  get(uuid: string): IndexEnv {
    return this.open.borrow(uuid);
  }

  /** The environment of the index stored under `uuid`, kept open until the lease is released. */
  acquire(uuid: string): IndexEnvLease {
    const lease = this.open.acquire(uuid);
    return { env: lease.handle, release: lease.release };
  }

  /** Runs `use` with the environment of `uuid` kept open until it settles. */
  async use<T>(uuid: string, use: (env: IndexEnv) => Promise<T>): Promise<T> {
    const lease = this.acquire(uuid);
    try {
      return await use(lease.env);
    } finally {
      lease.release();
    }
  }

  /**
   * The environment of each of `records` in turn, for a walk over every index that awaits in
   * between (dumps, snapshots): each is kept open until the walk asks for the next one, so the
   * walk holds one at a time.
   */
  *each<R extends { readonly uuid: string }>(records: Iterable<R>): Generator<[R, IndexEnv]> {
    for (const record of records) {
      const lease = this.acquire(record.uuid);
      try {
        yield [record, lease.env];
      } finally {
        lease.release();
      }
    }
  }

  /**
   * Closes and removes the environment's folder, once the reads using it are done (the index's
   * record is gone by then: no new read finds it).
   */
  async delete(uuid: string): Promise<void> {
    await this.closeIdle(uuid);
    rmSync(this.folderOf(uuid), { recursive: true, force: true });
  }

  /**
   * Replaces the environment's data file with `dataFile` (a compacted copy made by
   * `root.backup`): closes the open environment first, once the reads using it are done, so no
   * handle keeps writing to the old file, then the next `get` reopens it on the new one.
   */
  async replaceData(uuid: string, dataFile: string): Promise<void> {
    await this.closeIdle(uuid);
    renameSync(dataFile, path.join(this.folderOf(uuid), 'data.mdb'));
  }

  /** Closes the environment once the reads using it are done (if it is open); the next `get` opens it again. */
  private async closeIdle(uuid: string): Promise<void> {
    await this.open.whenIdle(uuid);
    const env = this.open.take(uuid);
    if (env !== undefined) await closeIndexEnv(env);
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.takeAll().map(closeIndexEnv));
  }
}
