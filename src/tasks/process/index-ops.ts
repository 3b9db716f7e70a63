/**
 * Index creation, update (primary key, rename), deletion and swap (indexes.md §3). These
 * rewrite the registry (instance env), so their writes join the batch's single commit; deleting
 * an index's folder waits until that commit is durable. A primary key declared on an index
 * without documents is also numbered in its fields first (its own index write, which v1.50's
 * batch does not report as indexing: no step, no database sizes).
 *
 * Renames and swaps relabel the history as Meilisearch's `apply_index_swap` does: every task older
 * than the renaming task that names either index gets the other name, in both directions (so a
 * rename onto a name with a past also hands that past to the old name).
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexRecord } from '../../indexes/registry.js';
import type { PrimaryKeyWrite } from '../../engine/indexer/commit.js';
import type { IndexSwap, Task, TaskDetails } from '../../types/task.js';
import type { BatchProcessor, ProcessContext, ProcessOutcome } from './context.js';
import { reshardWrite } from '../../engine/shards/reshard.js';
import { measureUnwritten } from '../../indexes/stats.js';
import { failed, succeeded } from './outcome.js';
import { writeKnownOutcome } from './batch-write.js';

const notFound = (uid: string) => new ApiError('index_not_found', `Index \`${uid}\` not found.`);
const alreadyExists = (uid: string) => new ApiError('index_already_exists', `Index \`${uid}\` already exists.`);

/** The primary key a creation or update declares, numbered in the fields of an index without documents (engine/indexer/commit.ts). */
const primaryKeyWrite = (primaryKey: string): PrimaryKeyWrite => ({ kind: 'primaryKey', primaryKey });

function documentCount(ctx: ProcessContext, record: IndexRecord): number {
  return ctx.indexEnvs.get(record.uuid).documents.getCount();
}

export const processIndexCreation: BatchProcessor = async (ctx, tasks) => {
  const task = tasks[0];
  const kind = task!.kind;
  if (kind.name !== 'indexCreation') throw new Error(`indexCreation batch got ${kind.name}`);
  // Meilisearch creates the index, then applies its primary key as an index update.
  ctx.progress.enter('createIndex', 'creating the index');
  if (ctx.indexes.exists(kind.indexUid)) return { tasks: [failed(task!, alreadyExists(kind.indexUid))] };
  ctx.progress.enter('updateIndex', 'updating the index');
  const record = ctx.indexes.newRecord(kind.indexUid, kind.primaryKey, ctx.now);
  if (kind.primaryKey !== null) await ctx.writeIndex(record.uuid, primaryKeyWrite(kind.primaryKey));
  // an index the batch leaves uncreated (canceled) leaves no environment behind
  const abandon = () => ctx.indexEnvs.delete(record.uuid);
  // stored with the index, so that `GET /stats` need not open a thousand new indexes to find them empty
  const stats = measureUnwritten(ctx.indexEnvs, record.uuid, ctx.indexStats.pageSize());
  const outcome = {
    tasks: [succeeded(task!)],
    commit: () => {
      ctx.indexes.put(record);
      ctx.indexStats.put(record.uuid, stats);
    },
    abandon,
  };
  // with a sharded network the new index knows every shard from the start (engine/shards)
  return ctx.sharding ? writeKnownOutcome(ctx, kind.indexUid, tasks, record.uuid, reshardWrite(ctx.sharding), outcome) : outcome;
};

export const processIndexUpdate: BatchProcessor = async (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'indexUpdate') throw new Error(`indexUpdate batch got ${kind.name}`);
  ctx.progress.enter('updateIndex', 'updating the index');
  const record = ctx.indexes.get(kind.indexUid);
  if (record === undefined) return { tasks: [failed(task!, notFound(kind.indexUid))] };
  const renameTo = kind.newIndexUid !== null && kind.newIndexUid !== kind.indexUid ? kind.newIndexUid : null;
  if (renameTo !== null && ctx.indexes.exists(renameTo)) return { tasks: [failed(task!, alreadyExists(renameTo))] };
  // A primary key may be replaced freely while the index holds no document.
  const empty = documentCount(ctx, record) === 0;
  if (kind.primaryKey !== null && kind.primaryKey !== record.primaryKey && !empty) {
    const message = `Index \`${kind.indexUid}\`: Index already has a primary key: \`${record.primaryKey}\`.`;
    return { tasks: [failed(task!, new ApiError('index_primary_key_already_exists', message))] };
  }
  if (kind.primaryKey !== null && empty) await ctx.writeIndex(record.uuid, primaryKeyWrite(kind.primaryKey));
  // Only a primary key or a rename writes to the index, and so moves `updatedAt`.
  const touched = kind.primaryKey !== null || renameTo !== null;
  return {
    tasks: [succeeded(task!)],
    commit: () => {
      if (!touched) return;
      const updated: IndexRecord = {
        ...record,
        uid: renameTo ?? record.uid,
        primaryKey: kind.primaryKey ?? record.primaryKey,
        updatedAt: ctx.now,
      };
      if (renameTo !== null) {
        ctx.queue.relabelIndexes(new Map([[record.uid, renameTo], [renameTo, record.uid]]), task!.uid);
        ctx.indexes.remove(record.uid);
      }
      ctx.indexes.put(updated);
    },
  };
};

