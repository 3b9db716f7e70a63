/**
 * One LMDB environment per index, under `<db path>/indexes/<uuid>/`, so deleting an index is a
 * folder removal and swapping or renaming one only touches the registry. This module opens
 * those environments (a bounded number at a time, open-handles.ts), deletes them and declares the
 * databases inside them.
 * Only the scheduler writes to an index environment; searches read it.
 */
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { tooManyOpenFiles } from '../errors/os-errors.js';
import { checkSpareDescriptors, openFilesLimit } from './descriptors.js';
import { OpenHandles } from './open-handles.js';

/** Database names of an index environment, declared once. */
export const INDEX_DBS = {
  /** small per-index values: field ids, settings, stats (see INDEX_MAIN_KEYS) */
  main: 'main',
  /** internal docid (u32) → stored document */
  documents: 'documents',
  /** external document id → internal docid */
  externalIds: 'external-ids',
  /** facet key (field id · kind · value) → docids (engine/facets/store.ts) */
  facetDocids: 'facet-docids',
  /** internal docid → its `_geo` point, while geo is enabled (engine/facets/store.ts) */
  geoPoints: 'geo-points',
  /** normalised word → its posting: docids with per-document field mask and first position (engine/words/postings.ts) */
  wordDocids: 'word-docids',
  /** word prefix (1 to 3 characters) → the union posting of the words it starts (engine/words/postings.ts) */
  prefixDocids: 'word-prefix-docids',
  /** the blocks of the largest word and prefix postings after their first (engine/words/posting-blocks.ts) */
  postingBlocks: 'posting-blocks',
  /** internal docid → its searchable words with fields and positions (engine/search/forward.ts) */
  docWords: 'docid-words',
  /** normalised word → its id (u32 LE): the typo dictionary, in key (UTF-8 byte) order */
  wordIds: 'word-ids',
  /** embedder id (u16 BE) · docid (u32 BE) → the document's vector entry: item ids, status, embedded text (engine/vectors/store.ts) */
  vectorDocs: 'vector-docs',
  /** embedder id (u16 BE) · item id (u32 BE) → the item's docid and vector, f32 or sign bits (engine/vectors/store.ts) */
  vectorItems: 'vector-items',
  /** embedder id (u16 BE) · item id (u32 BE) → the item's HNSW level and neighbour lists (engine/vectors/store.ts) */
  vectorLinks: 'vector-links',
} as const;

export const INDEX_MAIN_KEYS = {
  /** the storage format of this environment (store/env.ts STORE_FORMAT_VERSION); none: its instance's format */
  format: 'format',
  /** the last batch whose write this environment committed, with its tasks' outcomes (engine/applied-batch.ts) */
  appliedBatch: 'applied-batch',
  nextDocid: 'next-docid',
  fieldDistribution: 'field-distribution',
  /** facet field id → path (engine/facets/store.ts) */
  facetFields: 'facet-fields',
  /** every internal docid, as a DocSet (engine/facets/store.ts) */
  documentsIds: 'documents-ids',
  /** a fresh random id with every write of documents-ids, so searches keep their decoded copy until then */
  documentsIdsVersion: 'documents-ids-version',
  /** a fresh random id with every batch writing documents, so searches keep the documents they decoded until then */
  documentsVersion: 'documents-version',
  /** next word id to allocate (engine/words/word-index.ts) */
  nextWordId: 'next-word-id',
  /** searchable field paths in search-field-id order (engine/words/word-index.ts) */
  searchFields: 'search-fields',
  /** bumped whenever the set of indexed words changes, to reload the typo dictionary */
  wordsVersion: 'words-version',
  /** embedder name → its vector store state: id, dimensions, quantization, graph entry point (engine/vectors/store.ts) */
  vectorEmbedders: 'vector-embedders',
  /** a fresh random id with every batch writing vectors, so searches keep their loaded graphs until then */
  vectorsVersion: 'vectors-version',
  /** the last writes' changed vector items per embedder, from version to version (engine/vectors/store.ts) */
  vectorsJournal: 'vectors-journal',
} as const;

export interface IndexEnv {
  readonly uuid: string;
  readonly root: RootDatabase;
  readonly main: Database<unknown, string>;
  /** documents keep their keys in field-id order (msgpack preserves it) */
  readonly documents: Database<Record<string, unknown>, number>;
  readonly externalIds: Database<number, string>;
  readonly facetDocids: Database<Buffer, Buffer>;
  readonly geoPoints: Database<Buffer, number>;
  readonly wordDocids: Database<Buffer, string>;
  readonly prefixDocids: Database<Buffer, string>;
  readonly postingBlocks: Database<Buffer, Buffer>;
  readonly docWords: Database<Buffer, number>;
  readonly wordIds: Database<Buffer, string>;
  readonly vectorDocs: Database<unknown, Buffer>;
  readonly vectorItems: Database<Buffer, Buffer>;
  readonly vectorLinks: Database<Buffer, Buffer>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
  return {
    uuid,
    root,
    main: root.openDB<unknown, string>({ name: INDEX_DBS.main }),
    documents: root.openDB<Record<string, unknown>, number>({ name: INDEX_DBS.documents, keyEncoding: 'uint32' }),
    externalIds: root.openDB<number, string>({ name: INDEX_DBS.externalIds }),
    facetDocids: root.openDB<Buffer, Buffer>({ name: INDEX_DBS.facetDocids, keyEncoding: 'binary', encoding: 'binary' }),
    geoPoints: root.openDB<Buffer, number>({ name: INDEX_DBS.geoPoints, keyEncoding: 'uint32', encoding: 'binary' }),
    wordDocids: root.openDB<Buffer, string>({ name: INDEX_DBS.wordDocids, encoding: 'binary' }),
    prefixDocids: root.openDB<Buffer, string>({ name: INDEX_DBS.prefixDocids, encoding: 'binary' }),
    postingBlocks: root.openDB<Buffer, Buffer>({ name: INDEX_DBS.postingBlocks, keyEncoding: 'binary', encoding: 'binary' }),
    docWords: root.openDB<Buffer, number>({ name: INDEX_DBS.docWords, keyEncoding: 'uint32', encoding: 'binary' }),
    wordIds: root.openDB<Buffer, string>({ name: INDEX_DBS.wordIds, encoding: 'binary' }),
    vectorDocs: root.openDB<unknown, Buffer>({ name: INDEX_DBS.vectorDocs, keyEncoding: 'binary' }),
    vectorItems: root.openDB<Buffer, Buffer>({ name: INDEX_DBS.vectorItems, keyEncoding: 'binary', encoding: 'binary' }),
    vectorLinks: root.openDB<Buffer, Buffer>({ name: INDEX_DBS.vectorLinks, keyEncoding: 'binary', encoding: 'binary' }),
  };
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
      (env) => void env.root.close(),
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

  /** Closes and removes the environment's folder. */
  async delete(uuid: string): Promise<void> {
    await this.open.take(uuid)?.root.close();
    rmSync(this.folderOf(uuid), { recursive: true, force: true });
  }

  /**
   * Replaces the environment's data file with `dataFile` (a compacted copy made by
   * `root.backup`): closes the open environment first so no handle keeps writing to the old
   * file, then the next `get` reopens it on the new one.
   */
  async replaceData(uuid: string, dataFile: string): Promise<void> {
    await this.open.take(uuid)?.root.close();
    renameSync(dataFile, path.join(this.folderOf(uuid), 'data.mdb'));
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.open.takeAll().map((env) => env.root.close()));
  }
}
