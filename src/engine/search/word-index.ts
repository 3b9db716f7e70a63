/**
 * The word-index IndexUpdater: keeps `word-docids`, `word-prefix-docids`, `docid-words` (formats
 * in postings.ts) and `word-ids` in step with the documents, inside the batch's index write
 * transaction (updaters.ts contract).
 *
 * `apply` is incremental: the before and after versions of each changed document are extracted
 * (extract.ts), and every word or prefix key that lost, gained or changed a document is read and
 * rewritten once per chunk of documents. A document's prefix entries depend on that document
 * only, so diffing them per document keeps the prefix postings exact without rescanning words.
 * `rebuild` clears everything (field ids and word ids too) and indexes every document; the
 * settings that shape this index (searchableAttributes, stopWords, prefixSearch, tokenizer
 * settings) must rebuild it when they change.
 * Word ids are allocated once per word and dropped with its last document; `words-version` is
 * bumped whenever the set of words changes, so searches reload their typo dictionary.
 */
import type { JsonObject } from '../documents/document-id.js';
import { INDEX_MAIN_KEYS, type IndexEnv } from '../index-env.js';
import type { PreparedWords } from '../indexer/prepared-words.js';
import type { DocumentChange, IndexUpdater } from '../indexer/updaters.js';
import type { IndexSettings } from '../../types/settings.js';
import { extractorFor, PREFIX_MAX_CHARS, prefixKeys, SearchFieldIds, wordOfKey, type DocWords } from './extract.js';
import { PostingOutcome, PostingWriter, prefixPostings, wordPostings } from './posting-blocks.js';
import { ForwardEncoder, type PostingColumns } from './postings.js';

/** Documents extracted and merged per round, bounding the batch's memory. */
const CHUNK_DOCS = 25_000;

/**
 * Pending changes of the keys of one database. Upserts are appended to one growable interleaved
 * column of (key, docid, mask, info) — docids ascending, as changes arrive in docid order — and
 * grouped per key by one counting pass, instead of growing millions of small per-key arrays.
 */
class KeyOps {
  private entries = new Uint32Array(4 << 16);
  private length = 0;
  readonly removed = new Map<number, number[]>();

  remove(id: number, docid: number): void {
    const list = this.removed.get(id);
    if (list === undefined) this.removed.set(id, [docid]);
    else list.push(docid);
  }

  upsert(id: number, docid: number, mask: number, info: number): void {
    let at = this.length;
    if (at + 4 > this.entries.length) {
      const grown = new Uint32Array(this.entries.length * 2);
      grown.set(this.entries);
      this.entries = grown;
    }
    const entries = this.entries;
    entries[at++] = id;
    entries[at++] = docid;
    entries[at++] = mask;
    entries[at++] = info;
    this.length = at;
  }

  /** Calls `visit` once per key with changes: its removed docids and its upsert columns. */
  forEachKey(keyCount: number, visit: (id: number, removed: readonly number[], upserts: PostingColumns) => void): void {
    const entries = this.entries;
    const n = this.length >>> 2;
    const start = new Int32Array(keyCount + 1);
    for (let k = 0; k < n; k++) start[entries[4 * k]! + 1]!++;
    for (let id = 0; id < keyCount; id++) start[id + 1]! += start[id]!;
    const fill = start.slice(0, keyCount);
    const docids = new Uint32Array(n);
    const masks = new Uint32Array(n);
    const infos = new Uint32Array(n);
    for (let k = 0, e = 0; k < n; k++, e += 4) {
      const at = fill[entries[e]!]!++;
      docids[at] = entries[e + 1]!;
      masks[at] = entries[e + 2]!;
      infos[at] = entries[e + 3]!;
    }
    for (let id = 0; id < keyCount; id++) {
      const from = start[id]!;
      const to = start[id + 1]!;
      const removed = this.removed.get(id);
      if (from === to && removed === undefined) continue;
      visit(id, removed ?? [], { docids: docids.subarray(from, to), masks: masks.subarray(from, to), infos: infos.subarray(from, to) });
    }
  }
}

