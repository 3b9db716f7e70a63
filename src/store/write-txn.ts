/**
 * One write transaction for a group of writes on an environment. `writeTxn` opens one, or joins
 * the caller's when one is already open: lmdb's `transactionSync` would open a nested (child)
 * transaction instead, whose page copies cost more than the task-queue writes themselves, and we
 * never need a child's partial rollback since any error aborts the whole transaction.
 * `writeTxnAsync` runs the writes in lmdb's next asynchronous commit, so the disk flush happens
 * off the calling thread and is shared with the other writes of that commit; the writes still
 * land all together or not at all.
 */
import type { RootDatabase } from 'lmdb';

const open = new WeakSet<RootDatabase>();

function joined<T>(root: RootDatabase, writes: () => T): T {
  open.add(root);
  try {
    return writes();
  } finally {
    open.delete(root);
  }
}

export function writeTxn<T>(root: RootDatabase, writes: () => T): T {
  if (open.has(root)) return writes();
  return joined(root, () => root.transactionSync(writes));
}

/** Resolves once the writes are committed and flushed. */
export function writeTxnAsync<T>(root: RootDatabase, writes: () => T): Promise<T> {
  // A child of lmdb's batch transaction: an error rolls back these writes only.
  return root.childTransaction(() => joined(root, writes));
}
