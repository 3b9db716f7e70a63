/**
 * An extraction worker's share of a batch (ahead-parts.ts): the parts of the batch's
 * additions numbered `thread` modulo `threads`, each one's words and facet entries extracted and
 * packed to hand over. Every worker walks every line (cheap: lines split on 0x0A) so all cut and
 * number the parts alike (a part ends at AHEAD_PART_DOCS lines, or once its lines hold
 * `partBytes`); each parses only its own, and leaves a part holding a line the write refuses to
 * the write. The first worker first has the dictionary segmenters the batch will need loaded
 * (dictionary-scout.ts). A document the write drops (`drops`: of a shard this instance does not
 * own, with a sharded network) is extracted as an empty document: its line keeps its place, at
 * no cost.
 */
import type { PayloadSource } from '../../store/update-files.js';
import type { IndexSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
import { ndjsonLines, parsedLine } from '../documents/ndjson-payload.js';
import { preloadDictionaries } from '../../kernels/run-segmenter.js';
import { scoutDictionaries } from './dictionary-scout.js';
import { extractorFor, SearchFieldIds } from './extract.js';
import { extractAheadFacets } from '../facets/ahead-facets.js';
import { AHEAD_PART_DOCS, type AheadPart } from './ahead-parts.js';

export interface AheadJob {
  /** per operation of the batch: its payload when it is an addition */
  readonly sources: readonly (PayloadSource | null)[];
  readonly thread: number;
  readonly threads: number;
  /** a part also ends once its lines hold this many bytes (large documents), AHEAD_PART_DOCS otherwise */
  readonly partBytes?: number;
}

const EMPTY_DOCUMENT: JsonObject = {};

export function* extractAheadParts(job: AheadJob, settings: IndexSettings, searchFields: readonly string[], drops?: (doc: JsonObject) => boolean): Generator<AheadPart> {
  const fields = new SearchFieldIds(searchFields);
  // one worker is enough to have the dictionaries the batch needs loaded early
  if (job.thread === 0) preloadDictionaries([...scoutDictionaries(job.sources, settings, searchFields)]);
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
      let words = null;
      let facets = null;
      if (docs !== null) {
        const extractor = extractorFor(settings, fields);
        words = extractor.toAheadWords(extractor.extract(docs.map((doc, i) => ({ docid: i, doc })), true), settings.prefixSearch !== 'disabled');
        facets = extractAheadFacets(docs, settings);
      }
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