/** The batch's prefixes: each vocabulary word's 1–3 character prefixes as prefix ids. */
class PrefixTable {
  readonly keys: string[] = [];
  private readonly ids = new Map<string, number>();
  // per vocabulary word: its prefix ids (PREFIX_MAX_CHARS slots each) and how many, -1 until known
  private readonly prefixIds: Int32Array;
  private readonly prefixCounts: Int8Array;
  // per prefix id (at most PREFIX_MAX_CHARS per word): the document (serial) that last
  // aggregated it, and the aggregate; typed so that millions of updates allocate nothing
  private readonly seenBy: Int32Array;
  readonly masks: Uint32Array;
  readonly positions: Uint32Array;
  private readonly current: number[] = [];
  private serial = 0;

  constructor(private readonly vocabulary: readonly string[]) {
    this.prefixIds = new Int32Array(PREFIX_MAX_CHARS * vocabulary.length);
    this.prefixCounts = new Int8Array(vocabulary.length).fill(-1);
    this.seenBy = new Int32Array(PREFIX_MAX_CHARS * vocabulary.length);
    this.masks = new Uint32Array(this.seenBy.length);
    this.positions = new Uint32Array(this.seenBy.length);
  }

  /** How many prefixes vocabulary word `word` has; its ids start at `word * PREFIX_MAX_CHARS` in prefixIds. */
  private prefixCount(word: number): number {
    let count = this.prefixCounts[word]!;
    if (count < 0) {
      const keys = prefixKeys(this.vocabulary[word]!);
      keys.forEach((key, k) => {
        let id = this.ids.get(key);
        if (id === undefined) {
          id = this.keys.length;
          this.ids.set(key, id);
          this.keys.push(key);
        }
        this.prefixIds[word * PREFIX_MAX_CHARS + k] = id;
      });
      count = keys.length;
      this.prefixCounts[word] = count;
    }
    return count;
  }

  /**
   * Aggregates a document's prefix entries: returns its prefix ids, whose `masks` and
   * `positions` (lowest) hold its aggregate; both valid until the next call.
   */
  aggregate(doc: DocWords): readonly number[] {
    const serial = ++this.serial;
    const ids = this.current;
    ids.length = 0;
    for (let slot = 0; slot < doc.words.length; slot++) {
      const mask = doc.masks[slot]!;
      const position = doc.infos[slot]! & 0xffff;
      const word = doc.words[slot]!;
      const end = word * PREFIX_MAX_CHARS + this.prefixCount(word);
      for (let at = word * PREFIX_MAX_CHARS; at < end; at++) {
        const id = this.prefixIds[at]!;
        if (this.seenBy[id] !== serial) {
          this.seenBy[id] = serial;
          this.masks[id] = mask;
          this.positions[id] = position;
          ids.push(id);
        } else {
          this.masks[id] = this.masks[id]! | mask;
          if (position < this.positions[id]!) this.positions[id] = position;
        }
      }
    }
    return ids;
  }
}

export function readSearchFields(env: IndexEnv): string[] {
  return (env.main.get(INDEX_MAIN_KEYS.searchFields) as string[] | undefined) ?? [];
}

export function readWordsVersion(env: IndexEnv): number {
  return (env.main.get(INDEX_MAIN_KEYS.wordsVersion) as number | undefined) ?? 0;
}

