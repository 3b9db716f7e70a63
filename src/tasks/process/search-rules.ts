/**
 * `dsrUpdate` and `dsrClear` batches (v1.50's `Batch::DsrUpdate` / `Batch::DsrClear`): the
 * dynamic search rules change in the instance environment, inside the transaction that stores the
 * finished tasks, so a rule change lands with its task or not at all. An update batch applies its
 * tasks in order (a creation, a merge into the existing rule, or a deletion, which succeeds
 * whether or not the rule exists); a clear batch removes every rule, each `dsrClear` task
 * reporting how many there were, the updates batched before it succeeding unapplied as in v1.50.
 */
import type { RuleUpdate } from '../../search-rules/rule.js';
import type { RuleChange } from '../../search-rules/store.js';
import { succeeded } from './outcome.js';
import type { BatchProcessor } from './context.js';

export const processSearchRules: BatchProcessor = (ctx, tasks, next) => {
  ctx.progress.enter('indexing', 'computing document changes');
  if (next.operation === 'dsrClear') {
    const count = ctx.searchRules.size;
    return {
      tasks: tasks.map((task) => (task.kind.name === 'dsrClear' ? succeeded(task, { kind: 'clearAll', deletedDocuments: count }) : succeeded(task))),
      commit: () => void ctx.searchRules.clear(),
      afterCommit: async () => ctx.searchRules.invalidate(),
    };
  }
  const changes: RuleChange[] = tasks.flatMap((task) =>
    task.kind.name === 'dsrUpdate' ? [{ uid: task.kind.ruleUid, update: task.kind.rule as RuleUpdate | null }] : [],
  );
  return {
    tasks: tasks.map((task) => succeeded(task)),
    commit: () => ctx.searchRules.apply(changes),
    afterCommit: async () => ctx.searchRules.invalidate(),
  };
};
