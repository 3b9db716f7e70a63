/**
 * Index creation, update (primary key, rename), deletion and swap (indexes.md §3). These only
 * rewrite the registry (instance env), so their writes join the batch's single commit; deleting
 * an index's folder waits until that commit is durable.
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexRecord } from '../../indexes/registry.js';
import type { IndexSwap, Task } from '../../types/task.js';
import type { BatchProcessor, ProcessContext, ProcessOutcome } from './context.js';
import { failed, succeeded } from './outcome.js';

const notFound = (uid: string) => new ApiError('index_not_found', `Index \`${uid}\` not found.`);
const alreadyExists = (uid: string) => new ApiError('index_already_exists', `Index \`${uid}\` already exists.`);

function documentCount(ctx: ProcessContext, record: IndexRecord): number {
  return ctx.indexEnvs.get(record.uuid).documents.getCount();
}

export const processIndexCreation: BatchProcessor = (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'indexCreation') throw new Error(`indexCreation batch got ${kind.name}`);
  if (ctx.indexes.exists(kind.indexUid)) return { tasks: [failed(task!, alreadyExists(kind.indexUid))] };
  return {
    tasks: [succeeded(task!)],
    commit: () => void ctx.indexes.create(kind.indexUid, kind.primaryKey, ctx.now),
  };
};

export const processIndexUpdate: BatchProcessor = (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'indexUpdate') throw new Error(`indexUpdate batch got ${kind.name}`);
  const record = ctx.indexes.get(kind.indexUid);
  if (record === undefined) return { tasks: [failed(task!, notFound(kind.indexUid))] };
  const renameTo = kind.newIndexUid !== null && kind.newIndexUid !== kind.indexUid ? kind.newIndexUid : null;
  if (renameTo !== null && ctx.indexes.exists(renameTo)) return { tasks: [failed(task!, alreadyExists(renameTo))] };
  const primaryKey = kind.primaryKey ?? record.primaryKey;
  if (kind.primaryKey !== null && kind.primaryKey !== record.primaryKey && record.primaryKey !== null && documentCount(ctx, record) > 0) {
    return {
      tasks: [
        failed(task!, new ApiError('index_primary_key_already_exists', `Index \`${kind.indexUid}\`: Index already has a primary key: \`${record.primaryKey}\`.`)),
      ],
    };
  }
  return {
    tasks: [succeeded(task!)],
    commit: () => {
      const updated: IndexRecord = { ...record, uid: renameTo ?? record.uid, primaryKey, updatedAt: ctx.now };
      if (renameTo !== null) {
        ctx.indexes.remove(record.uid);
        ctx.queue.relabelIndexes(new Map([[record.uid, renameTo]]), task!.uid);
      }
      ctx.indexes.put(updated);
    },
  };
};

/** Deletion batches may carry earlier tasks of the same index: they succeed with nothing done. */
export const processIndexDeletion: BatchProcessor = (ctx, tasks) => {
  const indexUid = (tasks[0]!.kind as { indexUid: string }).indexUid;
  const record = ctx.indexes.get(indexUid);
  const deleted = record === undefined ? 0 : documentCount(ctx, record);
  const finished = tasks.map((task): Task => {
    const details = task.details;
    if (task.kind.name === 'indexDeletion') {
      if (record === undefined) return failed(task, notFound(indexUid));
      return succeeded(task, { kind: 'clearAll', deletedDocuments: deleted });
    }
    if (details?.kind === 'documentAdditionOrUpdate') return succeeded(task, { ...details, indexedDocuments: 0 });
    if (details?.kind === 'documentDeletion' || details?.kind === 'documentDeletionByFilter' || details?.kind === 'clearAll') {
      return succeeded(task, { ...details, deletedDocuments: 0 });
    }
    return succeeded(task);
  });
  if (record === undefined) return { tasks: finished };
  return {
    tasks: finished,
    commit: () => ctx.indexes.remove(indexUid),
    afterCommit: () => ctx.indexEnvs.delete(record.uuid),
  };
};

function backticks(uids: readonly string[]): string {
  return uids.map((uid) => `\`${uid}\``).join(', ');
}

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
    return new ApiError(
      'index_already_exists',
      `The following indexes are being renamed but cannot because their new name conflicts with an already existing index: ${backticks(conflicts.map(([, b]) => b))}. Renaming doesn't overwrite the other index name.`,
    );
  }
  return null;
}

export const processIndexSwap: BatchProcessor = (ctx, [task]): ProcessOutcome => {
  const kind = task!.kind;
  if (kind.name !== 'indexSwap') throw new Error(`indexSwap batch got ${kind.name}`);
  const problem = checkSwaps(ctx, kind.swaps);
  if (problem !== null) return { tasks: [failed(task!, problem)] };
  return {
    tasks: [succeeded(task!)],
    commit: () => {
      const mapping = new Map<string, string>();
      for (const { indexes: [a, b], rename } of kind.swaps) {
        const first = ctx.indexes.get(a)!;
        const second = rename ? undefined : ctx.indexes.get(b)!;
        ctx.indexes.put({ ...first, uid: b, updatedAt: ctx.now });
        if (second === undefined) ctx.indexes.remove(a);
        else ctx.indexes.put({ ...second, uid: a, updatedAt: ctx.now });
        mapping.set(a, b);
        if (!rename) mapping.set(b, a);
      }
      ctx.queue.relabelIndexes(mapping, task!.uid);
    },
  };
};
