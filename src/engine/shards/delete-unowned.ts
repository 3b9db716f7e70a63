/**
 * The last step of a topology change (network.md §6 step 4, v1.50's `delete_removed_shards`):
 * deleting the documents of every shard this instance no longer owns, through the ordinary
 * deletion path of a document batch (document store, words, facets, vectors and `shard-docids`
 * updated together, indexer/document-batch.ts). The count it answers is the task's
 * `movedDocuments` share for the index.
 */
import type { Sharding } from './shard-of.js';

/** A DocumentsWrite (indexer/commit.ts) of one `deleteUnowned` operation; spelled out here, as indexer/ imports this folder. */
export interface DeleteUnownedWrite {
  readonly kind: 'documents';
  readonly ops: readonly [{ readonly op: 'deleteUnowned'; readonly owned: readonly string[] }];
  readonly primaryKey: string | null;
}

/**
 * The IndexWrite deleting every document recorded in a shard not in `sharding.owned`; run it with
 * `writeIndex` (workers/index-writer.ts), whose outcome's `results[0].count` is how many were
 * deleted. `primaryKey`: the index's (IndexRecord.primaryKey).
 */
export function deleteUnownedWrite(sharding: Sharding, primaryKey: string | null): DeleteUnownedWrite {
  return { kind: 'documents', ops: [{ op: 'deleteUnowned', owned: [...sharding.owned] }], primaryKey };
}

/** How many documents a `deleteUnownedWrite` deleted, from its outcome. */
export function deletedCount(outcome: { readonly results: readonly ({ readonly count: number } | { readonly error: unknown })[] }): number {
  const result = outcome.results[0];
  return result !== undefined && 'count' in result ? result.count : 0;
}
