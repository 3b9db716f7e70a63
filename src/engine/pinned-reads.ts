/**
 * An index's reads held on one snapshot across event-loop turns. lmdb-js shares one read
 * transaction between the reads of a turn and renews it at the next timer turn, so a request
 * that reads in slices, giving other requests turns between them (a list of 100,000 documents),
 * would see a write committed meanwhile: a document deleted between two slices would be missing
 * from a list whose `total` counted it. `pinReads` takes the transaction of the current turn and
 * passes it to every read of the environment it gives, until `release`. A read-only bundle
 * (bundle/reader.ts) never changes: it is given as it is. No Node built-in or lmdb import here:
 * the browser build loads the engine.
 */
import { INDEX_DBS, type IndexReadEnv, type ReadDb, type ReadRange } from './index-read-env.js';

/** lmdb's read transaction, as `useReadTransaction` gives it: used until `done`. */
interface ReadTransaction {
  done(): void;
}

/** The reads of an lmdb database that take a transaction. */
interface TransactionalDb<V, K> {
  get(key: K, options: { transaction: ReadTransaction }): V | undefined;
  getBinary(key: K, options: { transaction: ReadTransaction }): Buffer | undefined;
  getBinaryFast(key: K, options: { transaction: ReadTransaction }): Buffer | undefined;
  getRange(range: ReadRange<K> & { transaction: ReadTransaction }): Iterable<{ key: K; value: V }>;
  getKeys(range: ReadRange<K> & { transaction: ReadTransaction }): Iterable<K>;
  getCount(range: { transaction: ReadTransaction }): number;
}

/** An environment whose reads stay on one snapshot until `release` (idempotent). */
export interface PinnedReads {
  readonly env: IndexReadEnv;
  release(): void;
}

function pinnedDb<V, K>(db: ReadDb<V, K>, transaction: ReadTransaction): ReadDb<V, K> {
  const lmdb = db as unknown as TransactionalDb<V, K>;
  const options = { transaction };
  return {
    get: (key) => lmdb.get(key, options),
    getBinary: (key) => lmdb.getBinary(key, options),
    getBinaryFast: (key) => lmdb.getBinaryFast(key, options),
    getRange: (range = {}) => lmdb.getRange({ ...range, transaction }),
    getKeys: (range = {}) => lmdb.getKeys({ ...range, transaction }),
    getCount: () => lmdb.getCount(options),
  };
}

/** `env`'s reads on the snapshot the current turn reads. */
export function pinReads(env: IndexReadEnv): PinnedReads {
  const root = (env as { root?: { useReadTransaction?: () => ReadTransaction } }).root;
  if (root?.useReadTransaction === undefined) return { env, release: () => undefined };
  const transaction = root.useReadTransaction();
  const pinned: Record<string, unknown> = { uuid: env.uuid };
  const source = env as unknown as Record<string, ReadDb<unknown, unknown> | undefined>;
  // the databases of INDEX_DBS, and the shards' (an LMDB environment's only)
  for (const name of [...Object.keys(INDEX_DBS), 'shardDocids']) {
    const db = source[name];
    if (db !== undefined) pinned[name] = pinnedDb(db, transaction);
  }
  let released = false;
  return {
    env: pinned as unknown as IndexReadEnv,
    release: () => {
      if (released) return;
      released = true;
      transaction.done();
    },
  };
}
