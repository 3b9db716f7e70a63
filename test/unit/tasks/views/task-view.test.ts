import { describe, expect, it } from 'vitest';
import { failedDetails } from '../../../../src/tasks/details.js';
import { summarizedTaskView, taskView } from '../../../../src/tasks/views/task-view.js';
import type { Task, TaskDetails, TaskKind } from '../../../../src/types/task.js';
import { T0, kind, task } from '../fixtures.js';

const START = 1_723_107_673_349_442_000n;
const END = 1_723_107_673_358_772_000n;

/** The JSON text a route sends: it shows the key order. */
const json = (t: Task) => JSON.stringify(taskView(t), null, 2);

function succeeded(k: TaskKind, details: TaskDetails | null, uid = 1): Task {
  return task(uid, k, { status: 'succeeded', batchUid: uid, details, startedAt: START, finishedAt: END });
}

describe('taskView', () => {
  it('renders an enqueued addition with null counters, dates and duration', () => {
    expect(json(task(0, kind.add('movies', { count: 2 })))).toMatchInlineSnapshot(`
      "{
        "uid": 0,
        "batchUid": null,
        "indexUid": "movies",
        "status": "enqueued",
        "type": "documentAdditionOrUpdate",
        "canceledBy": null,
        "details": {
          "receivedDocuments": 2,
          "indexedDocuments": null
        },
        "error": null,
        "duration": null,
        "enqueuedAt": "2024-08-08T09:01:13Z",
        "startedAt": null,
        "finishedAt": null
      }"
    `);
  });

  it('renders a succeeded addition like Meilisearch', () => {
    const t = succeeded(kind.add('movies'), { kind: 'documentAdditionOrUpdate', receivedDocuments: 1, indexedDocuments: 1 });
    expect(json({ ...t, enqueuedAt: 1_723_107_673_348_471_000n })).toMatchInlineSnapshot(`
      "{
        "uid": 1,
        "batchUid": 1,
        "indexUid": "movies",
        "status": "succeeded",
        "type": "documentAdditionOrUpdate",
        "canceledBy": null,
        "details": {
          "receivedDocuments": 1,
          "indexedDocuments": 1
        },
        "error": null,
        "duration": "PT0.009330S",
        "enqueuedAt": "2024-08-08T09:01:13.348471Z",
        "startedAt": "2024-08-08T09:01:13.349442Z",
        "finishedAt": "2024-08-08T09:01:13.358772Z"
      }"
    `);
  });

  it('renders a failed task with its error and zeroed counter', () => {
    const t = task(2, kind.add('movies'), {
      status: 'failed',
      batchUid: 2,
      details: failedDetails(task(2, kind.add('movies')).details!),
      error: {
        message: 'Index `movies`: Index already has a primary key: `id`.',
        code: 'index_primary_key_already_exists',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#index_primary_key_already_exists',
      },
      startedAt: START,
      finishedAt: END,
    });
    expect(json(t)).toMatchInlineSnapshot(`
      "{
        "uid": 2,
        "batchUid": 2,
        "indexUid": "movies",
        "status": "failed",
        "type": "documentAdditionOrUpdate",
        "canceledBy": null,
        "details": {
          "receivedDocuments": 1,
          "indexedDocuments": 0
        },
        "error": {
          "message": "Index \`movies\`: Index already has a primary key: \`id\`.",
          "code": "index_primary_key_already_exists",
          "type": "invalid_request",
          "link": "https://docs.meilisearch.com/errors#index_primary_key_already_exists"
        },
        "duration": "PT0.009330S",
        "enqueuedAt": "2024-08-08T09:01:13.002Z",
        "startedAt": "2024-08-08T09:01:13.349442Z",
        "finishedAt": "2024-08-08T09:01:13.358772Z"
      }"
    `);
  });

  it('renders a task of the running batch as processing, without an end', () => {
    const t = task(3, kind.add('movies'), { status: 'processing', batchUid: 3, startedAt: START });
    expect(taskView(t)).toMatchObject({ status: 'processing', batchUid: 3, duration: null, finishedAt: null });
  });

  it('renders a canceled task with the cancelation uid', () => {
    const t = task(4, kind.deleteIds('movies', ['1', '2']), {
      status: 'canceled',
      canceledBy: 9,
      batchUid: 5,
      details: failedDetails(task(4, kind.deleteIds('movies', ['1', '2'])).details!),
      startedAt: START,
      finishedAt: END,
    });
    expect(json(t)).toMatchInlineSnapshot(`
      "{
        "uid": 4,
        "batchUid": 5,
        "indexUid": "movies",
        "status": "canceled",
        "type": "documentDeletion",
        "canceledBy": 9,
        "details": {
          "providedIds": 2,
          "deletedDocuments": 0,
          "originalFilter": null
        },
        "error": null,
        "duration": "PT0.009330S",
        "enqueuedAt": "2024-08-08T09:01:13.004Z",
        "startedAt": "2024-08-08T09:01:13.349442Z",
        "finishedAt": "2024-08-08T09:01:13.358772Z"
      }"
    `);
  });

  it('renders the custom metadata last', () => {
    const t = task(0, kind.add('movies'), { customMetadata: 'abc' });
    expect(Object.keys(taskView(t)).at(-1)).toBe('customMetadata');
    expect(Object.keys(taskView(task(0, kind.add('movies'))))).not.toContain('customMetadata');
  });
});

