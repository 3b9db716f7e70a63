/**
 * Word extraction: documents → their searchable words with fields and positions, extracted by
 * the extraction kernel (kernels/extract.ts: tokenise, apply the rules below and intern the
 * chunk's words, all in WASM) per chunk of about CHUNK_BYTES of text; here each distinct word
 * of a chunk joins the batch vocabulary once. Called by the word-index updater and by the
 * extraction workers (extract-ahead.ts).
 *
 * Rules (milli `tokenize_document`, ranking.md §5, §7):
 * - searchable fields are the flattened leaf paths (`a.b` for nested objects, arrays flattened)
 *   selected by `searchableAttributes` (an entry also selects the paths below it; `*` all),
 *   never `_vectors`, `_geo` or `_geojson`; strings, numbers and booleans are indexed through
 *   their text;
 * - positions count per field from 0; each further value of the same field starts 8 after the
 *   previous value's last word; positions from 65 536 on are not indexed, nor words longer than
 *   250 bytes;
 * - stop words (compared case-sensitively with the NFKD of the token's text) keep their position
 *   but are not indexed nor counted in the field's word count;
 * - Quarry's bound: only a field's first MAX_FIELD_TEXT_UNITS and a document's first
 *   MAX_DOCUMENT_TEXT_UNITS UTF-16 units of text are tokenized.
 * Words are keyed by the latin1 view of their normalised UTF-8 bytes: a byte-exact, hashable
 * form made once per distinct word (`wordOfKey` decodes it).
 */
import type { CustomTokens } from '../../kernels/custom-tokens.js';
import { Lang, langOfLocales } from '../../kernels/languages.js';
import { extractChunk, stopWordTable, type ExtractedChunk, type StopWordTable } from '../../kernels/extract.js';
import { isFacetedBy } from '../../types/attribute-patterns.js';
import type { IndexSettings } from '../../types/settings.js';
import { isJsonNumber } from '../../types/json-text.js';
import type { JsonObject } from '../document-id.js';
import { langOfField } from '../localized-fields.js';
import { derivedOnce, stopWordSet, tokenizerRules } from '../settings-derived.js';
import { fieldBit } from './postings.js';
import type { DocWords } from './doc-words.js';
import { aheadWords, docEntries, type AheadColumns, type AheadDoc, type AheadWords } from './ahead-words.js';
import { ByteVocabulary, type VocabularyBytes } from './vocabulary.js';
import { leadingUnits } from '../../types/utf16.js';
import type { ReceivedLexicon, WorkerLexicon } from './lexicon.js';

// a chunk's kernel regions take ~20 bytes of linear memory per byte of text, which never shrinks:
// 2 MiB chunks keep a thread's arena where the tokenizer alone held it with 4 MiB ones (~45 MiB)
const CHUNK_BYTES = 2 << 20;

// Quarry's bound on the text one document gives the tokenizer, in UTF-16 units: a field's first
// 4 Mi (64 per position of the 65,535 a field indexes, which only a text of longer runs than that
// fills later), a document's first 16 Mi. A document's text goes to the kernel in one call, whose
// memory grows ~30 bytes per byte of text and never shrinks: a 60 MB field took it past WASM's
// 4 GiB and failed the task with `internal` (v1.50 indexes such a field's first 65,535 positions).
export const MAX_FIELD_TEXT_UNITS = 4 << 20;
export const MAX_DOCUMENT_TEXT_UNITS = 16 << 20;

const NO_WORDS = new Int32Array(0);
const NO_PLACES = new Uint32Array(0);

/** An extraction-kernel call's columns, the index of its first document, and its words' ids in the extractor's vocabulary. */
interface ExtractedChunkIds {
  readonly chunk: ExtractedChunk;
  readonly first: number;
  readonly ids: Int32Array;
}

