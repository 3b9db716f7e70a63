/**
 * A database whose count of all its entries is read from its B-tree's header (`mdb_stat`, in the
 * transaction `getCount` reads: the write transaction while one runs, else the current snapshot)
 * instead of walked: lmdb-js's `getCount()` iterates every entry, 21–26 ms over debdocs' 253,170
 * documents, and every `GET …/documents` page and every index's stats asked it. A count of a
 * range still walks that range.
 */
import type { Database, RangeOptions } from 'lmdb';

export function countedFromHeader<D extends Database>(db: D): D {
  const walk = db.getCount.bind(db);
  db.getCount = (range?: RangeOptions) => (range === undefined ? (db.getStats() as { entryCount: number }).entryCount : walk(range));
  return db;
}
