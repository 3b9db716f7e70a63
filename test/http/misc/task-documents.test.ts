/**
 * `GET /tasks/{uid}/documents` through the real server: the feature gate, the NDJSON payload of a
 * task that is still waiting, and `task_not_found` / `task_file_not_found`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, expectError, run, uniqueUid } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const GATE =
  'Getting the documents of an enqueued task requires enabling the `get task documents route` experimental feature. See https://github.com/orgs/meilisearch/discussions/808';
const NO_FILE = (uid: number) =>
  `Task \`${uid}\` does not contain any documents. Only \`documentAdditionOrUpdate\` tasks with the statuses \`enqueued\` or \`processing\` contain documents`;

describe('GET /tasks/{uid}/documents', () => {
  it('is gated by getTaskDocumentsRoute', async () => {
    const task = await run(server, 'POST', '/indexes', { uid: uniqueUid('gate') });
    expectError(await call(server, 'GET', `/tasks/${task.uid}/documents`), 400, 'feature_not_enabled', GATE);
  });

  describe('with the feature on', () => {
    beforeAll(async () => {
      const reply = await call(server, 'PATCH', '/experimental-features', { getTaskDocumentsRoute: true });
      expect(reply.status).toBe(200);
    });

    it('streams the payload of an enqueued task as NDJSON', async () => {
      // A large addition keeps the scheduler busy, so the small one behind it is still waiting.
      const big = Array.from({ length: 30_000 }, (_, i) => ({ id: i, title: `document number ${i} with some words` }));
      const first = await call(server, 'POST', `/indexes/${uniqueUid('big')}/documents`, big);
      expect(first.status).toBe(202);
      const documents = [{ id: 1, name: 'a "quoted" name' }, { id: 2, nested: { tags: ['x', 'y'] } }];
      const second = await call(server, 'POST', `/indexes/${uniqueUid('small')}/documents`, documents);
      expect(second.status).toBe(202);
      const res = await fetch(`${server.url}/tasks/${second.body.taskUid}/documents`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
      const lines = (await res.text()).split('\n').filter((line) => line !== '');
      expect(lines.map((line) => JSON.parse(line))).toStrictEqual(documents);
    });

    it('answers task_file_not_found once the task is finished', async () => {
      const task = await run(server, 'POST', `/indexes/${uniqueUid('done')}/documents`, [{ id: 1 }]);
      expect(task.status).toBe('succeeded');
      expectError(await call(server, 'GET', `/tasks/${task.uid}/documents`), 404, 'task_file_not_found', NO_FILE(task.uid));
    });

    it('answers task_file_not_found for a task without documents', async () => {
      const task = await run(server, 'POST', '/indexes', { uid: uniqueUid('nodocs') });
      expectError(await call(server, 'GET', `/tasks/${task.uid}/documents`), 404, 'task_file_not_found', NO_FILE(task.uid));
    });

    it('answers task_not_found and invalid_task_uids', async () => {
      expectError(await call(server, 'GET', '/tasks/999999/documents'), 404, 'task_not_found', 'Task `999999` not found.');
      expectError(
        await call(server, 'GET', '/tasks/abc/documents'),
        400,
        'invalid_task_uids',
        'Task uid `abc` is invalid. It should only contain numeric characters.',
      );
    });
  });
});
