/**
 * The autobatcher: which enqueued tasks run together next, and why the batch stopped growing
 * (Meilisearch's `create_next_batch` + `autobatcher.rs`; tasks-batches.md §9).
 *
 * PURE: a function of the enqueued tasks (queue.ts `nextEnqueued` gives a sufficient subset) and of
 * the target index's state. Called by the scheduler before opening each batch.
 *
 * 1. Prioritised kinds first, in this order: the newest cancelation alone; every enqueued or failed
 *    database upgrade; the oldest network topology change; every task deletion; the oldest index
 *    compaction, export, then every snapshot; the oldest dump.
 * 2. Otherwise the oldest enqueued task picks an index (an index-less swap runs alone), and that
 *    index's enqueued tasks are taken in uid order, capped by count and payload size, then
 *    accumulated one by one until one cannot join (the state machine of `accumulate`).
 */
import { indexesOf, taskTypeOf, type Task, type TaskKind, type TaskType } from '../types/task.js';

export interface IndexState {
  exists: boolean;
  primaryKey: string | null;
}

export interface AutobatchInput {
  /** enqueued tasks (and failed upgradeDatabase tasks) in uid order */
  tasks: readonly Task[];
  /** number of enqueued tasks in the whole queue */
  enqueuedCount: number;
  /** the current state of an index */
  index: (indexUid: string) => IndexState;
  /** `--experimental-max-number-of-batched-tasks`; default unlimited */
  maxBatchedTasks?: number;
  /** sum of update-file sizes a batch may reach (its first task is always taken); default unlimited */
  maxBatchBytes?: number;
  /** false: one task per batch */
  autobatching?: boolean;
}

/** How the scheduler must process the batch. */
export type BatchOperation =
  | 'taskCancelation'
  | 'upgradeDatabase'
  | 'networkTopologyChange'
  | 'taskDeletion'
  | 'indexCompaction'
  | 'export'
  | 'snapshotCreation'
  | 'dumpCreation'
  | 'indexCreation'
  | 'indexUpdate'
  | 'indexDeletion'
  | 'indexSwap'
  | 'documentEdition'
  /** additions/updates, possibly mixed with deletions by id (or preceded by deletions by filter) */
  | 'documentOperation'
  | 'documentDeletion'
  /** clears, with the deletions and additions before them */
  | 'documentClear'
  | 'settings'
  | 'clearAndSettings'
  | 'dsrUpdate'
  | 'dsrClear';

export interface NextBatch {
  operation: BatchOperation;
  /** ascending */
  taskUids: number[];
  indexUid: string | null;
  /** the batch may create its index (it starts with a creation, or an addition/settings allowed to) */
  mustCreateIndex: boolean;
  /** documentOperation: the primary key declared by its first addition, if any */
  primaryKey: string | null;
  /** the sentence of `GET /batches` explaining why the batch stopped there */
  batchStrategy: string;
  /** upgradeDatabase: retry under the uid of the batch that failed */
  reuseBatchUid: number | null;
}

// --- batchStrategy sentences (Meilisearch's `BatchStopReason` Display) ---

