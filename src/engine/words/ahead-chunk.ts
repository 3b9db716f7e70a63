/**
 * The word-index changes of a chunk of new documents whose words were all extracted ahead
 * (ahead-parts.ts). Each part's words are taken whole: their grouped entries are copied with
 * the documents' docids, instead of taking every document and regrouping its entries in the
 * write, the write's largest cost in a bulk load; so are its prefix entries, which the
 * extraction worker aggregated per document.
 * Done only where it gives exactly what taking document by document gives: every change creates
 * a document stored as its payload holds it, the documents come in part order (so each key's
 * docids ascend), and every field keeps the id its part gave it.
 */
import type { DocumentChange } from '../updater.js';
import type { AheadParts } from './ahead-parts.js';
import type { WordExtractor } from './extract.js';
import { upsertsOnly, type GroupedEntries, type KeyChanges } from './key-ops.js';
import type { AheadDoc, AheadWords } from './ahead-words.js';
import type { ReceivedLexicon } from './lexicon.js';

/** What a document's forward record is encoded from (ForwardEncoder). */
export interface ForwardInput {
  /** (search field id, word count) pairs */
  readonly fieldPairs: ArrayLike<number>;
  /** its distinct words, as batch vocabulary ids */
  readonly words: ArrayLike<number>;
  /** per token: its word's slot in `words` */
  readonly tokenWords: ArrayLike<number>;
  /** per token: field << 16 | position */
  readonly tokenPlaces: ArrayLike<number>;
}

/** A chunk's word-index changes, however they were made. */
export interface ChunkChanges {
  /** changes per batch vocabulary id */
  readonly words: KeyChanges;
  /** prefix id → prefix key */
  readonly prefixKeys: readonly string[];
  readonly prefixes: KeyChanges;
  /** the forward record input of the chunk's `i`th change; null when it deletes the document */
  forward(i: number): ForwardInput | null;
}

/** The chunk's documents in part order with their parts' words, or null when some change does not qualify. */
function aheadDocs(changes: readonly DocumentChange[], ahead: AheadParts): { docs: AheadDoc[]; partWords: AheadWords[]; lexicons: ReceivedLexicon[]; partOf: Int32Array } | null {
  const docs: AheadDoc[] = [];
  const partWords: AheadWords[] = [];
  const lexicons: ReceivedLexicon[] = [];
  const partOf = new Int32Array(changes.length);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (change.before !== undefined || change.after === undefined || change.source === undefined) return null;
    const doc = ahead.take(change.source);
    if (doc === undefined) return null;
    const last = docs[i - 1];
    if (last === undefined || last.ahead !== doc.ahead) {
      if (partWords.includes(doc.ahead)) return null;
      partWords.push(doc.ahead);
      lexicons.push(doc.lexicon);
    } else if (doc.index <= last.index) {
      return null;
    }
    partOf[i] = partWords.length - 1;
    docs.push(doc);
  }
  return { docs, partWords, lexicons, partOf };
}

/**
 * The entries of every part's keys (its words, or its prefixes) under the chunk's ids for them
 * (`idOf(part, key)`, which takes a key into the chunk's ids; `count()`: how many ids there are
 * then), with the parts' document indexes turned into docids (`docidOf`, -1: a document not in
 * the chunk); and per part, its keys' ids (-1: a key of no document in the chunk).
 */
function regroup(
  parts: readonly GroupedEntries[],
  docidOf: readonly Int32Array[],
  idOf: (part: number, key: number) => number,
  count: () => number,
): { grouped: GroupedEntries; ids: Int32Array[] } {
  const complete = docidOf.map((docids) => docids.every((docid) => docid >= 0));
  const ids = parts.map((entries) => new Int32Array(entries.starts.length - 1));
  const sizes: number[] = [];
  parts.forEach(({ starts, docids }, s) => {
    const docid = docidOf[s]!;
    for (let key = 0; key < ids[s]!.length; key++) {
      let size = starts[key + 1]! - starts[key]!;
      if (!complete[s]) for (let e = starts[key]!; e < starts[key + 1]!; e++) if (docid[docids[e]!]! < 0) size--;
      const id = size === 0 ? -1 : idOf(s, key);
      ids[s]![key] = id;
      if (id >= 0) sizes[id] = (sizes[id] ?? 0) + size;
    }
  });
  const total = count();
  const starts = new Int32Array(total + 1);
  for (let id = 0; id < total; id++) starts[id + 1] = starts[id]! + (sizes[id] ?? 0);
  const fill = starts.slice(0, total);
  const entryCount = starts[total]!;
  const out = { starts, docids: new Uint32Array(entryCount), masks: new Uint32Array(entryCount), infos: new Uint32Array(entryCount) };
  parts.forEach((entries, s) => {
    const docid = docidOf[s]!;
    const keyIds = ids[s]!;
    for (let key = 0; key < keyIds.length; key++) {
      const id = keyIds[key]!;
      if (id < 0) continue;
      let at = fill[id]!;
      for (let e = entries.starts[key]!; e < entries.starts[key + 1]!; e++) {
        const target = docid[entries.docids[e]!]!;
        if (target < 0) continue;
        out.docids[at] = target;
        out.masks[at] = entries.masks[e]!;
        out.infos[at++] = entries.infos[e]!;
      }
      fill[id] = at;
    }
  });
  return { grouped: out, ids };
}

