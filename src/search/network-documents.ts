/**
 * Document reads over the network (network.md §7.1, §7.3; v1.50's `retrieve_documents_federated`).
 * The list (`GET …/documents`, `POST …/documents/fetch`) with `useNetwork` is partitioned like a
 * search (network-partition.ts): every copy asks for the first `offset + limit` documents, its
 * filter ANDed with its shard's; the copies of other instances go to
 * `<remote>/indexes/{uid}/documents/fetch` with `Meili-Proxy-Search: true` (remote-search.ts),
 * this instance's copies are listed here the same way, this instance's lists first. The lists are
 * merged as v1.50 merges them (kmerge.ts) by their documents' sort values
 * (`_federation.weightedScoreValues`, then stripped), ties and unsorted lists in partition order,
 * and cut to the requested window; `total` is the sum, and `remoteErrors` lists
 * the failed remotes only when there is one. A document lacking its score values fails the read
 * (`remote_bad_response`), as in v1.50. `GET …/documents/{id}` asks the network only when the
 * document is not found here (not with v1.50's `useNetwork: true`, see `documentRequest`).
 */
import { ApiError, type ErrorBody } from '../errors/api-error.js';
import type { JsonObject } from '../engine/document-id.js';
import { validateIndexUid } from '../indexes/uid.js';
import { isCount, missingInHit, unexpectedInHit } from '../network/remote-answer.js';
import { isJsonObject } from '../types/json-text.js';
import { ownRecord } from '../types/own-record.js';
import type { StreamedJson } from '../types/streamed-json.js';
import type { SearchContext } from './context.js';
import { answerDocuments, getDocument, listDocuments, withFetchPermit, type DocumentsQuery } from './documents.js';
import { fuseFilters } from './filter.js';
import { sendCopies, sortedErrors } from './network-requests.js';
import { forwardable, requestPartition, usesNetwork } from './network-use.js';
import { kmergeBy } from './kmerge.js';
import { compareScoreValues, parseScoreValues, type ScoreValue } from './score-values.js';
import { streamedWhenLong } from './streamed-answer.js';

/** `GET …/documents` and `POST …/documents/fetch`; `proxy`: the request carries `Meili-Proxy-Search: true`. */
export function documentsRequest(ctx: SearchContext, uid: string, query: DocumentsQuery, proxy: boolean): Promise<Record<string, unknown> | StreamedJson> {
  return withFetchPermit<Record<string, unknown> | StreamedJson>(ctx, () => {
    // the uid's format first, then `useNetwork`'s feature, then the index itself (v1.50's order)
    validateIndexUid(uid);
    if (!usesNetwork(ctx, query.useNetwork)) return answerDocuments(ctx, uid, query, { proxy });
    return networkDocuments(ctx, uid, query);
  });
}

/**
 * `GET …/documents/{id}`: this instance's document, else (with `useNetwork`) the network's; a
 * document holding long strings as a StreamedJson (streamed-answer.ts).
 */
export async function documentRequest(ctx: SearchContext, uid: string, id: string, fields: string[] | null, retrieveVectors: boolean | undefined, useNetwork: boolean | undefined): Promise<JsonObject | StreamedJson> {
  validateIndexUid(uid);
  const networked = usesNetwork(ctx, useNetwork);
  try {
    return streamedWhenLong(getDocument(ctx, uid, id, fields, retrieveVectors), 1);
  } catch (err) {
    if (!networked || !(err instanceof ApiError) || err.code !== 'document_not_found') throw err;
  }
  // v1.50 sends `useNetwork: true` here: a remote with a network then reads it in turn and
  // answers documents without their score values, which fails this read (remote_bad_response).
  // Quarry sends what the list sends, so that the document is found.
  const query = { offset: 0, limit: 1, fields, ...(retrieveVectors === undefined ? {} : { retrieveVectors }), ids: [id] };
  const found = await networkDocuments(ctx, uid, query);
  const last = (found.results as JsonObject[]).at(-1);
  if (last === undefined) throw new ApiError('document_not_found', `Document \`${id}\` not found.`);
  return streamedWhenLong(last, 1);
}

/** One copy's list: its documents with their score values, in the copy's order. */
interface CopyList {
  readonly position: number;
  readonly documents: readonly unknown[];
}

