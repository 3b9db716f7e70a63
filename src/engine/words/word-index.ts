/**
 * The word-index IndexUpdater: keeps `word-docids`, `word-prefix-docids`, `docid-words` (formats
 * in postings.ts) and `word-ids` in step with the documents, inside the batch's index write
 * transaction (the ../updater.ts contract).
 *
 * `apply` is incremental: the before and after versions of each changed document are extracted
 * (extract.ts), and every word or prefix key that lost, gained or changed a document is read and
 * rewritten once per chunk of documents. A chunk of new documents whose words were extracted
 * ahead takes them word by word rather than document by document (ahead-chunk.ts). A
 * document's prefix entries depend on that document only, so diffing them per document keeps the
 * prefix postings exact without rescanning words.
 * `rebuild` clears everything (field ids and word ids too) and indexes every document, taking
 * the words the extraction workers extracted from the stored documents when they did; it runs
 * when the settings that shape this index change (extract.ts `wordShape`: searchableAttributes,
 * stopWords, prefixSearch, tokenizer and localized attributes).
 * Word ids are allocated once per word and dropped with its last document; `words-version` is
 * bumped whenever the set of words changes, and every word whose posting changed is recorded
 * (index-changes.ts), so that searches update their typo dictionary and drop those postings.
 */
import type { JsonObject } from '../document-id.js';
import type { IndexEnv } from '../index-env.js';
import { noteRebuild, noteWords, readWordsVersion } from '../index-changes.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { AheadParts } from './ahead-parts.js';
import type { DocumentChange, IndexUpdater } from '../updater.js';
import type { IndexSettings } from '../../types/settings.js';
import { TailPuts } from '../../store/tail-puts.js';
import { takeAheadChunk, type ChunkChanges } from './ahead-chunk.js';
import type { DocWords } from './doc-words.js';
import { extractorFor, SearchFieldIds, searchableMatcher, wordOfKey, wordShape, type WordExtractor } from './extract.js';
import { KeyOps } from './key-ops.js';
import { PostingOutcome, PostingWriter, prefixPostings, wordPostings } from './posting-blocks.js';
import { ForwardEncoder } from './postings.js';
import { PrefixTable } from './prefix-table.js';

const NO_PREFIXES = new Int32Array(0);

/** Documents extracted and merged per round, bounding the batch's memory. */
const CHUNK_DOCS = 25_000;

export function readSearchFields(env: IndexReadEnv): string[] {
  return (env.main.get(INDEX_MAIN_KEYS.searchFields) as string[] | undefined) ?? [];
}

/** Every path the word index numbered, now or before a rebuild of it, in no particular order. */
export function knownSearchPaths(env: IndexReadEnv): string[] {
  const past = (env.main.get(INDEX_MAIN_KEYS.pastSearchFields) as string[] | undefined) ?? [];
  return [...new Set([...past, ...readSearchFields(env)])];
}

/**
 * Gives `path` the next search field id if it is searchable and has none, ahead of the documents
 * that hold it: a declared primary key, which leads every stored document (document-batch.ts), so
 * that words taken from a payload's own field order number it as extracting the stored one does.
 */
export function addSearchField(env: IndexEnv, settings: IndexSettings, path: string): void {
  if (!searchableMatcher(settings.searchableAttributes)(path)) return;
  const fields = new SearchFieldIds(readSearchFields(env));
  fields.idOf(path);
  if (fields.added) env.main.putSync(INDEX_MAIN_KEYS.searchFields, fields.names);
}

/** A chunk's changes from extracting (or taking the words extracted ahead of) each document's before and after versions. */
function extractChunk(extractor: WordExtractor, changes: readonly DocumentChange[], ahead: AheadParts | undefined, withPrefixes: boolean): ChunkChanges {
  const before = new Map<number, DocWords>();
  for (const doc of extractor.extract(changes.filter((c) => c.before !== undefined).map((c) => ({ docid: c.docid, doc: c.before! })))) {
    before.set(doc.docid, doc);
  }
  const after = new Map<number, DocWords>();
  const toExtract: { docid: number; doc: JsonObject }[] = [];
  for (const change of changes) {
    if (change.after === undefined) continue;
    const taken = change.source === undefined ? undefined : ahead?.take(change.source);
    if (taken !== undefined) {
      after.set(change.docid, extractor.takeAhead(change.docid, taken));
      continue;
    }
    // among documents extracted ahead, a document extracted below names its fields now, in its turn
    if (ahead !== undefined) extractor.noteFields(change.after);
    toExtract.push({ docid: change.docid, doc: change.after });
  }
  for (const doc of extractor.extract(toExtract)) after.set(doc.docid, doc);
  const prefixTable = new PrefixTable(extractor.vocabularyBytes());
  const words = new KeyOps();
  const prefixes = new KeyOps();
  // marks[id] === serial: the id is in the current document's after version
  const wordMarks = new Int32Array(extractor.vocabularySize);
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
    const kept = now === undefined ? NO_PREFIXES : prefixTable.aggregate(now);
    for (const id of kept) prefixes.upsert(id, change.docid, prefixTable.masks[id]!, prefixTable.positions[id]!);
    if (old !== undefined) {
      const keep = new Set(kept);
      for (const id of prefixTable.aggregate(old)) if (!keep.has(id)) prefixes.remove(id, change.docid);
    }
  }
  return {
    words,
    prefixKeys: prefixTable.keys,
    prefixes,
    forward(i) {
      const now = after.get(changes[i]!.docid);
      if (now === undefined) return null;
      return { fieldPairs: [...now.fieldWords].flat(), words: now.words, tokenWords: now.tokenWords, tokenPlaces: now.tokenPlaces };
    },
  };
}

