/**
 * `GET /tasks/{uid}/documents` (tasks-batches.md §6, feature `getTaskDocumentsRoute`): streams the
 * payload of a still unfinished document addition. Update files already hold one JSON document
 * per line, whatever format the client sent, so the file is the NDJSON answer as is.
 */
import { open } from 'node:fs/promises';
import { ApiError } from '../../errors/api-error.js';
import { defineRoute } from '../route.js';
import { parsePathUid } from './tasks.js';

function fileNotFound(uid: number): ApiError {
  return new ApiError(
    'task_file_not_found',
    `Task \`${uid}\` does not contain any documents. Only \`documentAdditionOrUpdate\` tasks with the statuses \`enqueued\` or \`processing\` contain documents`,
  );
}

export const taskDocumentRoutes = [
  defineRoute({
    route: 'GET /tasks/:taskUid/documents',
    handler: async (ctx, deps) => {
      deps.features.require(
        'getTaskDocumentsRoute',
        'Getting the documents of an enqueued task',
        'get task documents route',
        'https://github.com/orgs/meilisearch/discussions/808',
      );
      const uid = parsePathUid(ctx.params.taskUid!, 'Task');
      const task = deps.queue.get(uid, ctx.caller.indexFilter());
      if (task === undefined) throw new ApiError('task_not_found', `Task \`${uid}\` not found.`);
      if (task.kind.name !== 'documentAdditionOrUpdate') throw fileNotFound(uid);
      const source = deps.updateFiles.source(task.kind.contentFile);
      ctx.reply.type('application/x-ndjson');
      if ('bytes' in source) return Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength);
      // Opening first pins the file: the scheduler may delete it once the task finishes, and an
      // open descriptor keeps reading the whole payload while a missing file is a clean 404.
      let handle;
      try {
        handle = await open(source.file, 'r');
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw fileNotFound(uid);
        throw err;
      }
      return handle.createReadStream();
    },
  }),
];
