/**
 * Small builders of task kinds and task records for the task-queue, autobatcher and view tests.
 */
import { defaultDetails } from '../../../src/tasks/details.js';
import type { JsonObject, Task, TaskKind, Timestamp } from '../../../src/types/task.js';

export interface AddOptions {
  pk?: string | null;
  allow?: boolean;
  method?: 'replace' | 'update';
  count?: number;
  size?: number;
}

export const kind = {
  add: (indexUid: string, o: AddOptions = {}): TaskKind => ({
    name: 'documentAdditionOrUpdate',
    indexUid,
    primaryKey: o.pk ?? null,
    method: o.method ?? 'replace',
    contentFile: '00000000-0000-0000-0000-000000000000',
    documentsCount: o.count ?? 1,
    payloadSize: o.size ?? 10,
    allowIndexCreation: o.allow ?? true,
    onMissingDocument: 'create',
  }),
  deleteIds: (indexUid: string, ids: string[] = ['1']): TaskKind => ({
    name: 'documentDeletion',
    indexUid,
    documentIds: ids,
  }),
  deleteFilter: (indexUid: string, filter: unknown = 'doggo = bernese'): TaskKind => ({
    name: 'documentDeletionByFilter',
    indexUid,
    filter,
  }),
  clear: (indexUid: string): TaskKind => ({ name: 'documentClear', indexUid }),
  edit: (indexUid: string): TaskKind => ({
    name: 'documentEdition',
    indexUid,
    filter: null,
    context: null,
    function: 'doc.title = "x"',
  }),
  settings: (indexUid: string, settings: JsonObject = { rankingRules: ['typo'] }, allow = true, isDeletion = false): TaskKind => ({
    name: 'settingsUpdate',
    indexUid,
    settings,
    isDeletion,
    allowIndexCreation: allow,
  }),
  create: (indexUid: string, primaryKey: string | null = null): TaskKind => ({ name: 'indexCreation', indexUid, primaryKey }),
  update: (indexUid: string, primaryKey: string | null = null, newIndexUid: string | null = null): TaskKind => ({
    name: 'indexUpdate',
    indexUid,
    primaryKey,
    newIndexUid,
  }),
  drop: (indexUid: string): TaskKind => ({ name: 'indexDeletion', indexUid }),
  swap: (...pairs: [string, string][]): TaskKind => ({
    name: 'indexSwap',
    swaps: pairs.map((indexes) => ({ indexes, rename: false })),
  }),
  cancel: (tasks: number[], query = '?uids=0'): TaskKind => ({ name: 'taskCancelation', query, tasks }),
  deleteTasks: (tasks: number[], query = '?uids=0'): TaskKind => ({ name: 'taskDeletion', query, tasks }),
  dump: (): TaskKind => ({ name: 'dumpCreation', keys: [], instanceUid: null }),
  snapshot: (): TaskKind => ({ name: 'snapshotCreation' }),
  export: (): TaskKind => ({
    name: 'export',
    url: 'https://other.example',
    apiKey: null,
    payloadSize: null,
    indexes: { '*': { filter: null, overrideSettings: false } },
  }),
  upgrade: (): TaskKind => ({ name: 'upgradeDatabase', from: [1, 49, 0], to: [1, 50, 0] }),
  compact: (indexUid: string): TaskKind => ({ name: 'indexCompaction', indexUid }),
  network: (): TaskKind => ({ name: 'networkTopologyChange' }),
  dsrUpdate: (rule: JsonObject | null = { active: true }): TaskKind => ({ name: 'dsrUpdate', ruleUid: 'r1', rule }),
  dsrClear: (): TaskKind => ({ name: 'dsrClear' }),
};

/** 2024-08-08T09:01:13Z */
export const T0: Timestamp = 1_723_107_673_000_000_000n;

/** An enqueued task record (override any field). */
export function task(uid: number, k: TaskKind, over: Partial<Task> = {}): Task {
  return {
    uid,
    batchUid: null,
    status: 'enqueued',
    kind: k,
    details: defaultDetails(k),
    error: null,
    canceledBy: null,
    enqueuedAt: T0 + BigInt(uid) * 1_000_000n,
    startedAt: null,
    finishedAt: null,
    customMetadata: null,
    ...over,
  };
}
