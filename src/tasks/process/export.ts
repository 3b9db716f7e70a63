/**
 * `export` (misc-routes.md §10, v1.50's `process_export`, always alone in its batch): sends each
 * index matching one of the task's patterns (the first in pattern order) to another instance.
 * Per index: `GET <url>/indexes/<uid>`; a missing index is created with its primary key and gets
 * this index's settings (secrets revealed; `foreignKeys` and `chat` only while their features
 * are on); an existing one keeps its settings unless `overrideSettings`, which also sets its
 * primary key. Then the documents the index filter selects (all without one), embeddings in
 * `_vectors`, as gzipped NDJSON payloads of at most `payloadSize` bytes (at least one document
 * each; by default the payload limit less 1 MiB, at least 20 MiB). The remote's tasks are not
 * waited for.
 *
 * Every request has 5 s and is retried with exponential backoff (0.5 s, ×1.5, ±50 %, for at most
 * 15 minutes) on connection errors and 408/429/500/502/503/504, as v1.50's; another failure fails
 * the task with v1.50's ``Failed to export documents to remote server …``, or, when the remote's
 * answer is no Meilisearch error, serde_json's reading error as v1.50's HTTP client words it
 * (`json: expected value at line 1 column 1`). A cancelation stops it
 * between requests. Outgoing requests obey the IP policy (outgoing/): a refused address fails the
 * task at once, where v1.50 would retry it.
 * The sending (`send`, `sendRefusable`, `shipIndex`) is shared with a topology change's export
 * (network-export.ts), which adds its import headers and refusal verdicts per index.
 */
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { patternMatches } from '../../auth/index-pattern.js';
import { portableDocument } from '../../engine/vectors/portable-document.js';
import { DocumentStore } from '../../engine/documents/store.js';
import { evaluateFilter } from '../../engine/filter/evaluate.js';
import { assertFilterFeatures, rejectForeignFilter } from '../../engine/filter/gates.js';
import { parseFilter } from '../../engine/filter-parser/index.js';
import type { DocSet } from '../../engine/docset.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { readSettings } from '../../engine/index-settings.js';
import { vectorFilter } from '../../engine/vectors/index.js';
import { ApiError, inIndex } from '../../errors/api-error.js';
import type { OutgoingRequest, OutgoingResponse } from '../../outgoing/client.js';
import { Transient, withBackoff } from '../../outgoing/backoff.js';
import { RejectedIp } from '../../outgoing/ip-policy.js';
import { REVEAL_SECRETS, settingsView } from '../../settings/view.js';
import { fromSlice, SerdeError, string, struct } from '../../types/serde-json.js';
import { stringifyReply } from '../../types/reply-text.js';
import { setField } from '../../types/own-record.js';
import type { ExportIndexSettings } from '../../types/task.js';
import type { BatchProcessor, ExportDeps, ProcessContext } from './context.js';
import { succeeded } from './outcome.js';
import { TimeSlices } from '../../types/time-slices.js';

const gzipped = promisify(gzip);

const REQUEST_TIMEOUT_MS = 5000;
const TRANSIENT = new Set([408, 429, 500, 502, 503, 504]);

/** The default payload of v1.50 (`almost_as_big_as`): the payload limit less 1 MiB, never under 20 MiB. */
export function defaultExportPayloadSize(httpPayloadSizeLimit: number): number {
  return Math.max(httpPayloadSizeLimit - 2 ** 20, 20 * 2 ** 20);
}