/** The columns `parts` one after the other (the first itself when it is the only one). */
function joined<T extends Int32Array | Uint32Array>(parts: readonly T[], Column: new (length: number) => T): T {
  if (parts.length === 1) return parts[0]!;
  const out = new Column(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Fields never searchable, whatever the setting: v1.50 leaves them out of a document's fields when it tokenizes it. */
const RESERVED_FIELDS = ['_vectors', '_geo', '_geojson'];

// asked for every leaf of every document: fields not starting with `_` are settled by one comparison
const isReserved = (path: string) => path.charCodeAt(0) === 0x5f && RESERVED_FIELDS.some((name) => isFacetedBy(path, name));

/**
 * Whether `path` is searchable under the `searchableAttributes` setting: an entry covers the path
 * itself or one of its dotted ancestors, so the path and those ancestors are looked up in a set,
 * the work linear in the path whatever the list's length (asked for every leaf of every document:
 * a list of 100,000 entries scanned for each took a settings task 41 s on 2,000 movies).
 */
export function searchableMatcher(searchable: readonly string[]): (path: string) => boolean {
  if (searchable.includes('*')) return (path) => !isReserved(path);
  const entries = new Set(searchable);
  return (path) => !isReserved(path) && (entries.has(path) || coversAncestor(entries, path));
}

/** Whether `entries` holds an ancestor of `path` (its part before one of its dots). */
function coversAncestor(entries: ReadonlySet<string>, path: string): boolean {
  for (let dot = path.indexOf('.'); dot !== -1; dot = path.indexOf('.', dot + 1)) {
    if (entries.has(path.slice(0, dot))) return true;
  }
  return false;
}

/** Stable small ids for searchable field paths, in order of first appearance. */
export class SearchFieldIds {
  readonly names: string[];
  private readonly ids: Map<string, number>;
  added = false;

  constructor(names: readonly string[]) {
    this.names = [...names];
    this.ids = new Map(this.names.map((name, i) => [name, i]));
  }

  idOf(path: string): number {
    let id = this.ids.get(path);
    if (id === undefined) {
      id = this.names.length;
      this.names.push(path);
      this.ids.set(path, id);
      this.added = true;
    }
    return id;
  }
}

export interface ExtractOptions {
  readonly isSearchable: (path: string) => boolean;
  readonly fields: SearchFieldIds;
  readonly stopWords: ReadonlySet<string>;
  /** the index's separatorTokens, nonSeparatorTokens and dictionary, when any is set */
  readonly custom?: CustomTokens | undefined;
  /** a field's languages.ts `Lang` byte, from its `localizedAttributes` rule; absent: none has one */
  readonly langOf?: ((path: string) => number) | undefined;
}

/**
 * Every searchable leaf of `doc` as (path, text), in document order. A reserved field's subtree is
 * not walked: no leaf of it is searchable, and `_vectors` holds hundreds of numbers a document
 * (walking 5,000 documents' 768-dimension vectors took the extraction ~0.9 s).
 */
function collectLeaves(doc: JsonObject, isSearchable: (path: string) => boolean, out: [string, string][]): void {
  const visit = (value: unknown, path: string): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, path);
    } else if (typeof value === 'object') {
      for (const [key, inner] of Object.entries(value as JsonObject)) {
        const inside = path === '' ? key : `${path}.${key}`;
        if (!isReserved(inside)) visit(inner, inside);
      }
    } else if (isSearchable(path)) {
      if (typeof value === 'string') out.push([path, value]);
      else if (isJsonNumber(value) || typeof value === 'boolean') out.push([path, String(value)]);
    }
  };
  visit(doc, '');
}

/** An extractor as the index's settings shape it, interning words into `vocabulary` (a fresh one when none). */
export function extractorFor(settings: IndexSettings, fields: SearchFieldIds, vocabulary?: ByteVocabulary): WordExtractor {
  const options: ExtractOptions = {
    isSearchable: searchableMatcher(settings.searchableAttributes),
    fields,
    stopWords: stopWordSet(settings),
    custom: tokenizerRules(settings),
    langOf: langsOfFields(settings.localizedAttributes),
  };
  return new WordExtractor(options, vocabulary);
}