const why = {
  cannotBeBatched: (type: TaskType, id: number) =>
    `created batch containing only task with id ${id} of type \`${type}\` that cannot be batched with any other task.`,
  kindCannotBeBatched: (type: TaskType) =>
    `stopped after the last task of type \`${type}\` because they cannot be batched with tasks of any other type.`,
  allEnqueued: () => 'batched all enqueued tasks',
  allEnqueuedForIndex: (index: string) => `batched all enqueued tasks for index \`${index}\``,
  taskLimit: (limit: number) => `batched up to configured batch limit of ${limit} tasks`,
  sizeLimit: (limit: number, size: number) =>
    `batched up to configured batch size limit of ${limit}B with a total of ${size}B`,
  pkDiffersFromIndex: (id: number, taskPk: string, indexPk: string) =>
    `stopped batching before task with id ${id} because its primary key \`${taskPk}\` is different from the primary key of the index \`${indexPk}\``,
  pkDiffersFromBatch: (id: number, taskPk: string, batchPk: string) =>
    `stopped batching before task with id ${id} because its primary key \`${taskPk}\` is different from the primary key of the batch \`${batchPk}\``,
  pkInterferesWithGuessing: (id: number, taskPk: string) =>
    `stopped batching before task with id ${id} because it is setting the \`${taskPk}\` primary key and it would interfere with primary key guessing of the batch`,
  indexCreationMismatch: (id: number) =>
    `stopped batching before task with id ${id} because its index creation rules differ from the ones from the batch`,
  indexDeletion: (id: number) => `stopped after task with id ${id} because it deletes the index`,
  settingsAfterDocuments: (id: number) =>
    `stopped before task with id ${id} because it is a settings change which cannot be batched with document operations`,
  deletionByFilterAfterDocuments: (id: number) =>
    `stopped before task with id ${id} because it is a deletion by filter which cannot be batched with document operations`,
  documentsAfterSettings: (id: number) =>
    `stopped before task with id ${id} because it is a document operation which cannot be batched with settings changes`,
  dsrAfterDocuments: (id: number) =>
    `stopped before task with id ${id} because it is a dynamic search rule update or clear, which cannot be batched with document operations`,
  dsrAfterSettings: (id: number) =>
    `stopped before task with id ${id} because it is a dynamic search rule update or clear, which cannot be batched with settings changes`,
  networkTask: (id: number) => `stopped after task with id ${id} because it is a network topology change task`,
};

// --- the per-index state machine ---

/** A task as the autobatcher sees it. */
type Incoming =
  | { k: 'import'; allowIndexCreation: boolean; primaryKey: string | null }
  | { k: 'deletion'; byFilter: boolean }
  | { k: 'clear' }
  | { k: 'settings'; allowIndexCreation: boolean }
  | { k: 'edition' | 'indexCreation' | 'indexDeletion' | 'indexUpdate' | 'indexSwap' | 'dsrUpdate' | 'dsrClear' };

/** The batch being grown. Closed kinds (creation, update, swap, edition, deletion) never grow. */
type Acc =
  | { k: 'documentOperation'; ids: number[]; allowIndexCreation: boolean; primaryKey: string | null }
  | { k: 'documentDeletion'; ids: number[]; includesByFilter: boolean }
  | { k: 'documentClear'; ids: number[] }
  | { k: 'settings'; ids: number[]; allowIndexCreation: boolean }
  | { k: 'clearAndSettings'; ids: number[]; allowIndexCreation: boolean }
  | { k: 'dsrUpdate' | 'dsrClear'; ids: number[] }
  | { k: 'indexCreation' | 'indexUpdate' | 'indexSwap' | 'documentEdition' | 'indexDeletion'; ids: number[] };

type Step = { go: true; acc: Acc } | { go: false; acc: Acc; reason: string };
const go = (acc: Acc): Step => ({ go: true, acc });
const stop = (acc: Acc, reason: string): Step => ({ go: false, acc, reason });

function incoming(kind: TaskKind): Incoming {
  switch (kind.name) {
    case 'documentAdditionOrUpdate':
      return { k: 'import', allowIndexCreation: kind.allowIndexCreation, primaryKey: kind.primaryKey };
    case 'documentDeletion':
      return { k: 'deletion', byFilter: false };
    case 'documentDeletionByFilter':
      return { k: 'deletion', byFilter: true };
    case 'documentClear':
      return { k: 'clear' };
    case 'settingsUpdate':
      // Resetting settings never creates an index.
      return { k: 'settings', allowIndexCreation: kind.allowIndexCreation && !kind.isDeletion };
    case 'documentEdition':
      return { k: 'edition' };
    case 'indexCreation':
    case 'indexDeletion':
    case 'indexUpdate':
    case 'indexSwap':
    case 'dsrUpdate':
    case 'dsrClear':
      return { k: kind.name };
    default:
      throw new Error(`The autobatcher never batches \`${kind.name}\` tasks with index tasks.`);
  }
}