/** One request to the remote, retried as v1.50's `backoff::retry`; an unsuccessful final answer is an error. */
export function send(deps: ExportDeps, signal: AbortSignal, url: string, init: Omit<OutgoingRequest, 'timeoutMs' | 'signal'>): Promise<OutgoingResponse> {
  return withBackoff(signal, async () => {
    let response: OutgoingResponse;
    try {
      response = await deps.request(url, { ...init, timeoutMs: REQUEST_TIMEOUT_MS, signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      // an address the IP policy refuses is refused again: no point in 15 minutes of retries
      if (err instanceof RejectedIp) throw new ApiError('internal', err.ureqMessage);
      throw new Transient(new ApiError('internal', (err as Error).message));
    }
    if (response.status >= 200 && response.status < 300) return response;
    const refusal = remoteError(response);
    throw TRANSIENT.has(response.status) ? new Transient(refusal) : refusal;
  });
}

/** The remote's error answer, as v1.50 words it (`FromRemoteWhenExporting`, an internal error), with the remote's code. */
export class RemoteExportError extends ApiError {
  constructor(
    readonly remoteCode: string | null,
    message: string,
  ) {
    super('internal', message);
  }
}

/** v1.50's `MeiliError`, read from a remote's refusal with serde_json. */
const MEILI_ERROR = struct('MeiliError', ['message', 'code', 'type', 'link'].map((name) => ({ name, read: string() })));

/**
 * A remote's refusal: its Meilisearch error, or, for a body that is none, the reading's own error
 * as v1.50's HTTP client words it (`json: expected value at line 1 column 1`).
 */
function remoteError(response: OutgoingResponse): RemoteExportError {
  let error: Record<string, unknown>;
  try {
    error = fromSlice(response.body, MEILI_ERROR);
  } catch (err) {
    if (err instanceof SerdeError) return new RemoteExportError(null, `json: ${err.message}`);
    throw err;
  }
  const { message, code, type, link } = error as Record<'message' | 'code' | 'type' | 'link', string>;
  return new RemoteExportError(code, `Failed to export documents to remote server ${code} (${type}): ${message} <${link}>`);
}

/** Where an export goes: the base URL (no trailing slash) and the headers every request carries. */
export interface ExportTarget {
  readonly base: string;
  readonly headers: Record<string, string>;
}

/** One index to send, and how. */
export interface IndexShipment {
  readonly uid: string;
  readonly env: IndexEnv;
  /** the documents to send (internal docids); null: every document */
  readonly universe: (ArrayLike<number> & Iterable<number>) | null;
  /** an existing remote index gets this index's primary key and settings too */
  readonly overrideSettings: boolean;
  readonly payloadSize: number;
  /**
   * Extra headers of each request (a topology change's import headers): `payload` describes the
   * documents payload it goes with, null for the index and settings requests.
   */
  readonly headers?: (payload: { documents: number; firstDocid: number | null } | null) => Record<string, string>;
  /** a topology change sends a payload even without documents, so that the remote knows */
  readonly announceEmpty?: boolean;
  /** what a refusal with this Meilisearch error code means: `continue` as if sent, `stop` sending this index */
  readonly refused?: (code: string) => 'continue' | 'stop' | null;
}

/** `send`, with a verdict on a refusal (`IndexShipment.refused`): false when sending must stop. */
export async function sendRefusable(deps: ExportDeps, signal: AbortSignal, refused: IndexShipment['refused'], url: string, init: Omit<OutgoingRequest, 'timeoutMs' | 'signal'>): Promise<boolean> {
  try {
    await send(deps, signal, url, init);
    return true;
  } catch (err) {
    const verdict = err instanceof RemoteExportError && err.remoteCode !== null ? refused?.(err.remoteCode) : null;
    if (verdict === 'continue') return true;
    if (verdict === 'stop') return false;
    throw err;
  }
}

/** Sends one index to the target (index, settings, then documents); answers how many documents were sent. */
export async function shipIndex(ctx: ProcessContext, deps: ExportDeps, target: ExportTarget, shipment: IndexShipment): Promise<number> {
  const { uid, env } = shipment;
  const settings = readSettings(env);
  const extra = (payload: { documents: number; firstDocid: number | null } | null) => ({ ...target.headers, ...shipment.headers?.(payload) });
  const indexUrl = `${target.base}/indexes/${encodeURIComponent(uid)}`;
  let exists: boolean;
  try {
    exists = (await send(deps, ctx.signal, indexUrl, { method: 'GET', headers: target.headers })).status === 200;
  } catch (err) {
    if (!(err instanceof RemoteExportError) || err.remoteCode !== 'index_not_found') throw err;
    exists = false;
  }
  const json = (body: unknown) => ({ headers: { ...extra(null), 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify(body)) });
  const primaryKey = ctx.indexes.get(uid)?.primaryKey ?? null;
  if (!exists && !(await sendRefusable(deps, ctx.signal, shipment.refused, new URL('/indexes', target.base).toString(), { method: 'POST', ...json({ uid, primaryKey }) }))) return 0;
  if (exists && shipment.overrideSettings && !(await sendRefusable(deps, ctx.signal, shipment.refused, indexUrl, { method: 'PATCH', ...json({ primaryKey }) }))) return 0;
  if (!exists || shipment.overrideSettings) {
    if (!(await sendRefusable(deps, ctx.signal, shipment.refused, `${indexUrl}/settings`, { method: 'PATCH', ...json(settingsView(settings, deps.visibleSettings(), REVEAL_SECRETS)) }))) return 0;
  }

  const store = new DocumentStore(env);
  const { universe } = shipment;
  // counted from here, as v1.50 starts its document step once the settings are sent
  const counted = ctx.progress.count('document', universe === null ? store.count() : universe.length);
  const documents = universe === null ? store.entries() : (function* () {
    for (const docid of universe) {
      const doc = store.byDocid(docid);
      if (doc !== undefined) yield { docid, doc };
    }
  })();
  const flush = async (lines: Buffer[], firstDocid: number | null): Promise<boolean> => {
    const body = await gzipped(lines.length === 0 ? Buffer.from(' ') : Buffer.concat(lines));
    const headers = { ...extra({ documents: lines.length, firstDocid }), 'content-type': 'application/x-ndjson', 'content-encoding': 'gzip' };
    return sendRefusable(deps, ctx.signal, shipment.refused, `${indexUrl}/documents`, { method: 'POST', headers, body });
  };
  let lines: Buffer[] = [];
  let first: number | null = null;
  let bytes = 0;
  let count = 0;
  // a payload of 100 MB is read and written on the thread answering requests: turns for the event
  // loop between documents (debdocs' 253,170 held it 1.5 s), each line kept as its bytes
  const slices = new TimeSlices();
  for (const { docid, doc } of documents) {
    await slices.pause();
    const line = Buffer.from(`${stringifyReply(portableDocument(env, settings, docid, doc))}\n`);
    const size = line.length;
    // at least one document per payload, even one larger than the payload size
    if (lines.length > 0 && bytes + size > shipment.payloadSize) {
      if (!(await flush(lines, first))) return count;
      [lines, bytes, first] = [[], 0, null];
    }
    lines.push(line);
    first ??= docid;
    bytes += size;
    count += 1;
    counted();
  }
  if (lines.length > 0 || (count === 0 && shipment.announceEmpty === true)) await flush(lines, first);
  return count;
}

/**
 * The documents of index `uid` that `filter` selects (null: all of them). As v1.50's
 * `parse_local_index_filter`: an operator whose experimental feature is off, then a `_foreign(...)`
 * call (one index's documents), are refused before the index evaluates it.
 */
function filtered(deps: ExportDeps, uid: string, env: IndexEnv, filter: unknown): DocSet | null {
  if (filter === null || filter === undefined) return null;
  try {
    const settings = readSettings(env);
    const ast = parseFilter(filter, { code: 'invalid_document_filter' });
    if (ast === null) return null;
    assertFilterFeatures(ast, deps.filterFeature);
    rejectForeignFilter(ast, 'invalid_document_filter');
    return evaluateFilter(env, settings, ast, { code: 'invalid_document_filter', vectors: vectorFilter(env, settings) });
  } catch (err) {
    throw err instanceof ApiError ? inIndex(uid, err) : err;
  }
}

export const processExport: BatchProcessor = async (ctx, [task]) => {
  const kind = task!.kind;
  if (kind.name !== 'export') throw new Error(`export batch got ${kind.name}`);
  const deps = ctx.exports;
  if (deps === undefined) throw new ApiError('internal', 'exports are not available in this process');
  const patterns = Object.keys(kind.indexes).sort();
  const chosen = ctx.indexes
    .list()
    .map((record) => record.uid)
    .sort()
    .flatMap((uid) => {
      const pattern = patterns.find((candidate) => patternMatches(candidate, uid));
      return pattern === undefined ? [] : [{ uid, options: kind.indexes[pattern]! }];
    });
  const target: ExportTarget = { base: kind.url.replace(/\/$/, ''), headers: kind.apiKey === null ? {} : { authorization: `Bearer ${kind.apiKey}` } };
  const exported: Record<string, ExportIndexSettings & { matchedDocuments: number }> = {};
  for (const [i, { uid, options }] of chosen.entries()) {
    ctx.progress.enterNamed('export', `Exporting index \`${uid}\``, i, chosen.length);
    const record = ctx.indexes.get(uid);
    if (record === undefined) continue;
    const payloadSize = kind.payloadSize ?? deps.defaultPayloadSize;
    const matched = await ctx.indexEnvs.use(record.uuid, (env) =>
      shipIndex(ctx, deps, target, { uid, env, universe: filtered(deps, uid, env, options.filter), overrideSettings: options.overrideSettings, payloadSize }),
    );
    setField(exported, uid, { ...options, matchedDocuments: matched });
  }
  return { tasks: [succeeded(task!, { kind: 'export', url: kind.url, apiKey: kind.apiKey, payloadSize: kind.payloadSize, indexes: exported })] };
};
