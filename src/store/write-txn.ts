/**
 * One write transaction for a group of writes on an environment. `writeTxn` opens one, or joins
 * the caller's when one is already open: lmdb's `transactionSync` would open a nested (child)
 * transaction instead, whose page copies cost more than the task-queue writes themselves, and we
 * never need a child's partial rollback since any error aborts the whole transaction.
 * `writeTxnAsync` runs the writes in lmdb's next asynchronous commit, so the disk flush happens
 * off the calling thread and is shared with the other writes of that commit; the writes still
 * land all together or not at all. `refuseWrites` closes an environment to writes for good.
 */
import type { RootDatabase } from 'lmdb';

const open = new WeakSet<RootDatabase>();
/** environments closed to writes, with the error a write gets */
const refused = new WeakMap<RootDatabase, () => Error>();

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
  const refusal = refused.get(root);
  if (refusal !== undefined) return Promise.reject(refusal());
  // A child of lmdb's batch transaction: an error rolls back these writes only.
  return root.childTransaction(() => joined(root, writes));
}

/**
 * Refuses every later write on `root`'s environment with `error()`. After a task-queue compaction
 * renamed its copy over `data.mdb`, the open environment maps the unlinked file: what it took
 * afterwards was lost at the restart (a deleted API key came back, a new webhook was gone; audit).
 * lmdb-js begins every synchronous write transaction (`putSync`, `removeSync`, `transactionSync`,
 * `clearSync`) with its environment's `beginTxn`, whichever database of it writes: refusing there
 * covers the stores that write without `writeTxn`; `writeTxnAsync` refuses before queuing.
 */
export function refuseWrites(root: RootDatabase, error: () => Error): void {
  refused.set(root, error);
  const { env } = root as unknown as { env: object };
  // the native method is read-only on its prototype: an own property of this environment shadows it
  Object.defineProperty(env, 'beginTxn', {
    value: () => {
      throw error();
    },
  });
}
