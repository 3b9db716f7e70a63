/**
 * Makes an environment that a compacting copy wrote safe to write (index compaction, task queue
 * compaction, snapshots, the storage upgrade's copies, and snapshots older versions made).
 *
 * A compacting copy keeps the source's transaction id but no free pages, so its free-page database
 * is empty. lmdb-js 3.5's free-page loader then fails an assertion (`key.mv_size > 0` in
 * `mdb_page_alloc`, which aborts the whole process) in the first write transaction large enough
 * to load free pages twice: re-sending a compacted index's documents killed the server. One
 * committed change that frees a page gives the free-page database an entry, and every later
 * commit leaves one, so one small write on opening such an environment is enough.
 */
import type { RootDatabase } from 'lmdb';

/** A key no database of Quarry uses, written and removed in one transaction. */
const SETTLE_KEY = 'quarry:settle-compacted-copy';

/** Whether `root` is in a compacting copy's state: past its first transaction, no free page recorded. */
export function isUnsettledCopy(root: RootDatabase): boolean {
  const { free, lastTxnId } = root.getStats() as { free: { entryCount: number }; lastTxnId: number };
  return free.entryCount === 0 && lastTxnId > 1;
}

/** Commits one change that leaves nothing behind in an environment `isUnsettledCopy` finds, before any other write. */
export function settleCompactedEnv(root: RootDatabase): void {
  if (!isUnsettledCopy(root)) return;
  root.transactionSync(() => {
    root.putSync(SETTLE_KEY, true);
    root.removeSync(SETTLE_KEY);
  });
}
