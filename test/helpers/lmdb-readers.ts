/**
 * The reader slots an LMDB environment has in use (lmdb-js's `readerList`: one line per slot
 * under a header). A read left open (a cursor not returned) pins its read transaction and its
 * slot past each commit; the environment has 126, then every read fails with MDB_READERS_FULL.
 */
export function readerSlots(root: object): number {
  const list = (root as { readerList(): string }).readerList();
  return list.split('\n').filter((line) => /^\s*\d/.test(line)).length;
}

/** Lets lmdb-js end its current read transaction (it resets it on a timer), so the next read takes a new snapshot. */
export function nextReadSnapshot(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1));
}