/**
 * The settings the word index derives from (extractorFor, and which prefixes it keeps), its
 * shape (../updater.ts): a settings change rebuilds the word index when this differs. The order
 * of searchable attributes only weighs fields at search time, so it does not count.
 */
export function wordShape(settings: IndexSettings): unknown {
  const { searchableAttributes, stopWords, separatorTokens, nonSeparatorTokens, dictionary, localizedAttributes, prefixSearch } = settings;
  return [[...searchableAttributes].sort(), stopWords, separatorTokens, nonSeparatorTokens, dictionary, localizedAttributes, prefixSearch];
}

/** Each field's `Lang` byte, cached per path; undefined when no rule restricts any language. */
function langsOfFields(rules: IndexSettings['localizedAttributes']): ((path: string) => number) | undefined {
  if (rules === null || rules.every((rule) => langOfLocales(rule.locales) === Lang.Detect)) return undefined;
  const cache = new Map<string, number>();
  return (path) => {
    let lang = cache.get(path);
    if (lang === undefined) cache.set(path, (lang = langOfField(rules, path)));
    return lang;
  };
}

/** The kernel's table of a stop-word set, built once per set (one per settings object). */
const stopTableOf = derivedOnce(stopWordTable);

/**
 * Extracts documents' words against one batch vocabulary, so that every document of a batch
 * (before and after versions alike) names the same word by the same id.
 */
export class WordExtractor {
  // per part taken: its field ids → ours (-1 until seen), its documents' entry masks and infos;
  // per worker lexicon: its word ids → ours (-1 until seen)
  private readonly takenFields = new WeakMap<AheadWords, Int32Array>();
  private readonly takenEntries = new WeakMap<AheadWords, { masks: Uint32Array; infos: Uint32Array }>();
  private readonly lexiconIds = new Map<ReceivedLexicon, Int32Array>();
  private readonly stopTable: StopWordTable | undefined;

  constructor(
    private readonly options: ExtractOptions,
    private readonly vocabulary = new ByteVocabulary(),
  ) {
    this.stopTable = stopTableOf(options.stopWords);
  }

  /** vocabulary: id → word key */
  get keys(): readonly string[] {
    return this.vocabulary.keys;
  }

  /** How many words the vocabulary holds. */
  get vocabularySize(): number {
    return this.vocabulary.size;
  }

  /** The vocabulary's words as bytes (views, valid until the next word is added). */
  vocabularyBytes(): VocabularyBytes {
    return this.vocabulary.export();
  }

  /** Extracts the words of `docs`, ~CHUNK_BYTES of text per extraction-kernel call. */
  extract(docs: readonly { docid: number; doc: JsonObject }[]): DocWords[] {
    const out: DocWords[] = docs.map(({ docid }) => ({ docid, words: [], masks: [], infos: [], fieldWords: new Map(), tokenWords: NO_WORDS, tokenPlaces: NO_PLACES }));
    this.runChunks(docs.length, (index) => docs[index]!.doc, ({ chunk, first, ids }) => {
      const { docWordStarts, docWords, docMasks, docInfos, docPairStarts, pairs, docTokenStarts } = chunk;
      for (let d = 0; d + 1 < docWordStarts.length; d++) {
        const doc = out[first + d]!;
        for (let at = docWordStarts[d]!; at < docWordStarts[d + 1]!; at++) {
          doc.words.push(ids[docWords[at]!]!);
          doc.masks.push(docMasks[at]!);
          doc.infos.push(docInfos[at]!);
        }
        for (let at = docPairStarts[d]!; at < docPairStarts[d + 1]!; at += 2) doc.fieldWords.set(pairs[at]!, pairs[at + 1]!);
        doc.tokenWords = chunk.tokenSlots.subarray(docTokenStarts[d]!, docTokenStarts[d + 1]!);
        doc.tokenPlaces = chunk.tokenPlaces.subarray(docTokenStarts[d]!, docTokenStarts[d + 1]!);
      }
    });
    return out;
  }