/** What a task of a deletion batch reports besides the deletion itself (Meilisearch's `default_finished_details`). */
function untouched(details: TaskDetails | null): TaskDetails | null {
  switch (details?.kind) {
    case 'documentAdditionOrUpdate':
      return { ...details, indexedDocuments: 0 };
    case 'documentEdition':
      return { ...details, editedDocuments: 0, deletedDocuments: 0 };
    case 'documentDeletion':
    case 'documentDeletionByFilter':
      return { ...details, deletedDocuments: 0 };
    case 'clearAll':
      return { ...details, deletedDocuments: null };
    default:
      return details ?? null;
  }
}

/**
 * A deletion batch may carry earlier tasks of the same index: they succeed with nothing done. A
 * missing index fails the whole batch, unless the batch itself was allowed to create it (then it
 * is created and deleted at once, which leaves nothing to do).
 */
export const processIndexDeletion: BatchProcessor = (ctx, tasks, next) => {
  ctx.progress.enter('deleteIndex', 'deleting the index');
  const indexUid = next.indexUid!;
  const record = ctx.indexes.get(indexUid);
  if (record === undefined && !next.mustCreateIndex) {
    const error = notFound(indexUid);
    return { tasks: tasks.map((task) => failed(task, error)) };
  }
  const deleted = record === undefined ? 0 : documentCount(ctx, record);
  const finished = tasks.map((task): Task =>
    task.kind.name === 'indexDeletion'
      ? succeeded(task, { kind: 'clearAll', deletedDocuments: deleted })
      : succeeded(task, untouched(task.details)),
  );
  if (record === undefined) return { tasks: finished };
  return {
    tasks: finished,
    commit: () => {
      ctx.indexes.remove(indexUid);
      ctx.indexStats.remove(record.uuid);
    },
    afterCommit: () => ctx.indexEnvs.delete(record.uuid),
  };
};

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function backticks(uids: readonly string[]): string {
  return uids.map((uid) => `\`${uid}\``).join(', ');
}

/** Every pair is checked before anything moves, as Meilisearch does. */
function checkSwaps(ctx: ProcessContext, swaps: readonly IndexSwap[]): ApiError | null {
  const missing = new Set<string>();
  const conflicts: [string, string][] = [];
  for (const { indexes: [a, b], rename } of swaps) {
    if (!ctx.indexes.exists(a)) missing.add(a);
    if (rename) {
      if (ctx.indexes.exists(b)) conflicts.push([a, b]);
    } else if (!ctx.indexes.exists(b)) {
      missing.add(b);
    }
  }
  if (missing.size > 0) {
    const sorted = [...missing].sort();
    return new ApiError(
      'index_not_found',
      sorted.length === 1 ? `Index \`${sorted[0]}\` not found.` : `Indexes ${backticks(sorted)} not found.`,
    );
  }
  if (conflicts.length === 1) {
    const [a, b] = conflicts[0]!;
    return new ApiError(
      'index_already_exists',
      `Cannot rename \`${a}\` to \`${b}\` as the index already exists. Hint: You can remove \`${b}\` first and then do your remove.`,
    );
  }
  if (conflicts.length > 1) {
    // Meilisearch keeps the conflicting pairs in a sorted set: ordered by source, then target.
    const targets = conflicts.sort(([a1, b1], [a2, b2]) => (a1 === a2 ? compare(b1, b2) : compare(a1, a2))).map(([, b]) => b);
    return new ApiError(
      'index_already_exists',
      `The following indexes are being renamed but cannot because their new name conflicts with an already existing index: ${backticks(targets)}. Renaming doesn't overwrite the other index name.`,
    );
  }
  return null;
}

export const processIndexSwap: BatchProcessor = (ctx, [task]): ProcessOutcome => {
  const kind = task!.kind;
  if (kind.name !== 'indexSwap') throw new Error(`indexSwap batch got ${kind.name}`);
  ctx.progress.enter('swap', 'ensuring correctness of the swap');
  const problem = checkSwaps(ctx, kind.swaps);
  if (problem !== null) return { tasks: [failed(task!, problem)] };
  ctx.progress.enter('swap', 'swapping the indexes');
  return {
    tasks: [succeeded(task!)],
    commit: () => {
      const mapping = new Map<string, string>();
      for (const { indexes: [a, b], rename } of kind.swaps) {
        // Names move, the data and its dates stay with their records.
        const first = ctx.indexes.get(a)!;
        const second = rename ? undefined : ctx.indexes.get(b)!;
        ctx.indexes.put({ ...first, uid: b });
        if (second === undefined) ctx.indexes.remove(a);
        else ctx.indexes.put({ ...second, uid: a });
        mapping.set(a, b).set(b, a);
      }
      ctx.queue.relabelIndexes(mapping, task!.uid);
    },
  };
};
