/**
 * An extraction worker's share of a batch (ahead-parts.ts): the parts of the batch's
 * additions numbered `thread` modulo `threads`, each one's words and facet entries extracted and
 * packed to hand over, its words and prefixes named in the worker's lexicon for the write
 * (lexicon.ts). Every worker walks every line (cheap: lines split on 0x0A) so all cut and
 * number the parts alike (a part ends at AHEAD_PART_DOCS lines, or once its lines hold
 * `partBytes`); each parses only its own, and leaves a part holding a line the write refuses to
 * the write. A document the write drops (`drops`: of a shard this instance does not
 * own, with a sharded network) is extracted as an empty document: its line keeps its place, at
 * no cost.
 * A settings write that rebuilds the word index has its workers extract the index's stored
 * documents instead (`extractStoredParts`), under the write's settings and from no search
 * fields, as the rebuild starts: parts of AHEAD_PART_DOCS documents in docid order, as the
 * rebuild walks them, each with its documents' docids.
 */
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
import { ndjsonLines, parsedLine } from '../documents/ndjson-payload.js';
import { extractorFor, SearchFieldIds } from './extract.js';
import { extractAheadFacets } from '../facets/ahead-facets.js';
import { AHEAD_PART_DOCS, type AheadPart } from './ahead-parts.js';
import { WorkerLexicon } from './lexicon.js';

export interface AheadJob {
  /** per operation of the batch: its payload when it is an addition */
  readonly sources: readonly (PayloadSource | null)[];
  readonly thread: number;
  readonly threads: number;
  /** a part also ends once its lines hold this many bytes (large documents), AHEAD_PART_DOCS otherwise */
  readonly partBytes?: number;
}

/** A worker's share of an index's stored documents (a rebuild), read from its own handle on the environment. */
export interface StoredJob {
  /** the index environment's folder and uuid (engine/index-env.ts) */
  readonly stored: { readonly folder: string; readonly uuid: string };
  /** the settings write's settings, which its rebuild extracts under (from no search fields) */
  readonly settings: IndexSettings;
  readonly thread: number;
  readonly threads: number;
}

const EMPTY_DOCUMENT: JsonObject = {};

/** What a worker's parts of one write share: its search field ids, its lexicon (lexicon.ts), its thread number. */
interface WorkerState {
  readonly fields: SearchFieldIds;
  readonly lexicon: WorkerLexicon;
  readonly worker: number;
}

/** The words (and, when asked, facet entries) of one part's documents. */
function extractPart(docs: readonly JsonObject[], settings: IndexSettings, { fields, lexicon, worker }: WorkerState, withFacets: boolean): Pick<AheadPart, 'words' | 'facets'> {
  const extractor = extractorFor(settings, fields, lexicon.nextPart());
  const words = extractor.extractAhead(docs, settings.prefixSearch !== 'disabled', lexicon, worker);
  return { words, facets: withFacets ? extractAheadFacets(docs, settings) : null };
}

export function* extractAheadParts(job: AheadJob, settings: IndexSettings, searchFields: readonly string[], drops?: (doc: JsonObject) => boolean): Generator<AheadPart> {
  const state: WorkerState = { fields: new SearchFieldIds(searchFields), lexicon: new WorkerLexicon(), worker: job.thread };
  let seq = 0;
  const partBytes = job.partBytes ?? Number.POSITIVE_INFINITY;
  // whether the current part is this worker's
  const ours = () => seq % job.threads === job.thread;
  for (const [op, source] of job.sources.entries()) {
    if (source === null) continue;
    let line = 0;
    let first = 0;
    let bytes = 0;
    let docs: JsonObject[] | null = [];
    // ends the current part: this worker's, extracted, or null
    const part = (): AheadPart | null => {
      const mine = ours() ? seq : null;
      seq++;
      if (mine === null) return null;
      const { words, facets } = docs === null ? { words: null, facets: null } : extractPart(docs, settings, state, true);
      return { seq: mine, op, first, count: line - first, words, facets };
    };
    for (const { buffer, start, end } of ndjsonLines(source)) {
      if (ours() && docs !== null) {
        const doc = parsedLine(buffer.subarray(start, end));
        // the write fails this payload: nothing to prepare
        if (doc === null) docs = null;
        else docs.push(drops?.(doc) === true ? EMPTY_DOCUMENT : doc);
      }
      bytes += end - start;
      if (++line - first === AHEAD_PART_DOCS || bytes >= partBytes) {
        const done = part();
        if (done !== null) yield done;
        first = line;
        bytes = 0;
        docs = [];
      }
    }
    if (line > first) {
      const done = part();
      if (done !== null) yield done;
    }
  }
}

/**
 * A worker's parts of the stored documents (`docids`: every docid of the index, ascending), as
 * addition 0 of a write whose lines are the documents in that order; `documentOf` reads one.
 * Only words: a rebuild's facets are derived by the facet updater's own walk.
 */
export function* extractStoredParts(
  docids: Iterable<number>,
  documentOf: (docid: number) => JsonObject | undefined,
  job: Pick<StoredJob, 'thread' | 'threads' | 'settings'>,
): Generator<AheadPart> {
  const { settings } = job;
  // a rebuild numbers search fields from none
  const state: WorkerState = { fields: new SearchFieldIds([]), lexicon: new WorkerLexicon(), worker: job.thread };
  let seq = 0;
  let first = 0;
  let line = 0;
  let ids: number[] = [];
  const part = (): AheadPart | null => {
    const mine = seq++ % job.threads === job.thread;
    if (!mine) return null;
    const docs = ids.map(documentOf);
    // a document gone from this worker's view is left to the write, which reads its own
    const extracted = docs.includes(undefined) ? { words: null, facets: null } : extractPart(docs as JsonObject[], settings, state, false);
    return { seq: seq - 1, op: 0, first, count: line - first, ...extracted, docids: Uint32Array.from(ids) };
  };
  for (const docid of docids) {
    ids.push(docid);
    if (++line - first === AHEAD_PART_DOCS) {
      const done = part();
      if (done !== null) yield done;
      first = line;
      ids = [];
    }
  }
  if (line > first) {
    const done = part();
    if (done !== null) yield done;
  }
}
