/**
 * Closes an LMDB environment and lets it go. lmdb-js records every database it opens in its
 * exported `allDbs` map (keyed by the folder's name and the database's) and never removes one,
 * so each environment a thread had opened and closed stayed reachable with its stores, cursors,
 * transactions and buffers: ~0.3 MB per index a server created and deleted (a reindex into a new
 * index swapped in, a tenant's index dropped), and per instance the library opened and closed.
 */
import * as lmdb from 'lmdb';
import type { RootDatabase } from 'lmdb';

/** lmdb-js's record of the databases opened in this thread (not in its type declarations). */
const opened = (lmdb as unknown as { allDbs?: Map<string, { env?: unknown }> }).allDbs;

export async function closeEnv(root: RootDatabase): Promise<void> {
  const env = (root as unknown as { env: unknown }).env;
  await root.close();
  if (opened === undefined) return;
  for (const [key, store] of opened) if (store.env === env) opened.delete(key);
}