const allowsCreation = (x: Acc | Incoming): boolean | undefined =>
  'allowIndexCreation' in x ? x.allowIndexCreation : undefined;

/** The batch a first task opens, and whether that batch may create the index. */
function open(id: number, task: Incoming, type: TaskType, index: IndexState): { step: Step; creates: boolean } {
  switch (task.k) {
    case 'indexCreation':
      return { step: stop({ k: 'indexCreation', ids: [id] }, why.cannotBeBatched(type, id)), creates: true };
    case 'indexDeletion':
      return { step: stop({ k: 'indexDeletion', ids: [id] }, why.indexDeletion(id)), creates: false };
    case 'indexUpdate':
    case 'indexSwap':
      return { step: stop({ k: task.k, ids: [id] }, why.cannotBeBatched(type, id)), creates: false };
    case 'edition':
      return { step: stop({ k: 'documentEdition', ids: [id] }, why.cannotBeBatched(type, id)), creates: false };
    case 'clear':
      return { step: go({ k: 'documentClear', ids: [id] }), creates: false };
    case 'deletion':
      return { step: go({ k: 'documentDeletion', ids: [id], includesByFilter: task.byFilter }), creates: false };
    case 'settings':
      return {
        step: go({ k: 'settings', ids: [id], allowIndexCreation: task.allowIndexCreation }),
        creates: task.allowIndexCreation,
      };
    case 'dsrUpdate':
    case 'dsrClear':
      return { step: go({ k: task.k, ids: [id] }), creates: false };
    case 'import': {
      const acc: Acc = {
        k: 'documentOperation',
        ids: [id],
        allowIndexCreation: task.allowIndexCreation,
        primaryKey: task.primaryKey,
      };
      const conflicting = index.primaryKey !== null && task.primaryKey !== null && task.primaryKey !== index.primaryKey;
      // A conflicting primary key makes a batch of its own, which will fail.
      const step = conflicting
        ? stop(acc, why.pkDiffersFromIndex(id, task.primaryKey!, index.primaryKey!))
        : go(acc);
      return { step, creates: task.allowIndexCreation };
    }
  }
}

