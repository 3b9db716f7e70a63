/**
 * What a dump or snapshot writer tells of its work, as v1.50's does: its steps, the items a step
 * counts, nested in it, and the index a step is at (its `VariableNameStep`, named by the uid), the
 * index's own counts nested in that. The batch's Progress (tasks/progress.ts) gives one.
 */

/** Counter families: a unit name counted up to a total. */
export type CounterUnit = 'task' | 'batch' | 'document' | 'update file';

export interface ArchiveProgress<Step extends string> {
  step(name: Step): void;
  count(unit: CounterUnit, total: number): () => void;
  index(uid: string, position: number, total: number): void;
}

/** Progress told to no one (a writer called outside a batch). */
export const NO_ARCHIVE_PROGRESS: ArchiveProgress<string> = { step: () => {}, count: () => () => {}, index: () => {} };