  /**
   * Extracts the words of a part's documents straight into the columns the part hands over to
   * the write (ahead-words.ts), with their prefix entries when `withPrefixes`, and each
   * document's fields in the order its leaves first name them, for the write that takes them on
   * another thread: the kernel's columns taken whole, its word ids turned into the part's, which
   * is what `extract` gives without a DocWords per document. The extractor interns into the
   * vocabulary of `lexicon` (worker `worker`'s, lexicon.ts) for the part it started
   * (`nextPart`), which numbers the part's words.
   */
  extractAhead(docs: readonly JsonObject[], withPrefixes: boolean, lexicon: WorkerLexicon, worker: number): AheadWords {
    if (this.vocabulary !== lexicon.vocabulary) throw new Error("an extractor ahead interns into its worker's lexicon");
    const leafStarts = new Int32Array(docs.length + 1);
    const leafFields: number[] = [];
    const chunks: ExtractedChunkIds[] = [];
    this.runChunks(
      docs.length,
      (index) => docs[index]!,
      // the call's words as ids of the part, numbered as the part meets them
      ({ chunk, first, ids }) => chunks.push({ chunk, first, ids: ids.map((word) => lexicon.partWord(word)) }),
      (index, field) => {
        leafFields.push(field);
        leafStarts[index + 1] = leafFields.length;
      },
    );
    // a document naming no searchable field ends where the one before it does
    for (let index = 0; index < docs.length; index++) leafStarts[index + 1] = Math.max(leafStarts[index + 1]!, leafStarts[index]!);
    // a document in no kernel call (no searchable text) has nothing: each start column sums its
    // documents' counts, and each entry column is the calls' columns one after the other
    const docStarts = new Int32Array(docs.length + 1);
    const fieldStarts = new Int32Array(docs.length + 1);
    const tokenStarts = new Int32Array(docs.length + 1);
    for (const { chunk, first } of chunks) {
      for (let d = 0; d + 1 < chunk.docWordStarts.length; d++) {
        docStarts[first + d + 1] = chunk.docWordStarts[d + 1]! - chunk.docWordStarts[d]!;
        fieldStarts[first + d + 1] = chunk.docPairStarts[d + 1]! - chunk.docPairStarts[d]!;
        tokenStarts[first + d + 1] = chunk.docTokenStarts[d + 1]! - chunk.docTokenStarts[d]!;
      }
    }
    for (let index = 0; index < docs.length; index++) {
      docStarts[index + 1]! += docStarts[index]!;
      fieldStarts[index + 1]! += fieldStarts[index]!;
      tokenStarts[index + 1]! += tokenStarts[index]!;
    }
    const words = new Int32Array(docStarts[docs.length]!);
    let at = 0;
    for (const { chunk, ids } of chunks) for (const word of chunk.docWords) words[at++] = ids[word]!;
    const columns: AheadColumns = {
      docStarts,
      words,
      masks: joined(chunks.map(({ chunk }) => chunk.docMasks), Uint32Array),
      infos: joined(chunks.map(({ chunk }) => chunk.docInfos), Uint32Array),
      fieldStarts,
      fieldPairs: joined(chunks.map(({ chunk }) => chunk.pairs), Uint32Array),
      tokenStarts,
      tokenWords: joined(chunks.map(({ chunk }) => chunk.tokenSlots), Int32Array),
      tokenPlaces: joined(chunks.map(({ chunk }) => chunk.tokenPlaces), Uint32Array),
      leafStarts,
      leafFields: Int32Array.from(leafFields),
    };
    return aheadWords(columns, this.options.fields.names, withPrefixes, lexicon, worker);
  }