/** Adds one more task to the batch, or says why it cannot join. */
function accumulate(acc: Acc, id: number, task: Incoming, type: TaskType, indexExists: boolean, indexPk: string | null): Step {
  // The primary key the batch will use after this task, when the task declares one.
  let pk = acc.k === 'documentOperation' ? acc.primaryKey : null;
  if (task.k === 'import' && task.primaryKey !== null) {
    const taskPk = task.primaryKey;
    if (indexPk !== null) {
      if (taskPk !== indexPk) return stop(acc, why.pkDiffersFromIndex(id, taskPk, indexPk));
    } else if (acc.k === 'documentOperation') {
      if (acc.primaryKey === null) return stop(acc, why.pkInterferesWithGuessing(id, taskPk));
      if (acc.primaryKey !== taskPk) return stop(acc, why.pkDiffersFromBatch(id, taskPk, acc.primaryKey));
    }
    pk = taskPk;
  }

  if (task.k === 'indexCreation' || task.k === 'indexUpdate' || task.k === 'indexSwap' || task.k === 'edition') {
    return stop(acc, why.cannotBeBatched(type, id));
  }
  if (!indexExists && allowsCreation(acc) === false && allowsCreation(task) === true) {
    return stop(acc, why.indexCreationMismatch(id));
  }

  const ids = [...acc.ids, id];
  // Dynamic search rules only batch among themselves.
  if (acc.k === 'dsrUpdate' || acc.k === 'dsrClear') {
    if (task.k === 'dsrClear') return go({ k: 'dsrClear', ids });
    if (task.k === 'dsrUpdate' && acc.k === 'dsrUpdate') return go({ k: 'dsrUpdate', ids });
    return stop(acc, why.kindCannotBeBatched(acc.k));
  }
  if (task.k === 'dsrUpdate' || task.k === 'dsrClear') {
    const settingsBatch = acc.k === 'settings' || acc.k === 'clearAndSettings';
    return stop(acc, settingsBatch ? why.dsrAfterSettings(id) : why.dsrAfterDocuments(id));
  }
  // An index deletion joins any growing batch and closes it: the batch becomes a deletion.
  if (task.k === 'indexDeletion') return stop({ k: 'indexDeletion', ids }, why.indexDeletion(id));

  switch (acc.k) {
    case 'documentClear':
      if (task.k === 'clear' || task.k === 'deletion') return go({ k: 'documentClear', ids });
      return stop(acc, why.settingsAfterDocuments(id));
    case 'documentOperation':
      switch (task.k) {
        case 'clear':
          return go({ k: 'documentClear', ids });
        case 'import':
          return go({ ...acc, ids, primaryKey: pk });
        case 'deletion':
          return task.byFilter ? stop(acc, why.deletionByFilterAfterDocuments(id)) : go({ ...acc, ids, primaryKey: pk });
        default:
          return stop(acc, why.settingsAfterDocuments(id));
      }
    case 'documentDeletion':
      switch (task.k) {
        case 'clear':
          return go({ k: 'documentClear', ids });
        case 'deletion':
          return go({ k: 'documentDeletion', ids, includesByFilter: acc.includesByFilter || task.byFilter });
        case 'import': {
          const joined: Acc = {
            k: 'documentOperation',
            ids,
            allowIndexCreation: task.allowIndexCreation,
            primaryKey: task.primaryKey,
          };
          // Deletions by id may only precede an addition that cannot create the index.
          if (acc.includesByFilter || indexExists || !task.allowIndexCreation) return go(joined);
          return stop(acc, why.indexCreationMismatch(id));
        }
        default:
          return stop(acc, why.settingsAfterDocuments(id));
      }
    case 'settings':
      switch (task.k) {
        case 'settings':
          return go({ ...acc, ids });
        case 'clear':
          return go({ k: 'clearAndSettings', ids, allowIndexCreation: acc.allowIndexCreation });
        default:
          return stop(acc, why.documentsAfterSettings(id));
      }
    case 'clearAndSettings':
      if (task.k === 'import') return stop(acc, why.documentsAfterSettings(id));
      return go({ ...acc, ids });
    default:
      throw new Error(`A \`${acc.k}\` batch is closed and never accumulates.`);
  }
}

interface Autobatch {
  acc: Acc;
  mustCreateIndex: boolean;
  reason: string | null;
}

/** Grows a batch from the first of `tasks` (all on one index, uid order). */
function autobatch(tasks: readonly Task[], index: IndexState): Autobatch {
  const [head, ...rest] = tasks;
  const opened = open(head!.uid, incoming(head!.kind), taskTypeOf(head!.kind), index);
  if (!opened.step.go) return { acc: opened.step.acc, mustCreateIndex: opened.creates, reason: opened.step.reason };
  // Once a task of the batch may create the index, later tasks can count on it.
  const indexExists = index.exists || opened.creates;
  let acc = opened.step.acc;
  for (const task of rest) {
    const step = accumulate(acc, task.uid, incoming(task.kind), taskTypeOf(task.kind), indexExists, index.primaryKey);
    if (!step.go) return { acc: step.acc, mustCreateIndex: opened.creates, reason: step.reason };
    acc = step.acc;
  }
  return { acc, mustCreateIndex: opened.creates, reason: null };
}

function single(operation: BatchOperation, task: Task, batchStrategy: string): NextBatch {
  return {
    operation,
    taskUids: [task.uid],
    indexUid: indexesOf(task.kind)[0] ?? null,
    mustCreateIndex: false,
    primaryKey: null,
    batchStrategy,
    reuseBatchUid: null,
  };
}

function all(operation: BatchOperation, tasks: readonly Task[], batchStrategy: string): NextBatch {
  return {
    operation,
    taskUids: tasks.map((task) => task.uid),
    indexUid: null,
    mustCreateIndex: false,
    primaryKey: null,
    batchStrategy,
    reuseBatchUid: null,
  };
}