/** Applies one chunk of changes (docids ascending). */
function applyChunk(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[], ahead: AheadParts | undefined): void {
  const fields = new SearchFieldIds(readSearchFields(env));
  const extractor = extractorFor(settings, fields);
  const withPrefixes = settings.prefixSearch !== 'disabled';
  const chunk = (ahead === undefined ? null : takeAheadChunk(extractor, changes, ahead, withPrefixes)) ?? extractChunk(extractor, changes, ahead, withPrefixes);
  const vocabulary = extractor.keys;

  let nextId = (env.main.get(INDEX_MAIN_KEYS.nextWordId) as number | undefined) ?? 1;
  // what searches' caches must drop (index-changes.ts)
  const changed: string[] = [];
  const created: [string, number][] = [];
  const deleted: string[] = [];
  const ids = new Uint32Array(vocabulary.length);
  const wordWriter = new PostingWriter(wordPostings(env));
  const newWordId = () => nextId++;
  chunk.words.forEachKey((vid, removed, upserts) => {
    const word = wordOfKey(vocabulary[vid]!);
    changed.push(word);
    const outcome = wordWriter.update(word, removed, upserts, newWordId);
    if (outcome === PostingOutcome.Deleted) {
      env.wordIds.removeSync(word);
      deleted.push(word);
    } else if (outcome === PostingOutcome.Created) {
      created.push([word, wordWriter.id]);
      const bytes = Buffer.allocUnsafe(4);
      bytes.writeUInt32LE(wordWriter.id, 0);
      env.wordIds.putSync(word, bytes);
    }
    if (outcome === PostingOutcome.Created || outcome === PostingOutcome.Updated) ids[vid] = wordWriter.id;
  });
  const prefixWriter = new PostingWriter(prefixPostings(env));
  const noId = () => 0;
  chunk.prefixes.forEachKey((pid, removed, upserts) => {
    prefixWriter.update(wordOfKey(chunk.prefixKeys[pid]!), removed, upserts, noId);
  });

  const forward = new ForwardEncoder();
  const records = new TailPuts(env.docWords);
  changes.forEach((change, i) => {
    const now = chunk.forward(i);
    if (now === null) env.docWords.removeSync(change.docid);
    else records.put(change.docid, forward.encode(now.fieldPairs, now.words, ids, now.tokenWords, now.tokenPlaces));
  });

  env.main.putSync(INDEX_MAIN_KEYS.nextWordId, nextId);
  if (fields.added) env.main.putSync(INDEX_MAIN_KEYS.searchFields, fields.names);
  if (created.length > 0 || deleted.length > 0) env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
  noteWords(env, changed, created, deleted);
}

/** Applies `changes` by chunks; `afterChunk` runs after each. */
function applyAll(env: IndexEnv, settings: IndexSettings, changes: Iterable<DocumentChange>, checkpoint: () => void, ahead?: AheadParts, afterChunk = () => {}): void {
  let chunk: DocumentChange[] = [];
  const run = () => {
    checkpoint();
    chunk.sort((a, b) => a.docid - b.docid);
    applyChunk(env, settings, chunk, ahead);
    chunk = [];
    afterChunk();
  };
  for (const change of changes) {
    chunk.push(change);
    if (chunk.length >= CHUNK_DOCS) run();
  }
  if (chunk.length > 0) run();
}

/**
 * The stored documents as new ones. With words extracted ahead, each is noted as the line of the
 * one addition the workers extract that its place in docid order is (extract-ahead.ts
 * `extractStoredParts`), with its docid, which its part must have there.
 */
function* additions(documents: Iterable<{ docid: number; doc: JsonObject }>, ahead: AheadParts | undefined): Generator<DocumentChange> {
  let line = 0;
  for (const { docid, doc } of documents) {
    ahead?.note(doc, 0, line++, docid);
    yield { docid, before: undefined, after: doc, source: doc };
  }
}

export const wordIndexUpdater: IndexUpdater<AheadParts> = {
  name: 'word-index',
  step: 'extracting words',
  shape: wordShape,
  apply(env, settings, changes, checkpoint = () => {}, ahead) {
    applyAll(env, settings, changes, checkpoint, ahead);
  },
  rebuild(env, settings, documents, checkpoint = () => {}, ahead) {
    env.wordDocids.clearSync();
    env.prefixDocids.clearSync();
    env.postingBlocks.clearSync();
    env.docWords.clearSync();
    env.wordIds.clearSync();
    env.main.putSync(INDEX_MAIN_KEYS.pastSearchFields, knownSearchPaths(env));
    env.main.removeSync(INDEX_MAIN_KEYS.searchFields);
    env.main.removeSync(INDEX_MAIN_KEYS.nextWordId);
    env.main.putSync(INDEX_MAIN_KEYS.wordsVersion, readWordsVersion(env) + 1);
    noteRebuild(env);
    // the workers extract under these settings from no search fields, as told when they started
    applyAll(env, settings, additions(documents, ahead), checkpoint, ahead, () => ahead?.release());
  },
};
