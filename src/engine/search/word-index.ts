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
import type { DocumentChange, IndexUpdater } from '../indexer/updaters.js';
import type { IndexSettings } from '../../types/settings.js';
import { extractWords, prefixKeys, SearchFieldIds, searchableMatcher, wordOfKey, type DocWords } from './extract.js';
import { decodePosting, encodeForward, encodePosting, mergePosting, type PostingEntry } from './postings.js';

/** Documents extracted and merged per round, bounding the batch's memory. */
const CHUNK_DOCS = 8192;

/** Pending changes of one key. */
interface KeyOps {
  removed: number[];
  upserts: PostingEntry[];
}

function opsOf(table: Map<string, KeyOps>, key: string): KeyOps {
  let ops = table.get(key);
  if (ops === undefined) {
    ops = { removed: [], upserts: [] };
    table.set(key, ops);
  }
  return ops;
}

/** A document's prefix entries: prefix key → [mask, minimum position]. */
function prefixEntries(doc: DocWords): Map<string, [number, number]> {
  const out = new Map<string, [number, number]>();
  for (const [key, [mask, info]] of doc.words) {
    const position = info & 0xffff;
    for (const prefix of prefixKeys(key)) {
      const entry = out.get(prefix);
      if (entry === undefined) out.set(prefix, [mask, position]);
      else {
        entry[0] = (entry[0] | mask) >>> 0;
        if (position < entry[1]) entry[1] = position;
      }
    }
  }
  return out;
}

export function readSearchFields(env: IndexEnv): string[] {
  return (env.main.get(INDEX_MAIN_KEYS.searchFields) as string[] | undefined) ?? [];
}

export function readWordsVersion(env: IndexEnv): number {
  return (env.main.get(INDEX_MAIN_KEYS.wordsVersion) as number | undefined) ?? 0;
}

/** Applies one chunk of changes (docids ascending). */
function applyChunk(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[]): void {
  const fields = new SearchFieldIds(readSearchFields(env));
  const options = { isSearchable: searchableMatcher(settings.searchableAttributes), fields, stopWords: new Set(settings.stopWords) };
  const withPrefixes = settings.prefixSearch !== 'disabled';
  const before = new Map<number, DocWords>();
  for (const doc of extractWords(changes.filter((c) => c.before !== undefined).map((c) => ({ docid: c.docid, doc: c.before! })), options)) {
    before.set(doc.docid, doc);
  }
  const after = extractWords(
    changes.filter((c) => c.after !== undefined).map((c) => ({ docid: c.docid, doc: c.after! })),
    options,
  );
  const afterByDocid = new Map(after.map((doc) => [doc.docid, doc]));

  const words = new Map<string, KeyOps>();
  const prefixes = new Map<string, KeyOps>();
  for (const change of changes) {
    const old = before.get(change.docid);
    const now = afterByDocid.get(change.docid);
    if (old !== undefined) {
      for (const key of old.words.keys()) if (now === undefined || !now.words.has(key)) opsOf(words, key).removed.push(change.docid);
    }
    if (now !== undefined) {
      for (const [key, [mask, info]] of now.words) opsOf(words, key).upserts.push({ docid: change.docid, mask, info });
    }
    if (!withPrefixes) continue;
    const oldPrefixes = old === undefined ? undefined : prefixEntries(old);
    const newPrefixes = now === undefined ? undefined : prefixEntries(now);
    if (oldPrefixes !== undefined) {
      for (const key of oldPrefixes.keys()) if (newPrefixes === undefined || !newPrefixes.has(key)) opsOf(prefixes, key).removed.push(change.docid);
    }
    if (newPrefixes !== undefined) {
      for (const [key, [mask, position]] of newPrefixes) opsOf(prefixes, key).upserts.push({ docid: change.docid, mask, info: position });
    }
  }

  let nextId = (env.main.get(INDEX_MAIN_KEYS.nextWordId) as number | undefined) ?? 1;
  let vocabularyChanged = false;
  const ids = new Map<string, number>();
  for (const [key, ops] of words) {
    const word = wordOfKey(key);
    const base = decodePosting(env.wordDocids.getBinary(word));
    const merged = mergePosting(base, ops.removed, ops.upserts);
    if (merged.docids.length === 0) {
      if (base.docids.length > 0) {
        env.wordDocids.removeSync(word);
        env.wordIds.removeSync(word);
        vocabularyChanged = true;
      }
      continue;
    }
    let id = base.id;
    if (base.docids.length === 0) {
      id = nextId++;
      vocabularyChanged = true;
      const bytes = Buffer.allocUnsafe(4);
      bytes.writeUInt32LE(id, 0);
      env.wordIds.putSync(word, bytes);
    }
    ids.set(key, id);
    env.wordDocids.putSync(word, encodePosting(id, merged.docids, merged.masks, merged.infos));
  }
  for (const [key, ops] of prefixes) {
    const prefix = wordOfKey(key);
    const merged = mergePosting(decodePosting(env.prefixDocids.getBinary(prefix)), ops.removed, ops.upserts);
    if (merged.docids.length === 0) env.prefixDocids.removeSync(prefix);
    else env.prefixDocids.putSync(prefix, encodePosting(0, merged.docids, merged.masks, merged.infos));
  }

  for (const change of changes) {
    const now = afterByDocid.get(change.docid);
    if (now === undefined) {
      env.docWords.removeSync(change.docid);
      continue;
    }
    const tokens = now.tokens.map(([key, place]): [number, number] => [ids.get(key)!, place]);
    env.docWords.putSync(change.docid, encodeForward(now.fieldWords, tokens));
  }

  env.main.putSync(INDEX_MAIN_KEYS.nextWordId, nextId);
  if (fields.added) env.main.putSync(INDEX_MAIN_KEYS.searchFields, fields.names);
  if (vocabularyChanged) env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
}

function applyAll(env: IndexEnv, settings: IndexSettings, changes: Iterable<DocumentChange>): void {
  let chunk: DocumentChange[] = [];
  const run = () => {
    chunk.sort((a, b) => a.docid - b.docid);
    applyChunk(env, settings, chunk);
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
  apply(env, settings, changes) {
    applyAll(env, settings, changes);
  },
  rebuild(env, settings, documents) {
    env.wordDocids.clearSync();
    env.prefixDocids.clearSync();
    env.docWords.clearSync();
    env.wordIds.clearSync();
    env.main.removeSync(INDEX_MAIN_KEYS.searchFields);
    env.main.removeSync(INDEX_MAIN_KEYS.nextWordId);
    env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
    applyAll(env, settings, additions(documents));
  },
};
