/**
 * Document additions and updates, `POST`/`PUT /indexes/{uid}/documents` (documents.md §3): the
 * payload is streamed into an update file (JSON, NDJSON or CSV converted to NDJSON) before the
 * task is enqueued, and the file is removed if the enqueue fails or was a dry run. A declared payload large enough
 * for the extraction threads starts them before its upload (scheduler `expectDocuments`).
 */
import { validateIndexUid } from '../../indexes/uid.js';
import type { TaskInput } from '../../tasks/queue.js';
import type { AppDeps } from '../deps.js';
import { streamBody } from '../body/read-body.js';
import { checkCsvDelimiter, documentsFormat, DOCUMENTS_CONTENT_TYPES, writeDocumentsPayload } from '../body/documents/index.js';
import { admitWrite, enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute, type RouteContext } from '../route.js';
import { ApiError } from '../../errors/api-error.js';
import { compileQuery, parseString, type ValueParser } from '../../validation/index.js';

const parseSkipCreation: ValueParser<boolean> = (raw) => {
  const lower = raw.toLowerCase();
  if (lower === 'true' || lower === 'false') return lower === 'true';
  // v1.50 builds this error itself (as csvDelimiter's ASCII one): the message stands alone
  throw new ApiError('invalid_skip_creation', `skipCreation must be either \`true\` or \`false\`. Found: \`${raw}\``);
};

const parseAddQuery = compileQuery({
  primaryKey: { parse: parseString, code: 'invalid_index_primary_key' },
  // Checked while parsing the query, before the Content-Type (documents.md §3.1).
  csvDelimiter: { parse: checkCsvDelimiter, code: 'invalid_document_csv_delimiter' },
  customMetadata: { parse: parseString, code: 'invalid_index_custom_metadata' },
  skipCreation: { parse: parseSkipCreation, code: 'invalid_skip_creation' },
});

async function addDocuments(
  ctx: RouteContext<ReturnType<typeof parseAddQuery>, undefined>,
  deps: AppDeps,
  method: 'replace' | 'update',
) {
  const uid = validateIndexUid(ctx.params.indexUid!);
  // v1.50 reads the replication headers and asks the network before it looks at the payload
  const replication = replicationOf(deps, ctx.headers);
  const admission = admitWrite(deps, ctx);
  const { format, delimiter } = documentsFormat(ctx.headers['content-type'], ctx.query.csvDelimiter);
  const limit = deps.config.httpPayloadSizeLimit;
  const declared = Number(ctx.headers['content-length'] ?? Number.NaN);
  if (declared > 0 && declared <= limit) deps.scheduler.expectDocuments(declared);
  const chunks = ctx.stream === undefined ? emptyBody() : streamBody(ctx.stream, ctx.headers['content-encoding'], limit);
  const payload = await writeDocumentsPayload(chunks, format, delimiter, deps.updateFiles, limit);
  try {
    const input: TaskInput = {
      kind: {
        name: 'documentAdditionOrUpdate',
        indexUid: uid,
        primaryKey: ctx.query.primaryKey ?? null,
        method,
        contentFile: payload.uuid,
        documentsCount: payload.documentsCount,
        payloadSize: payload.size,
        allowIndexCreation: ctx.caller.canPerform('indexes.create', uid),
        onMissingDocument: ctx.query.skipCreation === true ? 'skip' : 'create',
      },
      customMetadata: ctx.query.customMetadata ?? null,
      ...replication,
    };
    const view = await enqueue(deps, input, { ctx, body: { kind: 'payload', uuid: payload.uuid }, admission });
    // a dry run's payload was read and checked, and is not kept (v1.50 writes it to no file)
    if (replication.dryRun === true) await deps.updateFiles.delete(payload.uuid);
    return view;
  } catch (err) {
    await deps.updateFiles.delete(payload.uuid);
    throw err;
  }
}

async function* emptyBody(): AsyncGenerator<Buffer> {}

export const documentAdditionRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    contentTypes: DOCUMENTS_CONTENT_TYPES,
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'replace'),
  }),
  defineRoute({
    route: 'PUT /indexes/:indexUid/documents',
    query: parseAddQuery,
    body: 'stream',
    contentTypes: DOCUMENTS_CONTENT_TYPES,
    status: 202,
    handler: (ctx, deps) => addDocuments(ctx, deps, 'update'),
  }),
];
