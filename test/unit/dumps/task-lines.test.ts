import { describe, expect, it } from 'vitest';
import { readTaskLine, taskLine } from '../../../src/dumps/task-lines.js';
import { batchLine, readBatchLine } from '../../../src/dumps/batch-lines.js';
import { defaultDetails } from '../../../src/tasks/details.js';
import type { Batch, Task, TaskKind, TaskNetwork } from '../../../src/types/task.js';

const VERSION: [number, number, number] = [1, 50, 0];
const KEY = { uid: '42092c55-5496-4579-8a51-768ad7866998', name: null, description: 'd', actions: ['search'], indexes: ['*'], expiresAt: null, createdAt: '2025-02-04T10:14:11.442986832Z', updatedAt: '2025-02-04T10:14:11.442986832Z' };

const KINDS: TaskKind[] = [
  { name: 'documentAdditionOrUpdate', indexUid: 'a', primaryKey: 'id', method: 'update', contentFile: '', documentsCount: 3, payloadSize: 0, allowIndexCreation: false, onMissingDocument: 'create' },
  { name: 'documentDeletion', indexUid: 'a', documentIds: ['1', '2'] },
  { name: 'documentDeletionByFilter', indexUid: 'a', filter: 'x = 1' },
  { name: 'documentClear', indexUid: 'a' },
  { name: 'documentEdition', indexUid: 'a', filter: null, context: { n: 1 }, function: 'doc.x = 1' },
  { name: 'settingsUpdate', indexUid: 'a', settings: { stopWords: ['a'] }, isDeletion: false, allowIndexCreation: true },
  { name: 'indexCreation', indexUid: 'a', primaryKey: null },
  { name: 'indexUpdate', indexUid: 'a', primaryKey: 'id', newIndexUid: 'b' },
  { name: 'indexDeletion', indexUid: 'a' },
  { name: 'indexSwap', swaps: [{ indexes: ['a', 'b'], rename: true }] },
  { name: 'taskCancelation', query: '?uids=1,2', tasks: [1, 2] },
  { name: 'taskDeletion', query: '?uids=0', tasks: [0] },
  { name: 'dumpCreation', keys: [KEY], instanceUid: '972b0d34-a73b-4b37-9a06-eac9af32c9b3' },
  { name: 'snapshotCreation' },
  { name: 'upgradeDatabase', from: [1, 12, 0], to: VERSION },
  { name: 'indexCompaction', indexUid: 'a' },
];

function taskOf(kind: TaskKind, uid: number): Task {
  return { uid, batchUid: 3, status: 'succeeded', kind, details: defaultDetails(kind), error: null, canceledBy: null, enqueuedAt: 1_700_000_000_123_456_789n, startedAt: 1_700_000_001_000_000_000n, finishedAt: 1_700_000_002_000_000_001n, customMetadata: null };
}

describe('tasks/queue.jsonl lines', () => {
  it.each(KINDS.map((kind, uid) => [kind.name, taskOf(kind, uid)] as const))('%s round-trips', (_name, task) => {
    expect(readTaskLine(JSON.parse(taskLine(task)), VERSION)).toEqual(task);
  });

  it('writes tagged types, snake_case fields and PascalCase details as Meilisearch does', () => {
    const line = JSON.parse(taskLine(taskOf(KINDS[11]!, 7)));
    expect(line).toEqual({
      uid: 7,
      batchUid: 3,
      indexUid: null,
      status: 'succeeded',
      type: { tasksDeletion: { query: '?uids=0', tasks: [58, 48, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0] } },
      details: { TaskDeletion: { matched_tasks: 1, deleted_tasks: null, original_filter: '?uids=0' } },
      enqueuedAt: '2023-11-14T22:13:20.123456789Z',
      startedAt: '2023-11-14T22:13:21Z',
      finishedAt: '2023-11-14T22:13:22.000000001Z',
    });
    expect(JSON.parse(taskLine(taskOf(KINDS[12]!, 8))).type.dumpCreation.keys[0]).toEqual({
      description: 'd', uid: KEY.uid, actions: ['search'], indexes: ['*'], expires_at: null, created_at: KEY.createdAt, updated_at: KEY.updatedAt,
    });
  });

  it.each<TaskNetwork>([
    { remote_tasks: { ms1: { taskUid: 4, error: null }, ms2: { error: { message: 'm', code: 'remote_timeout', type: 'system', link: 'l' } } }, network_version: '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10' },
    { origin: { remoteName: 'ms0', taskUid: 1, networkVersion: '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10' } },
    { import_from: { remoteName: 'ms1', indexName: null, documentCount: 3 }, network_change: { remoteName: 'ms0', taskUid: 7, networkVersion: '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10' } },
  ])('keeps the network field (%#) before customMetadata, as v1.50 dumps it', (network) => {
    const task: Task = { ...taskOf(KINDS[3]!, 2), customMetadata: 'm', network };
    const text = taskLine(task);
    expect(Object.keys(JSON.parse(text)).slice(-2)).toEqual(['network', 'customMetadata']);
    expect(readTaskLine(JSON.parse(text), VERSION)).toEqual(task);
  });

  it('reads a dumped origin without its network version as the nil version', () => {
    const line = { ...JSON.parse(taskLine(taskOf(KINDS[3]!, 1))), network: { origin: { remoteName: 'ms0', taskUid: 1 } } };
    expect(readTaskLine(line, VERSION).network).toEqual({ origin: { remoteName: 'ms0', taskUid: 1, networkVersion: '00000000-0000-0000-0000-000000000000' } });
  });

  it('reads a task dumped while processing back as enqueued', () => {
    const line = { ...JSON.parse(taskLine(taskOf(KINDS[3]!, 1))), status: 'processing' };
    expect(readTaskLine(line, VERSION)).toMatchObject({ status: 'enqueued', batchUid: null, startedAt: null, finishedAt: null });
  });
});

describe('batches/queue.jsonl lines', () => {
  it('round-trip, settings details flattened in the line', () => {
    const batch: Batch = {
      uid: 4,
      progress: null,
      details: { settings: { stopWords: ['a'] }, receivedDocuments: 2 },
      stats: { totalNbTasks: 2, status: { succeeded: 2 }, types: { settingsUpdate: 1, documentAdditionOrUpdate: 1 }, indexUids: { a: 2 } },
      startedAt: 1_700_000_001_000_000_000n,
      finishedAt: 1_700_000_002_000_000_000n,
      enqueuedAt: { oldest: 1_700_000_000_000_000_000n, newest: 1_700_000_000_500_000_000n },
      batchStrategy: 'batched all enqueued tasks',
      indexes: ['a'],
    };
    const line = JSON.parse(batchLine(batch));
    expect(line.details).toEqual({ receivedDocuments: 2, stopWords: ['a'] });
    expect(line.stopReason).toBe('batched all enqueued tasks');
    expect(readBatchLine(line)).toEqual(batch);
  });
});