  /**
   * Runs the searchable strings of documents 0 to `count` - 1 (`docAt`) through the extraction
   * kernel, ~CHUNK_BYTES of text per call, and hands each call's columns to `take` with the
   * index of its first document and its words' ids in this vocabulary; a document with no
   * searchable text may be in no call. `onLeafField` hears each document's fields in the order
   * its leaves first name them.
   */
  private runChunks(count: number, docAt: (index: number) => JsonObject, take: (extracted: ExtractedChunkIds) => void, onLeafField?: (index: number, field: number) => void): void {
    const { langOf } = this.options;
    let strings: string[] = [];
    let stringDocs: number[] = [];
    let stringFields: number[] = [];
    let langs: number[] = [];
    let bytes = 0;
    const flush = () => {
      if (strings.length > 0) take(this.extractChunk(strings, stringDocs, stringFields, langOf === undefined ? undefined : langs));
      strings = [];
      stringDocs = [];
      stringFields = [];
      langs = [];
      bytes = 0;
    };
    const leaves: [string, string][] = [];
    // field → the last document listing it: a lookup instead of a scan, which is quadratic in a document with thousands of fields
    const listedIn = new Map<number, number>();
    // units of text each field of the document gave the tokenizer so far
    const fieldUnits = new Map<number, number>();
    for (let index = 0; index < count; index++) {
      leaves.length = 0;
      fieldUnits.clear();
      let documentUnits = 0;
      collectLeaves(docAt(index), this.options.isSearchable, leaves);
      for (const [path, whole] of leaves) {
        const field = this.options.fields.idOf(path);
        if (onLeafField !== undefined && listedIn.get(field) !== index) {
          listedIn.set(field, index);
          onLeafField(index, field);
        }
        const fieldSoFar = fieldUnits.get(field) ?? 0;
        const room = Math.min(MAX_FIELD_TEXT_UNITS - fieldSoFar, MAX_DOCUMENT_TEXT_UNITS - documentUnits);
        if (room <= 0) continue;
        const text = leadingUnits(whole, room);
        fieldUnits.set(field, fieldSoFar + text.length);
        documentUnits += text.length;
        strings.push(text);
        stringDocs.push(index);
        stringFields.push(field);
        if (langOf !== undefined) langs.push(langOf(path));
        bytes += text.length;
      }
      if (bytes >= CHUNK_BYTES) flush();
    }
    flush();
  }

  /** One chunk through the extraction kernel, each distinct word interned in the vocabulary once. */
  private extractChunk(strings: string[], docs: readonly number[], fields: readonly number[], langs: readonly number[] | undefined): ExtractedChunkIds {
    const first = docs[0]!;
    const nDocs = docs[docs.length - 1]! - first + 1;
    const stringDocs = new Uint32Array(strings.length);
    for (let s = 0; s < strings.length; s++) stringDocs[s] = docs[s]! - first;
    const chunk = extractChunk(
      { strings, stringDocs, stringFields: Uint32Array.from(fields), nDocs, nFields: this.options.fields.names.length },
      { custom: this.options.custom, langs, stopWords: this.stopTable },
    );
    const { wordStarts, wordBytes } = chunk;
    const ids = new Int32Array(wordStarts.length - 1);
    for (let w = 0; w < ids.length; w++) ids[w] = this.vocabulary.idOf(wordBytes, wordStarts[w]!, wordStarts[w + 1]! - wordStarts[w]!);
    return { chunk, first, ids };
  }

  /** A part's documents' entry masks and infos (ahead-words.ts `docEntries`), made on first use. */
  private entriesOf(ahead: AheadWords): { masks: Uint32Array; infos: Uint32Array } {
    let entries = this.takenEntries.get(ahead);
    if (entries === undefined) this.takenEntries.set(ahead, (entries = docEntries(ahead)));
    return entries;
  }

  /** This extractor's map of a part's field ids, made on first use. */
  private fieldsOf(ahead: AheadWords): Int32Array {
    let fields = this.takenFields.get(ahead);
    if (fields === undefined) this.takenFields.set(ahead, (fields = new Int32Array(ahead.fields.length).fill(-1)));
    return fields;
  }