/**
 * The parts' prefix entries under chunk prefix ids (in the order the parts name them), or null
 * when a part has none. A part names its prefixes in its worker's lexicon, whose ids map to the
 * chunk's once per worker.
 */
function regroupPrefixes(partWords: readonly AheadWords[], lexicons: readonly ReceivedLexicon[], docidOf: readonly Int32Array[]): { keys: string[]; grouped: GroupedEntries } | null {
  const parts: GroupedEntries[] = [];
  for (const ahead of partWords) {
    if (ahead.prefixEntries === null) return null;
    parts.push(ahead.prefixEntries);
  }
  const keys: string[] = [];
  // per worker lexicon: its prefix ids → the chunk's (-1 until seen)
  const chunkIds = new Map<ReceivedLexicon, Int32Array>();
  const idOf = (s: number, key: number) => {
    const lexicon = lexicons[s]!;
    let ids = chunkIds.get(lexicon);
    if (ids === undefined) chunkIds.set(lexicon, (ids = new Int32Array(lexicon.prefixes.length).fill(-1)));
    const prefix = partWords[s]!.prefixIds[key]!;
    let id = ids[prefix]!;
    if (id < 0) {
      ids[prefix] = id = keys.length;
      keys.push(lexicon.prefixes[prefix]!);
    }
    return id;
  };
  return { keys, grouped: regroup(parts, docidOf, idOf, () => keys.length).grouped };
}

const NO_CHANGES: KeyChanges = { forEachKey: () => {} };

/** The chunk's word-index changes from its partWords, or null when the chunk does not qualify. */
export function takeAheadChunk(extractor: WordExtractor, changes: readonly DocumentChange[], ahead: AheadParts, withPrefixes: boolean): ChunkChanges | null {
  const found = aheadDocs(changes, ahead);
  if (found === null) return null;
  const { docs, partWords, lexicons, partOf } = found;
  // fields get their ids as taking each document would give them, whatever follows
  for (const doc of docs) if (!extractor.takeAheadFields(doc)) return null;
  const docidOf = partWords.map((ahead) => new Int32Array(ahead.docStarts.length - 1).fill(-1));
  docs.forEach((doc, i) => (docidOf[partOf[i]!]![doc.index] = changes[i]!.docid));
  const words = regroup(
    partWords.map((ahead) => ahead.wordEntries),
    docidOf,
    (part, key) => extractor.takeAheadWord(lexicons[part]!, partWords[part]!, key),
    () => extractor.vocabularySize,
  );
  // the parts' prefix entries, aggregated per document by the extraction workers
  const prefixes = withPrefixes ? regroupPrefixes(partWords, lexicons, docidOf) : null;
  if (withPrefixes && prefixes === null) return null;
  let slots = new Int32Array(256);
  // the `i`th document's words as batch vocabulary ids, valid until the next call
  const wordsOf = (i: number): Int32Array => {
    const { ahead, index } = docs[i]!;
    const ids = words.ids[partOf[i]!]!;
    const from = ahead.docStarts[index]!;
    const count = ahead.docStarts[index + 1]! - from;
    if (slots.length < count) slots = new Int32Array(2 * count);
    for (let slot = 0; slot < count; slot++) slots[slot] = ids[ahead.words[from + slot]!]!;
    return slots.subarray(0, count);
  };
  return {
    words: upsertsOnly(words.grouped),
    prefixKeys: prefixes?.keys ?? [],
    prefixes: prefixes === null ? NO_CHANGES : upsertsOnly(prefixes.grouped),
    forward(i) {
      const { ahead, index } = docs[i]!;
      return {
        fieldPairs: ahead.fieldPairs.subarray(ahead.fieldStarts[index]!, ahead.fieldStarts[index + 1]!),
        words: wordsOf(i),
        tokenWords: ahead.tokenWords.subarray(ahead.tokenStarts[index]!, ahead.tokenStarts[index + 1]!),
        tokenPlaces: ahead.tokenPlaces.subarray(ahead.tokenStarts[index]!, ahead.tokenStarts[index + 1]!),
      };
    },
  };
}
