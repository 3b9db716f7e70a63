/**
 * The word-index changes of a chunk of new documents whose words were all extracted ahead
 * (prepared-words.ts). Each shipment's words are adopted whole: their grouped entries
 * are copied with the documents' docids, instead of adopting every document and regrouping its
 * entries in the write, the write's largest cost in a bulk load.
 * Taken only where it gives exactly what adopting document by document gives: every change
 * creates a document stored as its payload holds it, the documents come in shipment order (so
 * each key's docids ascend), and every field keeps the id its shipment gave it.
 */
import type { DocumentChange } from '../updater.js';
import type { PreparedWords } from './prepared-words.js';
import type { WordExtractor } from './extract.js';
import { KeyOps, upsertsOnly, type GroupedEntries, type KeyChanges } from './key-ops.js';
import { PrefixTable } from './prefix-table.js';
import type { ShippedDoc, ShippedWords } from './shipped-words.js';

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

/** The chunk's documents in shipment order with their shipments, or null when some change does not qualify. */
function shippedDocs(changes: readonly DocumentChange[], prepared: PreparedWords): { docs: ShippedDoc[]; shipments: ShippedWords[]; shipmentOf: Int32Array } | null {
  const docs: ShippedDoc[] = [];
  const shipments: ShippedWords[] = [];
  const shipmentOf = new Int32Array(changes.length);
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i]!;
    if (change.before !== undefined || change.after === undefined || change.source === undefined) return null;
    const doc = prepared.take(change.source);
    if (doc === undefined) return null;
    const last = docs[i - 1];
    if (last === undefined || last.shipped !== doc.shipped) {
      if (shipments.includes(doc.shipped)) return null;
      shipments.push(doc.shipped);
    } else if (doc.index <= last.index) {
      return null;
    }
    shipmentOf[i] = shipments.length - 1;
    docs.push(doc);
  }
  return { docs, shipments, shipmentOf };
}

/**
 * The entries of every shipment's words under `extractor`'s vocabulary ids (words of documents in
 * the chunk are adopted into it), with the shipments' document indexes turned into docids
 * (`docidOf`, -1: a document not in the chunk); and per shipment, its words' vocabulary ids (-1: a
 * word of no document in the chunk).
 */
function regroup(extractor: WordExtractor, shipments: readonly ShippedWords[], docidOf: readonly Int32Array[]): { grouped: GroupedEntries; ids: Int32Array[] } {
  const complete = docidOf.map((docids) => docids.every((docid) => docid >= 0));
  const ids = shipments.map((shipped) => new Int32Array(shipped.wordEntries.starts.length - 1));
  const sizes: number[] = [];
  shipments.forEach((shipped, s) => {
    const { starts, docids } = shipped.wordEntries;
    const docid = docidOf[s]!;
    for (let key = 0; key < ids[s]!.length; key++) {
      let size = starts[key + 1]! - starts[key]!;
      if (!complete[s]) for (let e = starts[key]!; e < starts[key + 1]!; e++) if (docid[docids[e]!]! < 0) size--;
      const id = size === 0 ? -1 : extractor.adoptWord(shipped, key);
      ids[s]![key] = id;
      if (id >= 0) sizes[id] = (sizes[id] ?? 0) + size;
    }
  });
  const count = extractor.keys.length;
  const starts = new Int32Array(count + 1);
  for (let id = 0; id < count; id++) starts[id + 1] = starts[id]! + (sizes[id] ?? 0);
  const fill = starts.slice(0, count);
  const total = starts[count]!;
  const out = { starts, docids: new Uint32Array(total), masks: new Uint32Array(total), infos: new Uint32Array(total) };
  shipments.forEach((shipped, s) => {
    const entries = shipped.wordEntries;
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

/** The chunk's word-index changes from its shipments, or null when the chunk does not qualify. */
export function adoptChunk(extractor: WordExtractor, changes: readonly DocumentChange[], prepared: PreparedWords, withPrefixes: boolean): ChunkChanges | null {
  const found = shippedDocs(changes, prepared);
  if (found === null) return null;
  const { docs, shipments, shipmentOf } = found;
  // fields get their ids as adopting each document would give them, whatever follows
  for (const doc of docs) if (!extractor.adoptFields(doc)) return null;
  const docidOf = shipments.map((shipped) => new Int32Array(shipped.docStarts.length - 1).fill(-1));
  docs.forEach((doc, i) => (docidOf[shipmentOf[i]!]![doc.index] = changes[i]!.docid));
  const words = regroup(extractor, shipments, docidOf);
  let slots = new Int32Array(256);
  // the `i`th document's words as batch vocabulary ids, valid until the next call
  const wordsOf = (i: number): Int32Array => {
    const { shipped, index } = docs[i]!;
    const ids = words.ids[shipmentOf[i]!]!;
    const from = shipped.docStarts[index]!;
    const count = shipped.docStarts[index + 1]! - from;
    if (slots.length < count) slots = new Int32Array(2 * count);
    for (let slot = 0; slot < count; slot++) slots[slot] = ids[shipped.words[from + slot]!]!;
    return slots.subarray(0, count);
  };
  // prefixes per document, as extraction in the write aggregates them
  const prefixes = new KeyOps();
  const prefixTable = withPrefixes ? new PrefixTable(extractor.keys) : null;
  if (prefixTable !== null) {
    docs.forEach((doc, i) => {
      const { shipped, index } = doc;
      const from = shipped.docStarts[index]!;
      const to = shipped.docStarts[index + 1]!;
      const ids = prefixTable.aggregate({ words: wordsOf(i), masks: shipped.masks.subarray(from, to), infos: shipped.infos.subarray(from, to) });
      for (const id of ids) prefixes.upsert(id, changes[i]!.docid, prefixTable.masks[id]!, prefixTable.positions[id]!);
    });
  }
  return {
    words: upsertsOnly(words.grouped),
    prefixKeys: prefixTable?.keys ?? [],
    prefixes,
    forward(i) {
      const { shipped, index } = docs[i]!;
      return {
        fieldPairs: shipped.fieldPairs.subarray(shipped.fieldStarts[index]!, shipped.fieldStarts[index + 1]!),
        words: wordsOf(i),
        tokenWords: shipped.tokenWords.subarray(shipped.tokenStarts[index]!, shipped.tokenStarts[index + 1]!),
        tokenPlaces: shipped.tokenPlaces.subarray(shipped.tokenStarts[index]!, shipped.tokenStarts[index + 1]!),
      };
    },
  };
}