/** The next batch to run, or null when nothing is enqueued. */
export function nextBatch(input: AutobatchInput): NextBatch | null {
  const enqueued = input.tasks.filter((task) => task.status === 'enqueued');
  const ofType = (type: TaskType): Task[] => enqueued.filter((task) => taskTypeOf(task.kind) === type);

  const cancelations = ofType('taskCancelation');
  if (cancelations.length > 0) {
    // The newest first, so that a cancelation can cancel older cancelations.
    const newest = cancelations[cancelations.length - 1]!;
    return single('taskCancelation', newest, why.cannotBeBatched('taskCancelation', newest.uid));
  }
  const upgrades = input.tasks.filter(
    (task) => task.kind.name === 'upgradeDatabase' && (task.status === 'enqueued' || task.status === 'failed'),
  );
  if (upgrades.length > 0) {
    return {
      ...all('upgradeDatabase', upgrades, why.kindCannotBeBatched('upgradeDatabase')),
      reuseBatchUid: upgrades[upgrades.length - 1]!.batchUid,
    };
  }
  const network = ofType('networkTopologyChange')[0];
  if (network !== undefined) return single('networkTopologyChange', network, why.networkTask(network.uid));
  const deletions = ofType('taskDeletion');
  if (deletions.length > 0) return all('taskDeletion', deletions, why.kindCannotBeBatched('taskDeletion'));
  for (const type of ['indexCompaction', 'export'] as const) {
    const oldest = ofType(type)[0];
    if (oldest !== undefined) return single(type, oldest, why.cannotBeBatched(type, oldest.uid));
  }
  const snapshots = ofType('snapshotCreation');
  if (snapshots.length > 0) return all('snapshotCreation', snapshots, why.kindCannotBeBatched('snapshotCreation'));
  const dump = ofType('dumpCreation')[0];
  if (dump !== undefined) return single('dumpCreation', dump, why.cannotBeBatched('dumpCreation', dump.uid));

  const first = enqueued[0];
  if (first === undefined) return null;
  const indexUid = indexesOf(first.kind)[0];
  if (indexUid === undefined) {
    // Only a swap of no index at all targets no index.
    return single('indexSwap', first, why.cannotBeBatched('indexSwap', first.uid));
  }

  const limit = input.autobatching === false ? 1 : (input.maxBatchedTasks ?? Number.POSITIVE_INFINITY);
  const sizeLimit = input.maxBatchBytes ?? Number.POSITIVE_INFINITY;
  const gathered: Task[] = [];
  let capReason: string | null = null;
  let size = 0;
  for (const task of enqueued) {
    if (!indexesOf(task.kind).includes(indexUid)) continue;
    if (gathered.length >= limit) {
      capReason = why.taskLimit(limit);
      break;
    }
    if (task.kind.name === 'documentAdditionOrUpdate') size += task.kind.payloadSize;
    if (size > sizeLimit && gathered.length > 0) {
      capReason = why.sizeLimit(sizeLimit, size);
      break;
    }
    gathered.push(task);
  }

  const index = input.index(indexUid);
  const { acc, mustCreateIndex, reason } = autobatch(gathered, index);
  // Tasks join in uid order, so the batch is a prefix of what was gathered.
  const batchTasks = gathered.slice(0, acc.ids.length);
  const firstImport = batchTasks.find((task) => task.kind.name === 'documentAdditionOrUpdate');
  return {
    operation: acc.k,
    taskUids: batchTasks.map((task) => task.uid),
    indexUid,
    mustCreateIndex,
    primaryKey:
      acc.k === 'documentOperation' && firstImport?.kind.name === 'documentAdditionOrUpdate'
        ? firstImport.kind.primaryKey
        : null,
    batchStrategy:
      reason ??
      capReason ??
      (gathered.length === input.enqueuedCount ? why.allEnqueued() : why.allEnqueuedForIndex(indexUid)),
    reuseBatchUid: null,
  };
}
