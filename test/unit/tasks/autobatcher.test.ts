import { describe, expect, it } from 'vitest';
import { nextBatch, type AutobatchInput, type IndexState } from '../../../src/tasks/autobatcher.js';
import { DSR_INDEX_UID, type Task, type TaskKind } from '../../../src/types/task.js';
import { kind, task } from './fixtures.js';

const MISSING: IndexState = { exists: false, primaryKey: null };
const EXISTS: IndexState = { exists: true, primaryKey: null };
const WITH_PK: IndexState = { exists: true, primaryKey: 'id' };

interface Case {
  name: string;
  kinds: TaskKind[];
  index?: IndexState;
  options?: Partial<AutobatchInput>;
  expected: { operation: string; uids: number[]; strategy: string };
}

/** Enqueues `kinds` as tasks 0…n-1 and asks for the next batch. */
function run(kinds: TaskKind[], index: IndexState = MISSING, options: Partial<AutobatchInput> = {}) {
  const tasks = kinds.map((k, uid) => task(uid, k));
  return nextBatch({ tasks, enqueuedCount: tasks.length, index: () => index, ...options });
}

function summary(kinds: TaskKind[], index?: IndexState, options?: Partial<AutobatchInput>) {
  const next = run(kinds, index, options);
  return next === null ? null : { operation: next.operation, uids: next.taskUids, strategy: next.batchStrategy };
}

const ALL = 'batched all enqueued tasks';
const forIndex = (uid: string) => `batched all enqueued tasks for index \`${uid}\``;
const alone = (id: number, type: string) =>
  `created batch containing only task with id ${id} of type \`${type}\` that cannot be batched with any other task.`;
const onlyKind = (type: string) =>
  `stopped after the last task of type \`${type}\` because they cannot be batched with tasks of any other type.`;
const settingsAfterDocs = (id: number) =>
  `stopped before task with id ${id} because it is a settings change which cannot be batched with document operations`;
const docsAfterSettings = (id: number) =>
  `stopped before task with id ${id} because it is a document operation which cannot be batched with settings changes`;
const creationRules = (id: number) =>
  `stopped batching before task with id ${id} because its index creation rules differ from the ones from the batch`;
const deletesIndex = (id: number) => `stopped after task with id ${id} because it deletes the index`;

