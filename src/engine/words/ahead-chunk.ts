/**
 * The word-index changes of a chunk of new documents whose words were all extracted ahead
 * (ahead-parts.ts). Each part's words are taken whole: their grouped entries are gathered per
 * word with the documents' docids as the updater writes each word (`regroup`), instead of taking
 * every document and regrouping its entries in the write, the write's largest cost in a bulk
 * load; so are its prefix entries, which the extraction worker aggregated per document.
 * Done only where it gives exactly what taking document by document gives: every change creates
 * a document stored as its payload holds it, the documents come in part order (so each key's
 * docids ascend), and every field keeps the id its part gave it.
 */
import type { DocumentChange } from '../updater.js';
import type { AheadParts } from './ahead-parts.js';
import type { WordExtractor } from './extract.js';
import { NONE_REMOVED, type GroupedEntries, type KeyChanges } from './key-ops.js';
import { ValueBuffer } from './postings.js';
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

/** A word's gathered entries, reused for every word the updater visits: nothing chunk-sized is copied. */
const gathered = { docids: new ValueBuffer(), masks: new ValueBuffer(), infos: new ValueBuffer() };

/**
 * The entries of every part's keys (its words, or its prefixes) under the chunk's ids for them
 * (`idOf(part, key)`, which takes a key into the chunk's ids; `count()`: how many ids there are
 * then), with the parts' document indexes turned into docids (`docidOf`, -1: a document not in
 * the chunk); and per part, its keys' ids (-1: a key of no document in the chunk).
 * The entries are not copied into chunk-sized columns: each chunk id keeps the (part, key) runs
 * that hold its entries, in part order, and its entries are gathered from them into a reused
 * buffer when the updater visits it (`forEachKey`). Copying every entry into new columns for
 * the chunk was a tenth of the writer's time in a bulk load, most of it scattered writes and
 * the page faults of fresh columns.
 */
function regroup(
  parts: readonly GroupedEntries[],
  docidOf: readonly Int32Array[],
  idOf: (part: number, key: number) => number,
  count: () => number,
): { changes: KeyChanges; ids: Int32Array[] } {
  const complete = docidOf.map((docids) => docids.every((docid) => docid >= 0));
  const ids = parts.map((entries) => new Int32Array(entries.starts.length - 1));
  for (let s = 0; s < parts.length; s++) {
    const { starts, docids } = parts[s]!;
    const docid = docidOf[s]!;
    const keyIds = ids[s]!;
    for (let key = 0; key < keyIds.length; key++) {
      let size = starts[key + 1]! - starts[key]!;
      if (!complete[s]) for (let e = starts[key]!; e < starts[key + 1]!; e++) if (docid[docids[e]!]! < 0) size--;
      keyIds[key] = size === 0 ? -1 : idOf(s, key);
    }
  }
  const total = count();
  // per chunk id, where its (part, key) runs start: counted, then summed
  const runStarts = new Int32Array(total + 1);
  for (const keyIds of ids) for (const id of keyIds) if (id >= 0) runStarts[id + 1]!++;
  for (let id = 0; id < total; id++) runStarts[id + 1]! += runStarts[id]!;
  const fill = runStarts.slice(0, total);
  // run r: part runs[2r], key runs[2r + 1]
  const runs = new Int32Array(2 * runStarts[total]!);
  for (let s = 0; s < parts.length; s++) {
    const keyIds = ids[s]!;
    for (let key = 0; key < keyIds.length; key++) {
      const id = keyIds[key]!;
      if (id < 0) continue;
      const at = fill[id]!++;
      runs[2 * at] = s;
      runs[2 * at + 1] = key;
    }
  }
  const changes: KeyChanges = {
    forEachKey(visit) {
      for (let id = 0; id < total; id++) {
        const from = runStarts[id]!;
        const to = runStarts[id + 1]!;
        if (from === to) continue;
        let size = 0;
        for (let r = from; r < to; r++) {
          const { starts } = parts[runs[2 * r]!]!;
          const key = runs[2 * r + 1]!;
          size += starts[key + 1]! - starts[key]!;
        }
        const outDocids = gathered.docids.ensure(size);
        const outMasks = gathered.masks.ensure(size);
        const outInfos = gathered.infos.ensure(size);
        let at = 0;
        for (let r = from; r < to; r++) {
          const s = runs[2 * r]!;
          const { starts, docids, masks, infos } = parts[s]!;
          const docid = docidOf[s]!;
          const key = runs[2 * r + 1]!;
          for (let e = starts[key]!; e < starts[key + 1]!; e++) {
            const target = docid[docids[e]!]!;
            if (target < 0) continue;
            outDocids[at] = target;
            outMasks[at] = masks[e]!;
            outInfos[at++] = infos[e]!;
          }
        }
        visit(id, NONE_REMOVED, { docids: outDocids.subarray(0, at), masks: outMasks.subarray(0, at), infos: outInfos.subarray(0, at) });
      }
    },
  };
  return { changes, ids };
}

/**
 * The parts' prefix entries under chunk prefix ids (in the order the parts name them), or null
 * when a part has none. A part names its prefixes in its worker's lexicon, whose ids map to the
 * chunk's once per worker.
 */
function regroupPrefixes(partWords: readonly AheadWords[], lexicons: readonly ReceivedLexicon[], docidOf: readonly Int32Array[]): { keys: string[]; changes: KeyChanges } | null {
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
  return { keys, changes: regroup(parts, docidOf, idOf, () => keys.length).changes };
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
    words: words.changes,
    prefixKeys: prefixes?.keys ?? [],
    prefixes: prefixes?.changes ?? NO_CHANGES,
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