  /**
   * Gives a document extracted ahead its fields' ids here, in its own order, as extracting it
   * here would; answers whether each kept the id its part gave it.
   */
  takeAheadFields({ ahead, index }: AheadDoc): boolean {
    const fields = this.fieldsOf(ahead);
    let sameFields = true;
    for (let at = ahead.leafStarts[index]!; at < ahead.leafStarts[index + 1]!; at++) {
      const field = ahead.leafFields[at]!;
      if (fields[field]! < 0) fields[field] = this.options.fields.idOf(ahead.fields[field]!);
      if (fields[field] !== field) sameFields = false;
    }
    return sameFields;
  }

  /** The vocabulary id here of a part's word `word` (its part `ahead`, of worker lexicon `lexicon`), added if new. */
  takeAheadWord(lexicon: ReceivedLexicon, ahead: AheadWords, word: number): number {
    const key = ahead.wordIds[word]!;
    let ids = this.lexiconIds.get(lexicon);
    if (ids === undefined || ids.length < lexicon.size) {
      const grown = new Int32Array(Math.max(lexicon.size, 2 * (ids?.length ?? 0))).fill(-1);
      if (ids !== undefined) grown.set(ids);
      this.lexiconIds.set(lexicon, (ids = grown));
    }
    let id = ids[key]!;
    if (id < 0) ids[key] = id = this.vocabulary.idOf(lexicon.bytes, lexicon.starts[key]!, lexicon.lengths[key]!);
    return id;
  }

  /**
   * A document another extractor extracted ahead, as this one would have extracted it: its
   * words in this vocabulary, its fields in these field ids.
   */
  takeAhead(docid: number, doc: AheadDoc): DocWords {
    const { ahead, index, lexicon } = doc;
    const entries = this.entriesOf(ahead);
    const sameFields = this.takeAheadFields(doc);
    const from = ahead.docStarts[index]!;
    const count = ahead.docStarts[index + 1]! - from;
    const words = new Array<number>(count);
    const masks = new Array<number>(count);
    const infos = new Array<number>(count);
    for (let slot = 0; slot < count; slot++) {
      words[slot] = this.takeAheadWord(lexicon, ahead, ahead.words[from + slot]!);
      masks[slot] = entries.masks[from + slot]!;
      infos[slot] = entries.infos[from + slot]!;
    }
    const fields = this.fieldsOf(ahead);
    const fieldWords = new Map<number, number>();
    for (let at = ahead.fieldStarts[index]!; at < ahead.fieldStarts[index + 1]!; at += 2) fieldWords.set(fields[ahead.fieldPairs[at]!]!, ahead.fieldPairs[at + 1]!);
    const tokenWords = ahead.tokenWords.subarray(ahead.tokenStarts[index]!, ahead.tokenStarts[index + 1]!);
    let tokenPlaces = ahead.tokenPlaces.subarray(ahead.tokenStarts[index]!, ahead.tokenStarts[index + 1]!);
    if (!sameFields) {
      // other field ids: renumber the places and rebuild the masks from them
      tokenPlaces = tokenPlaces.map((place) => ((fields[place >>> 16]! << 16) | (place & 0xffff)) >>> 0);
      masks.fill(0);
      tokenWords.forEach((slot, i) => (masks[slot] = (masks[slot]! | fieldBit(tokenPlaces[i]! >>> 16)) >>> 0));
    }
    return { docid, words, masks, infos, fieldWords, tokenWords, tokenPlaces };
  }

  /** Gives `doc`'s searchable fields their ids, as extracting it would (in its order). */
  noteFields(doc: JsonObject): void {
    const leaves: [string, string][] = [];
    collectLeaves(doc, this.options.isSearchable, leaves);
    for (const [path] of leaves) this.options.fields.idOf(path);
  }
}

const NON_ASCII = /[\x80-\xff]/;

/** The word a key stands for (an ASCII key is its own word: most are). */
export function wordOfKey(key: string): string {
  return NON_ASCII.test(key) ? Buffer.from(key, 'latin1').toString('utf8') : key;
}