/** Applies one chunk of changes (docids ascending). */
function applyChunk(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[], prepared: PreparedWords | undefined): void {
  const fields = new SearchFieldIds(readSearchFields(env));
  const extractor = extractorFor(settings, fields);
  const withPrefixes = settings.prefixSearch !== 'disabled';
  const before = new Map<number, DocWords>();
  for (const doc of extractor.extract(changes.filter((c) => c.before !== undefined).map((c) => ({ docid: c.docid, doc: c.before! })))) {
    before.set(doc.docid, doc);
  }
  const after = new Map<number, DocWords>();
  const toExtract: { docid: number; doc: JsonObject }[] = [];
  for (const change of changes) {
    if (change.after === undefined) continue;
    const shipped = change.source === undefined ? undefined : prepared?.take(change.source);
    if (shipped !== undefined) {
      after.set(change.docid, extractor.adopt(change.docid, shipped));
      continue;
    }
    // among adopted documents, a document extracted below names its fields now, in its turn
    if (prepared !== undefined) extractor.noteFields(change.after);
    toExtract.push({ docid: change.docid, doc: change.after });
  }
  for (const doc of extractor.extract(toExtract)) after.set(doc.docid, doc);
  const vocabulary = extractor.keys;
  const prefixTable = new PrefixTable(vocabulary);
  const words = new KeyOps();
  const prefixes = new KeyOps();
  // marks[id] === serial: the id is in the current document's after version
  const wordMarks = new Int32Array(vocabulary.length);
  let serial = 0;
  for (const change of changes) {
    serial++;
    const old = before.get(change.docid);
    const now = after.get(change.docid);
    if (now !== undefined) {
      for (let slot = 0; slot < now.words.length; slot++) {
        const word = now.words[slot]!;
        wordMarks[word] = serial;
        words.upsert(word, change.docid, now.masks[slot]!, now.infos[slot]!);
      }
    }
    if (old !== undefined) for (const word of old.words) if (wordMarks[word] !== serial) words.remove(word, change.docid);
    if (!withPrefixes) continue;
    const kept = now === undefined ? [] : prefixTable.aggregate(now);
    for (const id of kept) prefixes.upsert(id, change.docid, prefixTable.masks[id]!, prefixTable.positions[id]!);
    if (old !== undefined) {
      const keep = new Set(kept);
      for (const id of prefixTable.aggregate(old)) if (!keep.has(id)) prefixes.remove(id, change.docid);
    }
  }

  let nextId = (env.main.get(INDEX_MAIN_KEYS.nextWordId) as number | undefined) ?? 1;
  let vocabularyChanged = false;
  const ids = new Uint32Array(vocabulary.length);
  const wordWriter = new PostingWriter(wordPostings(env));
  const newWordId = () => nextId++;
  words.forEachKey(vocabulary.length, (vid, removed, upserts) => {
    const word = wordOfKey(vocabulary[vid]!);
    const outcome = wordWriter.update(word, removed, upserts, newWordId);
    if (outcome === PostingOutcome.Deleted) {
      env.wordIds.removeSync(word);
      vocabularyChanged = true;
    } else if (outcome === PostingOutcome.Created) {
      vocabularyChanged = true;
      const bytes = Buffer.allocUnsafe(4);
      bytes.writeUInt32LE(wordWriter.id, 0);
      env.wordIds.putSync(word, bytes);
    }
    if (outcome === PostingOutcome.Created || outcome === PostingOutcome.Updated) ids[vid] = wordWriter.id;
  });
  const prefixWriter = new PostingWriter(prefixPostings(env));
  const noId = () => 0;
  prefixes.forEachKey(prefixTable.keys.length, (pid, removed, upserts) => {
    prefixWriter.update(wordOfKey(prefixTable.keys[pid]!), removed, upserts, noId);
  });

  const forward = new ForwardEncoder();
  for (const change of changes) {
    const now = after.get(change.docid);
    if (now === undefined) {
      env.docWords.removeSync(change.docid);
      continue;
    }
    env.docWords.putSync(change.docid, forward.encode(now.fieldWords, now.words, ids, now.tokenWords, now.tokenPlaces));
  }

  env.main.putSync(INDEX_MAIN_KEYS.nextWordId, nextId);
  if (fields.added) env.main.putSync(INDEX_MAIN_KEYS.searchFields, fields.names);
  if (vocabularyChanged) env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
}

function applyAll(env: IndexEnv, settings: IndexSettings, changes: Iterable<DocumentChange>, checkpoint: () => void, prepared?: PreparedWords): void {
  let chunk: DocumentChange[] = [];
  const run = () => {
    checkpoint();
    chunk.sort((a, b) => a.docid - b.docid);
    applyChunk(env, settings, chunk, prepared);
    chunk = [];
  };
  for (const change of changes) {
    chunk.push(change);
    if (chunk.length >= CHUNK_DOCS) run();
  }
  if (chunk.length > 0) run();
}

function* additions(documents: Iterable<{ docid: number; doc: JsonObject }>): Generator<DocumentChange> {
  for (const { docid, doc } of documents) yield { docid, before: undefined, after: doc };
}

export const wordIndexUpdater: IndexUpdater = {
  name: 'word-index',
  step: 'extracting words',
  apply(env, settings, changes, checkpoint = () => {}, prepared) {
    applyAll(env, settings, changes, checkpoint, prepared);
  },
  rebuild(env, settings, documents, checkpoint = () => {}) {
    env.wordDocids.clearSync();
    env.prefixDocids.clearSync();
    env.postingBlocks.clearSync();
    env.docWords.clearSync();
    env.wordIds.clearSync();
    env.main.removeSync(INDEX_MAIN_KEYS.searchFields);
    env.main.removeSync(INDEX_MAIN_KEYS.nextWordId);
    env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
    applyAll(env, settings, additions(documents), checkpoint);
  },
};
