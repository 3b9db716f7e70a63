/**
 * Words and facet entries extracted ahead of a document batch, off the index writer's thread:
 * extraction workers read the batch's addition payloads in parallel with the write and hand over
 * each run (a "part") of AHEAD_PART_DOCS documents' words and facet entries
 * (facets/ahead-facets.ts); the write takes a document's instead of extracting them when the
 * document it indexes is the payload's document unchanged (a replacement or a new document, no
 * vectors merged).
 *
 * Parts are numbered in payload order over the batch's additions, every part of AHEAD_PART_DOCS
 * non-empty lines (the last of an addition fewer), so the workers and the write agree on them
 * without talking. The write notes where each document it takes from a payload comes from
 * (`note`), asks for its words when indexing it (`take`), and lets the parts go once the
 * documents noted so far are indexed (`release`): positions only grow in a batch, so held parts
 * stay about one chunk of documents. A part that is missing (its worker failed, stopped or never
 * ran) just means the write extracts those documents itself, and those of its worker's later
 * parts, whose words it cannot read without the words the missing part added to the worker's
 * lexicon (lexicon.ts), until that lexicon starts over.
 * A settings write's rebuild of the word index takes its stored documents' words the same way:
 * they are the lines of one addition in docid order, each noted with its docid, and a part
 * (which carries its documents' docids) gives words only to the documents it has at their place.
 */
import type { JsonObject } from '../document-id.js';
import type { AheadFacets, FacetsAhead } from '../facets/ahead-facets.js';
import type { AheadDoc, AheadWords } from './ahead-words.js';
import { ReceivedLexicon } from './lexicon.js';
import type { IndexSettings } from '../../types/settings.js';

/**
 * 500: a part's documents and words die young in an extraction worker's nursery (pool.ts), and
 * the parts held ahead of the write (MAX_AHEAD) hold a quarter of what 2,000 held.
 */
export const AHEAD_PART_DOCS = 500;

/** What a worker hands over per part: the words of lines [first, first + count) of addition `op`. */
export interface AheadPart {
  readonly seq: number;
  readonly op: number;
  readonly first: number;
  readonly count: number;
  /** null when the part could not be extracted (e.g. a line that is not JSON) */
  readonly words: AheadWords | null;
  /** null when the part could not be extracted, or has a `_geo` the write refuses */
  readonly facets: AheadFacets | null;
  /** the docids of its documents, when they are stored ones (extract-ahead.ts `extractStoredParts`) */
  readonly docids?: Uint32Array;
}

/** The parts, in order; implemented over worker threads (workers/ahead-ports.ts). */
export interface AheadPartSource {
  /** Whether the workers extract addition `op` (else the write does: no part will come). */
  extracts(op: number): boolean;
  /** What the workers extract against: the write's settings and its index's search fields. */
  start(settings: IndexSettings, searchFields: readonly string[]): void;
  /**
   * The write took line `line` of addition `op` as a document whose words it will ask for: the
   * parts up to that line are needed by the chunk it is reading, whatever lies ahead.
   */
  noted(op: number, line: number): void;
  /** The next part, waiting for it; null when no more will come. */
  next(): AheadPart | null;
}

/** Lines of one addition are told apart from the next addition's by this factor. */
const OP_STRIDE = 2 ** 31;

interface HeldPart {
  readonly start: number;
  readonly end: number;
  readonly words: AheadWords | null;
  /** the lexicon of the worker that extracted `words` */
  readonly lexicon: ReceivedLexicon | null;
  readonly facets: AheadFacets | null;
  readonly docids: Uint32Array | undefined;
}

export class AheadParts implements FacetsAhead {
  private readonly positions = new Map<JsonObject, number>();
  /** the docids stored documents were noted with */
  private readonly docids = new Map<JsonObject, number>();
  private readonly held: HeldPart[] = [];
  /** per worker: its lexicon, as its parts arrived; null once one of its parts never came */
  private readonly lexicons = new Map<number, ReceivedLexicon | null>();
  private lastNoted = -1;
  private ended = false;

  constructor(private readonly source: AheadPartSource) {}

  start(settings: IndexSettings, searchFields: readonly string[]): void {
    this.source.start(settings, searchFields);
  }

  /**
   * `doc`, as indexed, is line `line` of addition `op`'s payload; or, with its `docid`, the
   * `line`th stored document (a rebuild), which takes its part's words only if the part has it
   * at that place.
   */
  note(doc: JsonObject, op: number, line: number, docid?: number): void {
    if (!this.source.extracts(op)) return;
    const position = op * OP_STRIDE + line;
    this.positions.set(doc, position);
    if (docid !== undefined) this.docids.set(doc, docid);
    this.lastNoted = position;
    this.source.noted(op, line);
  }

  /** The ahead words of a noted document, when its part came. */
  take(doc: JsonObject): AheadDoc | undefined {
    const found = this.partOf(doc);
    if (found === undefined || found.part.words === null || found.part.lexicon === null) return undefined;
    return { ahead: found.part.words, index: found.index, lexicon: found.part.lexicon };
  }

  /** The facet entries extracted ahead for a noted document, when its part came. */
  facetsOf(doc: JsonObject): { facets: AheadFacets; index: number } | undefined {
    const found = this.partOf(doc);
    if (found === undefined || found.part.facets === null) return undefined;
    return { facets: found.part.facets, index: found.index };
  }

  /** The part holding a noted document, and its index there, waiting for the part if need be. */
  private partOf(doc: JsonObject): { part: HeldPart; index: number } | undefined {
    const position = this.positions.get(doc);
    if (position === undefined) return undefined;
    while (!this.ended && (this.held.length === 0 || this.held[this.held.length - 1]!.end <= position)) {
      const part = this.source.next();
      if (part === null) this.ended = true;
      else this.held.push({ start: part.op * OP_STRIDE + part.first, end: part.op * OP_STRIDE + part.first + part.count, words: part.words, lexicon: this.received(part.words), facets: part.facets, docids: part.docids });
    }
    let low = 0;
    let high = this.held.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.held[mid]!.end <= position) low = mid + 1;
      else high = mid;
    }
    const part = this.held[low];
    if (part === undefined || part.start > position) return undefined;
    const index = position - part.start;
    if (part.docids !== undefined && part.docids[index] !== this.docids.get(doc)) return undefined;
    return { part, index };
  }

  /**
   * The lexicon of the worker that extracted `words`, which takes their additions; null when a
   * part of that worker's never came: the words it added are missing, so neither this part's
   * words nor any later one's can be read until that lexicon starts over, and the write extracts
   * their documents itself.
   */
  private received(words: AheadWords | null): ReceivedLexicon | null {
    if (words === null) return null;
    let lexicon = this.lexicons.get(words.worker);
    // a worker's lexicon that started over hands its words over from id 0 again
    const { firstWord, firstPrefix } = words.added;
    if (lexicon === undefined || (firstWord === 0 && firstPrefix === 0)) this.lexicons.set(words.worker, (lexicon = new ReceivedLexicon()));
    if (lexicon === null || lexicon.receive(words.added)) return lexicon;
    this.lexicons.set(words.worker, null);
    return null;
  }

  /** The documents noted so far are indexed. */
  release(): void {
    let drop = 0;
    while (drop < this.held.length && this.held[drop]!.end <= this.lastNoted + 1) drop++;
    this.held.splice(0, drop);
    this.positions.clear();
    this.docids.clear();
  }
}