const documentCases: Case[] = [
  {
    name: 'one addition forms a batch of all enqueued tasks',
    kinds: [kind.add('a')],
    expected: { operation: 'documentOperation', uids: [0], strategy: ALL },
  },
  {
    name: 'replacements and updates are batched together',
    kinds: [kind.add('a'), kind.add('a', { method: 'update' }), kind.add('a')],
    expected: { operation: 'documentOperation', uids: [0, 1, 2], strategy: ALL },
  },
  {
    name: 'deletions by id join an addition batch',
    kinds: [kind.add('a'), kind.deleteIds('a'), kind.add('a')],
    expected: { operation: 'documentOperation', uids: [0, 1, 2], strategy: ALL },
  },
  {
    name: 'a deletion by filter stops an addition batch',
    kinds: [kind.add('a'), kind.deleteFilter('a')],
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy:
        'stopped before task with id 1 because it is a deletion by filter which cannot be batched with document operations',
    },
  },
  {
    name: 'a settings change stops an addition batch',
    kinds: [kind.add('a'), kind.settings('a')],
    expected: { operation: 'documentOperation', uids: [0], strategy: settingsAfterDocs(1) },
  },
  {
    name: 'a clear joins an addition batch and turns it into a clear',
    kinds: [kind.add('a'), kind.clear('a')],
    expected: { operation: 'documentClear', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'a clear batch absorbs deletions but stops before additions',
    kinds: [kind.clear('a'), kind.deleteIds('a'), kind.deleteFilter('a'), kind.clear('a'), kind.add('a')],
    expected: { operation: 'documentClear', uids: [0, 1, 2, 3], strategy: settingsAfterDocs(4) },
  },
  {
    name: 'deletions by id and by filter are batched together',
    kinds: [kind.deleteIds('a'), kind.deleteFilter('a'), kind.deleteIds('a')],
    expected: { operation: 'documentDeletion', uids: [0, 1, 2], strategy: ALL },
  },
  {
    name: 'deletions by id do not precede an addition that would create the missing index',
    kinds: [kind.deleteIds('a'), kind.add('a')],
    expected: { operation: 'documentDeletion', uids: [0], strategy: creationRules(1) },
  },
  {
    name: 'deletions by id precede an addition when the index exists',
    kinds: [kind.deleteIds('a'), kind.add('a')],
    index: EXISTS,
    expected: { operation: 'documentOperation', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'deletions by id precede an addition that may not create the index',
    kinds: [kind.deleteIds('a'), kind.add('a', { allow: false })],
    expected: { operation: 'documentOperation', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'a deletion by filter precedes additions',
    kinds: [kind.deleteFilter('a'), kind.add('a')],
    expected: { operation: 'documentOperation', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'a settings change stops a deletion batch',
    kinds: [kind.deleteIds('a'), kind.settings('a')],
    expected: { operation: 'documentDeletion', uids: [0], strategy: settingsAfterDocs(1) },
  },
  {
    name: 'a document edition runs alone',
    kinds: [kind.edit('a'), kind.add('a')],
    expected: { operation: 'documentEdition', uids: [0], strategy: alone(0, 'documentEdition') },
  },
  {
    name: 'a document edition stops a growing batch',
    kinds: [kind.add('a'), kind.edit('a')],
    expected: { operation: 'documentOperation', uids: [0], strategy: alone(1, 'documentEdition') },
  },
];

const settingsCases: Case[] = [
  {
    name: 'settings changes are batched together',
    kinds: [kind.settings('a'), kind.settings('a', { stopWords: ['a'] })],
    expected: { operation: 'settings', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'an addition stops a settings batch',
    kinds: [kind.settings('a'), kind.add('a')],
    expected: { operation: 'settings', uids: [0], strategy: docsAfterSettings(1) },
  },
  {
    name: 'a deletion stops a settings batch',
    kinds: [kind.settings('a'), kind.deleteIds('a')],
    expected: { operation: 'settings', uids: [0], strategy: docsAfterSettings(1) },
  },
  {
    name: 'a clear joins a settings batch, which then takes settings and deletions but no addition',
    kinds: [kind.settings('a'), kind.clear('a'), kind.settings('a'), kind.deleteFilter('a'), kind.add('a')],
    expected: { operation: 'clearAndSettings', uids: [0, 1, 2, 3], strategy: docsAfterSettings(4) },
  },
  {
    name: 'a settings reset may not create the index, so a creating settings change waits',
    kinds: [kind.settings('a', { stopWords: null }, true, true), kind.settings('a')],
    expected: { operation: 'settings', uids: [0], strategy: creationRules(1) },
  },
];

const indexCases: Case[] = [
  {
    name: 'an index creation runs alone',
    kinds: [kind.create('a'), kind.add('a')],
    expected: { operation: 'indexCreation', uids: [0], strategy: alone(0, 'indexCreation') },
  },
  {
    name: 'an index creation stops a growing batch and the reason names it',
    kinds: [kind.add('a'), kind.create('a')],
    expected: { operation: 'documentOperation', uids: [0], strategy: alone(1, 'indexCreation') },
  },
  {
    name: 'an index update runs alone',
    kinds: [kind.update('a', 'id'), kind.add('a')],
    expected: { operation: 'indexUpdate', uids: [0], strategy: alone(0, 'indexUpdate') },
  },
  {
    name: 'an index swap runs alone, scheduled on its first index',
    kinds: [kind.swap(['a', 'b']), kind.add('a')],
    expected: { operation: 'indexSwap', uids: [0], strategy: alone(0, 'indexSwap') },
  },
  {
    name: 'an index deletion first runs alone',
    kinds: [kind.drop('a'), kind.add('a')],
    expected: { operation: 'indexDeletion', uids: [0], strategy: deletesIndex(0) },
  },
  {
    name: 'an index deletion joins document operations and closes the batch',
    kinds: [kind.add('a'), kind.deleteIds('a'), kind.drop('a'), kind.add('a')],
    expected: { operation: 'indexDeletion', uids: [0, 1, 2], strategy: deletesIndex(2) },
  },
  {
    name: 'an index deletion joins a clear-and-settings batch',
    kinds: [kind.settings('a'), kind.clear('a'), kind.drop('a')],
    expected: { operation: 'indexDeletion', uids: [0, 1, 2], strategy: deletesIndex(2) },
  },
  {
    name: 'tasks of other indexes are never mixed in',
    kinds: [kind.add('a'), kind.add('b'), kind.add('a')],
    expected: { operation: 'documentOperation', uids: [0, 2], strategy: forIndex('a') },
  },
  {
    name: 'a rename is scheduled on its old index and stops batches of the new one',
    kinds: [kind.add('b'), kind.update('a', null, 'b')],
    expected: { operation: 'documentOperation', uids: [0], strategy: alone(1, 'indexUpdate') },
  },
];

const primaryKeyCases: Case[] = [
  {
    name: 'a first addition declaring another primary key than the index forms a failing batch alone',
    kinds: [kind.add('a', { pk: 'other' }), kind.add('a')],
    index: WITH_PK,
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy:
        'stopped batching before task with id 0 because its primary key `other` is different from the primary key of the index `id`',
    },
  },
  {
    name: 'additions agreeing with the index primary key are batched; a different one stops the batch',
    kinds: [kind.add('a'), kind.add('a', { pk: 'id' }), kind.add('a', { pk: 'other' })],
    index: WITH_PK,
    expected: {
      operation: 'documentOperation',
      uids: [0, 1],
      strategy:
        'stopped batching before task with id 2 because its primary key `other` is different from the primary key of the index `id`',
    },
  },
  {
    name: 'an addition declaring a primary key stops a batch that guesses it',
    kinds: [kind.add('a'), kind.add('a', { pk: 'id' })],
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy:
        'stopped batching before task with id 1 because it is setting the `id` primary key and it would interfere with primary key guessing of the batch',
    },
  },
  {
    name: 'additions declaring the same primary key are batched; another one stops the batch',
    kinds: [kind.add('a', { pk: 'id' }), kind.add('a'), kind.add('a', { pk: 'id' }), kind.add('a', { pk: 'uid' })],
    expected: {
      operation: 'documentOperation',
      uids: [0, 1, 2],
      strategy:
        'stopped batching before task with id 3 because its primary key `uid` is different from the primary key of the batch `id`',
    },
  },
  {
    name: 'the primary-key check comes before the settings rule',
    kinds: [kind.settings('a'), kind.add('a', { pk: 'other' })],
    index: WITH_PK,
    expected: {
      operation: 'settings',
      uids: [0],
      strategy:
        'stopped batching before task with id 1 because its primary key `other` is different from the primary key of the index `id`',
    },
  },
];

const creationRightsCases: Case[] = [
  {
    name: 'on a missing index, an addition that may create it does not join one that may not',
    kinds: [kind.add('a', { allow: false }), kind.add('a', { allow: true })],
    expected: { operation: 'documentOperation', uids: [0], strategy: creationRules(1) },
  },
  {
    name: 'on an existing index, creation rights do not matter',
    kinds: [kind.add('a', { allow: false }), kind.add('a', { allow: true })],
    index: EXISTS,
    expected: { operation: 'documentOperation', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'once a task may create the index, later tasks may not-create freely',
    kinds: [kind.add('a', { allow: true }), kind.add('a', { allow: false }), kind.add('a', { allow: true })],
    expected: { operation: 'documentOperation', uids: [0, 1, 2], strategy: ALL },
  },
];

const limitCases: Case[] = [
  {
    name: 'the task-count cap cuts the batch',
    kinds: [kind.add('a'), kind.add('a'), kind.add('a')],
    options: { maxBatchedTasks: 2 },
    expected: {
      operation: 'documentOperation',
      uids: [0, 1],
      strategy: 'batched up to configured batch limit of 2 tasks',
    },
  },
  {
    name: 'a cap equal to the number of tasks is not reported',
    kinds: [kind.add('a'), kind.add('a')],
    options: { maxBatchedTasks: 2 },
    expected: { operation: 'documentOperation', uids: [0, 1], strategy: ALL },
  },
  {
    name: 'without autobatching every batch holds one task',
    kinds: [kind.add('a'), kind.add('a')],
    options: { autobatching: false },
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy: 'batched up to configured batch limit of 1 tasks',
    },
  },
  {
    name: 'the payload size cap cuts the batch once the sum exceeds it',
    kinds: [kind.add('a', { size: 60 }), kind.add('a', { size: 40 }), kind.add('a', { size: 1 })],
    options: { maxBatchBytes: 100 },
    expected: {
      operation: 'documentOperation',
      uids: [0, 1],
      strategy: 'batched up to configured batch size limit of 100B with a total of 101B',
    },
  },
  {
    name: 'the first task is taken even above the payload size cap',
    kinds: [kind.add('a', { size: 500 }), kind.add('a', { size: 1 })],
    options: { maxBatchBytes: 100 },
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy: 'batched up to configured batch size limit of 100B with a total of 501B',
    },
  },
  {
    name: 'a stop of the autobatcher wins over the cap',
    kinds: [kind.add('a'), kind.settings('a'), kind.add('a')],
    options: { maxBatchedTasks: 2 },
    expected: { operation: 'documentOperation', uids: [0], strategy: settingsAfterDocs(1) },
  },
];

const dsrDocsAdd = kind.add(DSR_INDEX_UID);
const dsrCases: Case[] = [
  {
    name: 'rule updates are batched, and a clear joins them',
    kinds: [kind.dsrUpdate(), kind.dsrUpdate(null), kind.dsrClear(), kind.dsrClear()],
    expected: { operation: 'dsrClear', uids: [0, 1, 2, 3], strategy: ALL },
  },
  {
    name: 'a rule update stops a clear batch',
    kinds: [kind.dsrClear(), kind.dsrUpdate()],
    expected: { operation: 'dsrClear', uids: [0], strategy: onlyKind('dsrClear') },
  },
  {
    name: 'a document task stops a rule batch',
    kinds: [kind.dsrUpdate(), dsrDocsAdd],
    expected: { operation: 'dsrUpdate', uids: [0], strategy: onlyKind('dsrUpdate') },
  },
  {
    name: 'a rule task stops a document batch',
    kinds: [dsrDocsAdd, kind.dsrClear()],
    expected: {
      operation: 'documentOperation',
      uids: [0],
      strategy:
        'stopped before task with id 1 because it is a dynamic search rule update or clear, which cannot be batched with document operations',
    },
  },
  {
    name: 'a rule task stops a settings batch',
    kinds: [kind.settings(DSR_INDEX_UID), kind.dsrUpdate()],
    expected: {
      operation: 'settings',
      uids: [0],
      strategy:
        'stopped before task with id 1 because it is a dynamic search rule update or clear, which cannot be batched with settings changes',
    },
  },
];

const priorityCases: Case[] = [
  {
    name: 'the newest cancelation runs first, alone',
    kinds: [kind.add('a'), kind.cancel([0]), kind.cancel([0, 1]), kind.deleteTasks([0])],
    expected: { operation: 'taskCancelation', uids: [2], strategy: alone(2, 'taskCancelation') },
  },
  {
    name: 'database upgrades come right after cancelations, all together',
    kinds: [kind.add('a'), kind.upgrade(), kind.deleteTasks([0]), kind.upgrade()],
    expected: { operation: 'upgradeDatabase', uids: [1, 3], strategy: onlyKind('upgradeDatabase') },
  },
  {
    name: 'a network topology change runs alone before task deletions',
    kinds: [kind.deleteTasks([]), kind.network(), kind.network()],
    expected: {
      operation: 'networkTopologyChange',
      uids: [1],
      strategy: 'stopped after task with id 1 because it is a network topology change task',
    },
  },
  {
    name: 'every task deletion is batched together',
    kinds: [kind.add('a'), kind.deleteTasks([0]), kind.dump(), kind.deleteTasks([0])],
    expected: { operation: 'taskDeletion', uids: [1, 3], strategy: onlyKind('taskDeletion') },
  },
  {
    name: 'the oldest index compaction runs alone before exports',
    kinds: [kind.export(), kind.compact('a'), kind.compact('b')],
    expected: { operation: 'indexCompaction', uids: [1], strategy: alone(1, 'indexCompaction') },
  },
  {
    name: 'the oldest export runs alone before snapshots',
    kinds: [kind.snapshot(), kind.export(), kind.export()],
    expected: { operation: 'export', uids: [1], strategy: alone(1, 'export') },
  },
  {
    name: 'every snapshot is batched together before dumps',
    kinds: [kind.dump(), kind.snapshot(), kind.add('a'), kind.snapshot()],
    expected: { operation: 'snapshotCreation', uids: [1, 3], strategy: onlyKind('snapshotCreation') },
  },
  {
    name: 'the oldest dump runs alone before index tasks',
    kinds: [kind.add('a'), kind.dump(), kind.dump()],
    expected: { operation: 'dumpCreation', uids: [1], strategy: alone(1, 'dumpCreation') },
  },
  {
    name: 'a swap of no index runs alone',
    kinds: [kind.swap(), kind.add('a')],
    expected: { operation: 'indexSwap', uids: [0], strategy: alone(0, 'indexSwap') },
  },
];

describe('autobatcher', () => {
  for (const [group, cases] of [
    ['document operations', documentCases],
    ['settings', settingsCases],
    ['index operations', indexCases],
    ['primary keys', primaryKeyCases],
    ['index creation rights', creationRightsCases],
    ['caps', limitCases],
    ['dynamic search rules', dsrCases],
    ['priorities', priorityCases],
  ] as const) {
    describe(group, () => {
      it.each(cases.map((c) => [c.name, c] as const))('%s', (_name, c) => {
        expect(summary(c.kinds, c.index, c.options)).toEqual(c.expected);
      });
    });
  }

  it('returns null when nothing is enqueued', () => {
    expect(nextBatch({ tasks: [], enqueuedCount: 0, index: () => MISSING })).toBeNull();
  });

  it('ignores finished tasks in its input', () => {
    const tasks: Task[] = [task(0, kind.cancel([1]), { status: 'succeeded' }), task(1, kind.add('a'))];
    expect(nextBatch({ tasks, enqueuedCount: 1, index: () => MISSING })?.taskUids).toEqual([1]);
  });

  it('retries a failed upgrade under the uid of the batch that failed', () => {
    const tasks = [task(0, kind.upgrade(), { status: 'failed', batchUid: 7 }), task(1, kind.add('a'))];
    const next = nextBatch({ tasks, enqueuedCount: 1, index: () => MISSING });
    expect(next).toMatchObject({ operation: 'upgradeDatabase', taskUids: [0], reuseBatchUid: 7 });
  });

  it('says whether the batch may create its index', () => {
    expect(run([kind.add('a', { allow: true })])?.mustCreateIndex).toBe(true);
    expect(run([kind.add('a', { allow: false })])?.mustCreateIndex).toBe(false);
    expect(run([kind.create('a')])?.mustCreateIndex).toBe(true);
    expect(run([kind.deleteIds('a'), kind.add('a', { allow: false })])?.mustCreateIndex).toBe(false);
    expect(run([kind.settings('a')])?.mustCreateIndex).toBe(true);
  });

  it("reports the index and the first addition's primary key of a document batch", () => {
    const next = run([kind.deleteIds('a'), kind.add('a', { pk: 'sku' }), kind.add('a')], EXISTS);
    expect(next).toMatchObject({ indexUid: 'a', primaryKey: 'sku', taskUids: [0, 1, 2] });
  });

  it('tells all enqueued tasks from all tasks of the index by the whole queue size', () => {
    const tasks = [task(0, kind.add('a')), task(1, kind.add('a'))];
    const next = nextBatch({ tasks, enqueuedCount: 5, index: () => MISSING });
    expect(next?.batchStrategy).toBe(forIndex('a'));
  });
});