async function networkDocuments(ctx: SearchContext, uid: string, query: DocumentsQuery): Promise<Record<string, unknown>> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  const { useNetwork: _useNetwork, ...plain } = query;
  // every copy lists from the first document: the window is cut once merged
  const copyQuery = (shardFilter: string | null): DocumentsQuery => {
    const filter = fuseFilters(plain.filter, shardFilter);
    return { ...plain, offset: 0, limit: offset + limit, ...(filter === null || filter === undefined ? {} : { filter }) };
  };
  const copies = requestPartition(ctx);
  const abandoned = new AbortController();
  const answers = sendCopies(ctx, copies, {
    path: `/indexes/${encodeURIComponent(uid)}/documents/fetch`,
    body: ({ shardFilter }) => forwardable(ctx, copyQuery(shardFilter)),
    accepts: isDocumentsResponse,
    signal: abandoned.signal,
  });
  try {
    const lists: CopyList[] = [];
    let total = 0;
    const self = ctx.network.names().self;
    for (const [position, { remote, shardFilter }] of copies.entries()) {
      if (remote !== self) continue;
      const listed = await listDocuments(ctx, uid, copyQuery(shardFilter), { proxy: true });
      lists.push({ position, documents: listed.results });
      total += listed.total;
    }
    let remoteErrors: Record<string, ErrorBody> | null = null;
    // keyed by remote name: `__proto__` is a name like any other
    const failed = ownRecord<ErrorBody>();
    for (const { remote, position, answer } of await Promise.all(answers)) {
      if (!answer.ok) {
        failed[remote] = answer.error;
        continue;
      }
      // a remote was asked for the first `offset + limit` documents: more would only cost merging work here
      lists.push({ position, documents: (answer.body.results as unknown[]).slice(0, offset + limit) });
      total += answer.body.total as number;
      // a remote that read a network in turn passes its own failures on
      if (isJsonObject(answer.body.remoteErrors)) remoteErrors = { ...(remoteErrors ?? {}), ...(answer.body.remoteErrors as Record<string, ErrorBody>) };
    }
    if (Object.keys(failed).length > 0) remoteErrors = { ...(remoteErrors ?? {}), ...failed };
    const body: Record<string, unknown> = { results: mergeDocumentLists(lists).slice(offset, offset + limit), offset, limit, total };
    if (remoteErrors !== null) body.remoteErrors = sortedErrors(remoteErrors);
    return body;
  } finally {
    abandoned.abort();
  }
}

/** Whether a remote's answer reads as a document list. */
export function isDocumentsResponse(body: Record<string, unknown>): boolean {
  return Array.isArray(body.results) && body.results.every(isJsonObject) && isCount(body.offset) && isCount(body.limit) && isCount(body.total);
}

/** A listed document without `_federation`, and its score values; v1.50's error when they are missing or unreadable. */
function scored(document: unknown): { document: JsonObject; values: ScoreValue[] } {
  const { _federation: federation, ...rest } = document as JsonObject;
  if (federation === undefined) throw new ApiError('remote_bad_response', missingInHit('._federation'));
  if (!isJsonObject(federation)) throw new ApiError('remote_bad_response', unexpectedInHit('._federation', 'map', federation));
  if (federation.weightedScoreValues === undefined) throw new ApiError('remote_bad_response', missingInHit('._federation.weightedScoreValues'));
  const values = parseScoreValues(federation.weightedScoreValues);
  if (values === null) throw new ApiError('remote_bad_response', `could not parse weighted score values in the remote hit: ${JSON.stringify(federation.weightedScoreValues)}`);
  return { document: rest, values };
}

/**
 * The documents of every copy's list in one order, as v1.50's `merge_documents_results` takes
 * them (itertools' `kmerge_by`, kmerge.ts): the head with the better score values first, equal
 * ones by partition position (an unsorted read thus concatenates the lists).
 */
export function mergeDocumentLists(lists: readonly CopyList[]): JsonObject[] {
  const scoredLists = lists.map(({ position, documents }) => documents.map((document) => ({ position, ...scored(document) })));
  const merged = kmergeBy(scoredLists, (a, b) => {
    const order = compareScoreValues(a.values, 0, b.values, 0);
    return order > 0 || (order === 0 && a.position < b.position);
  });
  return merged.map(({ document }) => document);
}
