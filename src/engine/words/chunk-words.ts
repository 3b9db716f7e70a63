/**
 * A document batch's words extracted off the index writer's thread, chunk by chunk. The writer
 * notes each document it is about to store (`note`: the document as stored, after merges, only
 * those the batch keeps), serialized into the current chunk of NDJSON bytes; a chunk of about
 * CHUNK_BYTES is posted to the extraction workers (a ChunkExtractor, workers/extraction-pool.ts),
 * which extract it (ChunkWordsExtractor) while the writer resolves the next documents. The word
 * index takes a document's words (`take`) when it writes it, waiting for its chunk if need be, and
 * the chunks go once the documents noted so far are written (`release`): what is in flight stays
 * within one write chunk of documents. Workers never see a payload, only chunks. A chunk whose
 * words do not come (its worker failed) only means the write extracts those documents itself.
 */
import type { JsonObject } from '../document-id.js';
import { parseJson, stringifyJson } from '../../types/json-text.js';
import type { IndexSettings } from '../../types/settings.js';
import { extractorFor, SearchFieldIds } from './extract.js';
import type { ShippedDoc, ShippedWords } from './shipped-words.js';

/** Serialized documents per chunk: enough to repay a message, small enough to keep every worker busy. */
export const CHUNK_BYTES = 1 << 20;

/** The extraction workers, as the writer sees them. */
export interface ChunkExtractor {
  /** What the chunks are extracted against: the write's settings and its index's search fields. */
  start(settings: IndexSettings, searchFields: readonly string[]): void;
  /** Posts chunk `seq` (NDJSON, one document a line); its buffer is transferred. */
  post(seq: number, bytes: Uint8Array): void;
  /** The words of posted chunk `seq` (in any order), waiting for them; null when they will not come. */
  take(seq: number): ShippedWords | null;
  /** The chunks before `seq` will not be taken: their words, come or to come, go. */
  drop(seq: number): void;
}

/**
 * A worker's extraction of a write's chunks: each chunk's words, its documents numbered from 0 in
 * line order, in field ids kept from one chunk to the next, so that the chunks of a worker number
 * fields alike (the write adopts a chunk's words whole only where they number fields as it does).
 */
export class ChunkWordsExtractor {
  private readonly fields: SearchFieldIds;

  constructor(
    private readonly settings: IndexSettings,
    searchFields: readonly string[],
  ) {
    this.fields = new SearchFieldIds(searchFields);
  }

  extract(bytes: Uint8Array): ShippedWords {
    const lines = new TextDecoder().decode(bytes).split('\n');
    const extractor = extractorFor(this.settings, this.fields);
    return extractor.ship(extractor.extract(lines.map((line, docid) => ({ docid, doc: parseJson(line) as JsonObject })), true));
  }
}

/** Documents of one chunk are told apart from the next chunk's by this factor. */
const SEQ_STRIDE = 2 ** 24;

export class ChunkWords {
  private lines: string[] = [];
  private bytes = 0;
  /** the chunk being filled */
  private seq = 0;
  /** noted document → seq * SEQ_STRIDE + its line in its chunk */
  private readonly placed = new Map<JsonObject, number>();
  private readonly words = new Map<number, ShippedWords | null>();
  private readonly encoder = new TextEncoder();

  /** `chunkBytes`: where chunks are cut (tests cut small ones) */
  constructor(
    private readonly extractor: ChunkExtractor,
    private readonly chunkBytes = CHUNK_BYTES,
  ) {}

  start(settings: IndexSettings, searchFields: readonly string[]): void {
    this.extractor.start(settings, searchFields);
  }

  /** `doc` is stored by the batch, as it is. */
  note(doc: JsonObject): void {
    const line = stringifyJson(doc);
    this.placed.set(doc, this.seq * SEQ_STRIDE + this.lines.length);
    this.lines.push(line);
    this.bytes += line.length + 1;
    if (this.bytes >= this.chunkBytes) this.post();
  }

  /** The words of a noted document, when its chunk's came. */
  take(doc: JsonObject): ShippedDoc | undefined {
    const place = this.placed.get(doc);
    if (place === undefined) return undefined;
    const seq = Math.floor(place / SEQ_STRIDE);
    if (seq === this.seq) this.post();
    let words = this.words.get(seq);
    if (words === undefined) this.words.set(seq, (words = this.extractor.take(seq)));
    return words === null ? undefined : { shipped: words, index: place % SEQ_STRIDE };
  }

  /** The documents noted so far are written: their chunks go, a chunk being filled with them too. */
  release(): void {
    this.placed.clear();
    this.words.clear();
    this.lines = [];
    this.bytes = 0;
    this.seq++;
    this.extractor.drop(this.seq);
  }

  private post(): void {
    if (this.lines.length === 0) return;
    this.extractor.post(this.seq++, this.encoder.encode(this.lines.join('\n')));
    this.lines = [];
    this.bytes = 0;
  }
}
