import { describe, expect, it } from 'vitest';
import { batchView } from '../../../../src/tasks/views/batch-view.js';
import { finishBatch, openBatch } from '../../../../src/tasks/batch-record.js';
import type { Task } from '../../../../src/types/task.js';
import { kind, task } from '../fixtures.js';

const START = 1_733_845_729_672_141_000n;
const END = 1_733_845_730_036_929_000n;

const json = (value: unknown) => JSON.stringify(value, null, 2);

describe('batchView', () => {
  it('renders a finished batch like Meilisearch', () => {
    const open = openBatch(0, [task(0, kind.add('movies'))], 'batched all enqueued tasks', START);
    const done = finishBatch(
      open,
      [
        {
          ...task(0, kind.add('movies')),
          status: 'succeeded',
          details: { kind: 'documentAdditionOrUpdate', receivedDocuments: 1, indexedDocuments: 1 },
        },
      ],
      END,
    );
    expect(json(batchView(done.batch))).toMatchInlineSnapshot(`
      "{
        "uid": 0,
        "progress": null,
        "details": {
          "receivedDocuments": 1,
          "indexedDocuments": 1
        },
        "stats": {
          "totalNbTasks": 1,
          "status": {
            "succeeded": 1
          },
          "types": {
            "documentAdditionOrUpdate": 1
          },
          "indexUids": {
            "movies": 1
          }
        },
        "duration": "PT0.364788S",
        "startedAt": "2024-12-10T15:48:49.672141Z",
        "finishedAt": "2024-12-10T15:48:50.036929Z",
        "batchStrategy": "batched all enqueued tasks"
      }"
    `);
  });

  it('renders a running batch with its progress and processing tasks, null counters kept', () => {
    const open = openBatch(3, [task(0, kind.add('movies')), task(1, kind.deleteIds('movies'))], 'batched all enqueued tasks', START);
    const running = {
      ...open,
      progress: {
        steps: [
          { currentStep: 'processing tasks', finished: 0, total: 2 },
          { currentStep: 'indexing', finished: 1, total: 4 },
        ],
        percentage: 12.5,
      },
    };
    expect(json(batchView(running))).toMatchInlineSnapshot(`
      "{
        "uid": 3,
        "progress": {
          "steps": [
            {
              "currentStep": "processing tasks",
              "finished": 0,
              "total": 2
            },
            {
              "currentStep": "indexing",
              "finished": 1,
              "total": 4
            }
          ],
          "percentage": 12.5
        },
        "details": {
          "receivedDocuments": 1,
          "indexedDocuments": null,
          "providedIds": 1,
          "deletedDocuments": null,
          "originalFilter": null
        },
        "stats": {
          "totalNbTasks": 2,
          "status": {
            "processing": 2
          },
          "types": {
            "documentAdditionOrUpdate": 1,
            "documentDeletion": 1
          },
          "indexUids": {
            "movies": 2
          }
        },
        "duration": null,
        "startedAt": "2024-12-10T15:48:49.672141Z",
        "finishedAt": null,
        "batchStrategy": "batched all enqueued tasks"
      }"
    `);
  });

  it('drops null counters from a stored batch, as Meilisearch reading it back does, but keeps settings resets', () => {
    const tasks: Task[] = [
      task(0, kind.create('movies'), { status: 'succeeded' }),
      task(1, kind.settings('movies', { stopWords: null }), { status: 'succeeded' }),
    ];
    const done = finishBatch(openBatch(1, tasks.slice(0, 1), 's', START), tasks, END);
    expect(batchView(done.batch).details).toEqual({ stopWords: null });
  });

  it('orders statuses and types as Meilisearch enums and index uids alphabetically', () => {
    const tasks: Task[] = [
      task(0, kind.settings('zeta'), { status: 'failed' }),
      task(1, kind.add('alpha'), { status: 'canceled' }),
      task(2, kind.add('beta'), { status: 'succeeded' }),
    ];
    const done = finishBatch(openBatch(2, tasks, 's', START), tasks, END);
    const stats = batchView(done.batch).stats;
    expect(Object.keys(stats.status)).toEqual(['succeeded', 'failed', 'canceled']);
    expect(Object.keys(stats.types)).toEqual(['documentAdditionOrUpdate', 'settingsUpdate']);
    expect(Object.keys(stats.indexUids)).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('renders the optional stats after the counts, in order', () => {
    const tasks = [task(0, kind.add('movies'), { status: 'succeeded' })];
    const open = openBatch(0, tasks, 's', START);
    const withStats = {
      ...open,
      stats: {
        ...open.stats,
        embedderRequests: { total: 3, failed: 1, lastError: 'timeout' },
        progressTrace: { 'processing tasks > indexing': '12.35ms' },
        writeChannelCongestion: { attempts: 10, blocking_attempts: 1, blocking_ratio: 0.1 },
      },
    };
    const done = finishBatch(withStats, tasks, END);
    expect(Object.keys(batchView(done.batch).stats)).toEqual([
      'totalNbTasks',
      'status',
      'types',
      'indexUids',
      'progressTrace',
      'writeChannelCongestion',
      'embedderRequests',
    ]);
  });

  it('renders a batch of global tasks with empty index counts', () => {
    const tasks = [task(0, kind.dump(), { status: 'succeeded', details: { kind: 'dumpCreation', dumpUid: '20241210-154849672' } })];
    const done = finishBatch(openBatch(0, tasks, 'created batch containing only task with id 0 of type `dumpCreation` that cannot be batched with any other task.', START), tasks, START + 86_400_000_000_000n + 5_000_000_000n);
    expect(json(batchView(done.batch))).toMatchInlineSnapshot(`
      "{
        "uid": 0,
        "progress": null,
        "details": {
          "dumpUid": "20241210-154849672"
        },
        "stats": {
          "totalNbTasks": 1,
          "status": {
            "succeeded": 1
          },
          "types": {
            "dumpCreation": 1
          },
          "indexUids": {}
        },
        "duration": "P1DT5S",
        "startedAt": "2024-12-10T15:48:49.672141Z",
        "finishedAt": "2024-12-11T15:48:54.672141Z",
        "batchStrategy": "created batch containing only task with id 0 of type \`dumpCreation\` that cannot be batched with any other task."
      }"
    `);
  });
});