describe('taskView details per type', () => {
  const details = (t: Task) => JSON.stringify(taskView(t).details);

  it('documentEdition', () => {
    const k: TaskKind = { name: 'documentEdition', indexUid: 'm', filter: 'id > 2', context: { x: 1 }, function: 'doc.a = 1' };
    expect(details(task(0, k))).toMatchInlineSnapshot(`"{"editedDocuments":null,"deletedDocuments":null,"originalFilter":"\\"id > 2\\"","context":{"x":1},"function":"doc.a = 1"}"`);
  });

  it('documentDeletion by ids, by filter, and clear', () => {
    expect(details(task(0, kind.deleteIds('m', ['1', '2'])))).toMatchInlineSnapshot(`"{"providedIds":2,"deletedDocuments":null,"originalFilter":null}"`);
    expect(details(task(0, kind.deleteFilter('m', 'doggo = bernese')))).toMatchInlineSnapshot(`"{"providedIds":0,"deletedDocuments":null,"originalFilter":"\\"doggo = bernese\\""}"`);
    expect(details(task(0, kind.clear('m')))).toMatchInlineSnapshot(`"{"deletedDocuments":null}"`);
  });

  it('settingsUpdate, flattened, resets as null and embedder keys masked', () => {
    const settings = {
      rankingRules: ['typo', 'words'],
      stopWords: null,
      embedders: { default: { source: 'rest', apiKey: 'My super secret key that is long' } },
    };
    expect(details(task(0, kind.settings('m', settings)))).toMatchInlineSnapshot(`"{"rankingRules":["typo","words"],"stopWords":null,"embedders":{"default":{"source":"rest","apiKey":"My suXXXXXX..."}}}"`);
  });

  it('indexCreation and indexUpdate, with a rename', () => {
    expect(details(task(0, kind.create('m')))).toMatchInlineSnapshot(`"{"primaryKey":null}"`);
    expect(details(task(0, kind.update('m', 'id')))).toMatchInlineSnapshot(`"{"primaryKey":"id"}"`);
    expect(details(task(0, kind.update('m', null, 'n')))).toMatchInlineSnapshot(`"{"primaryKey":null,"oldIndexUid":"m","newIndexUid":"n"}"`);
    expect(taskView(task(0, kind.update('m', null, 'n'))).indexUid).toBe('m');
  });

  it('indexDeletion', () => {
    expect(details(succeeded(kind.drop('m'), { kind: 'clearAll', deletedDocuments: 42 }))).toMatchInlineSnapshot(`"{"deletedDocuments":42}"`);
  });

  it('indexSwap, with a null index uid', () => {
    const t = task(0, kind.swap(['a', 'b']));
    expect(details(t)).toMatchInlineSnapshot(`"{"swaps":[{"indexes":["a","b"],"rename":false}]}"`);
    expect(taskView(t).indexUid).toBeNull();
  });

  it('taskCancelation and taskDeletion', () => {
    expect(details(task(3, kind.cancel([0, 1], '?uids=0,1')))).toMatchInlineSnapshot(`"{"matchedTasks":2,"canceledTasks":null,"originalFilter":"?uids=0,1"}"`);
    expect(
      details(succeeded(kind.deleteTasks([0], '?uids=0'), { kind: 'taskDeletion', matchedTasks: 1, deletedTasks: 1, originalFilter: '?uids=0' })),
    ).toMatchInlineSnapshot(`"{"matchedTasks":1,"deletedTasks":1,"originalFilter":"?uids=0"}"`);
  });

  it('dumpCreation, before and after', () => {
    expect(details(task(0, kind.dump()))).toMatchInlineSnapshot(`"{"dumpUid":null}"`);
    expect(details(succeeded(kind.dump(), { kind: 'dumpCreation', dumpUid: '20240808-170555123' }))).toMatchInlineSnapshot(`"{"dumpUid":"20240808-170555123"}"`);
  });

  it('snapshotCreation has no details key at all', () => {
    expect(Object.keys(taskView(task(0, kind.snapshot())))).not.toContain('details');
    expect(json(task(0, kind.snapshot()))).toMatchInlineSnapshot(`
      "{
        "uid": 0,
        "batchUid": null,
        "indexUid": null,
        "status": "enqueued",
        "type": "snapshotCreation",
        "canceledBy": null,
        "error": null,
        "duration": null,
        "enqueuedAt": "2024-08-08T09:01:13Z",
        "startedAt": null,
        "finishedAt": null
      }"
    `);
  });

  it('export, before and after', () => {
    const k: TaskKind = {
      name: 'export',
      url: 'https://ms-1234.heaven.meilisearch.com',
      apiKey: 'theKeyOfTheRemote',
      payloadSize: 24 * 1024 * 1024,
      indexes: { 'movie*': { filter: 'year > 2000', overrideSettings: true } },
    };
    expect(details(task(0, k))).toMatchInlineSnapshot(`"{"url":"https://ms-1234.heaven.meilisearch.com","apiKey":"thXXXX...","payloadSize":"24 MiB","indexes":{"movie*":{"filter":"year > 2000","overrideSettings":true}}}"`);
    const done: TaskDetails = {
      kind: 'export',
      url: 'https://ms-1234.heaven.meilisearch.com',
      apiKey: null,
      payloadSize: null,
      indexes: { movies: { filter: null, overrideSettings: false, matchedDocuments: 12 } },
    };
    expect(details(succeeded(k, done))).toMatchInlineSnapshot(`"{"url":"https://ms-1234.heaven.meilisearch.com","indexes":{"movies":{"filter":null,"overrideSettings":false,"matched_documents":12}}}"`);
  });

  it('upgradeDatabase', () => {
    expect(details(task(0, kind.upgrade()))).toMatchInlineSnapshot(`"{"upgradeFrom":"v1.49.0","upgradeTo":"v1.50.0"}"`);
  });

  it('indexCompaction, before and after', () => {
    expect(details(task(0, kind.compact('m')))).toMatchInlineSnapshot(`"{}"`);
    expect(
      details(succeeded(kind.compact('m'), { kind: 'indexCompaction', preCompactionSize: 100_000_000, postCompactionSize: 25_165_824 })),
    ).toMatchInlineSnapshot(`"{"preCompactionSize":"95.367431640625 MiB","postCompactionSize":"24 MiB"}"`);
  });

  it('networkTopologyChange', () => {
    expect(details(task(0, kind.network()))).toMatchInlineSnapshot(`"{"movedDocuments":0,"message":"processing tasks for previous network versions"}"`);
  });

  it('dsrUpdate and dsrClear, under the reserved index uid', () => {
    expect(details(task(0, kind.dsrUpdate({ description: 'boost', active: true })))).toMatchInlineSnapshot(`"{"rule":{"description":"boost","active":true},"updatedRules":1}"`);
    expect(details(task(0, kind.dsrUpdate(null)))).toMatchInlineSnapshot(`"{"updatedRules":1}"`);
    expect(details(task(0, kind.dsrClear()))).toMatchInlineSnapshot(`"{"deletedDocuments":null}"`);
    expect(taskView(task(0, kind.dsrClear())).indexUid).toBe('.meili_dsr');
  });
});

describe('summarizedTaskView', () => {
  it('has exactly the five keys of a 202 answer', () => {
    const t = task(0, kind.create('tamo'), { enqueuedAt: 1_723_136_755_791_772_000n });
    expect(JSON.stringify(summarizedTaskView(t))).toMatchInlineSnapshot(`"{"taskUid":0,"indexUid":"tamo","status":"enqueued","type":"indexCreation","enqueuedAt":"2024-08-08T17:05:55.791772Z"}"`);
  });

  it('ends with the custom metadata when given', () => {
    const t = task(147, kind.add('movies'), { enqueuedAt: T0, customMetadata: 'abc' });
    expect(JSON.stringify(summarizedTaskView(t))).toMatchInlineSnapshot(`"{"taskUid":147,"indexUid":"movies","status":"enqueued","type":"documentAdditionOrUpdate","enqueuedAt":"2024-08-08T09:01:13Z","customMetadata":"abc"}"`);
  });

  it('shows global tasks with a null index uid', () => {
    expect(summarizedTaskView(task(1, kind.cancel([0]))).indexUid).toBeNull();
  });
});
