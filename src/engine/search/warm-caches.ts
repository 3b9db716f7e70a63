/**
 * The caches a search builds the first time it reads a new or rewritten index, built ahead, right
 * after the batch that wrote it: its dictionary (dictionary.ts), the value columns of its facet
 * fields (facets/value-columns.ts), and, for an index of few documents too (a word of a large one
 * may be in all of them: its ranking is not for the scheduler's thread to pay), what a search of
 * one of its words derives and reads (the settings' tables, the searched fields, the forward
 * records, the postings kept between searches, a hit's document). On a new index of four
 * documents the first search after the write built the first two (0.3–0.8 ms and 0.5–0.9 ms),
 * past the whole millisecond of v1.50's `processingTimeMs: 0`; with the search ahead too, the
 * first search of a new six-document index answered 0 in 73 of 90 tries against 47
 * (bench/RESULTS.md). Built ahead, later writes patch them
 * as they would for searches. Only for small indexes: a large one's first search pays, as before
 * (movies' dictionary takes 40 ms), rather than every write of an index nobody may search. The
 * bound is low because a large load's first batches are small indexes too: with 20,000 keys, the
 * caches built after them and patched through the rest of a movies load added 12–18 MiB to its peak.
 * Nor is a search run ahead over synonyms too many to make into a table at once: the first search
 * builds that table a slice per event-loop turn, where built here it would hold the loop whole.
 */
import type { IndexEnv } from '../index-env.js';
import { FacetKind } from '../facets/extract.js';
import { FacetReader, readFacetFields } from '../facets/store.js';
import { valueColumn } from '../facets/value-columns.js';
import { DocumentStore } from '../documents/store.js';
import { searchSettings } from '../index-settings.js';
import type { IndexSettings } from '../../types/settings.js';
import { dictionaryOf } from './dictionary.js';
import { executeSearch, plainRequest } from './search.js';
import { synonymTableBuild } from './synonym-table.js';

/** The most words, facet keys, and documents for the search ahead, of an index whose caches are built ahead. */
export const WARM_CACHES_MAX_KEYS = 2_000;

/** Entries of one of the environment's databases, from LMDB's tree statistics (no walk). */
function entries(db: { getStats(): unknown }): number {
  return (db.getStats() as { entryCount: number }).entryCount;
}

/**
 * Builds `env`'s dictionary when it holds at most `maxKeys` words, and searches one of them when it
 * also holds at most `maxKeys` documents and its synonym table is small enough to build at once;
 * its facet fields' value columns when it holds at most `maxKeys` facet keys. Main thread only,
 * as the caches are.
 */
export function warmSearchCaches(env: IndexEnv, maxKeys = WARM_CACHES_MAX_KEYS): void {
  if (entries(env.wordIds) <= maxKeys) {
    const { words } = dictionaryOf(env);
    if (words.length > 0 && entries(env.documents) <= maxKeys) {
      const settings = searchSettings(env);
      // a large synonym table is the first search's to build, a slice per event-loop turn
      // (synonym-table.ts): built here, at once, 100,000 synonyms held the event loop ~0.8 s
      if (synonymTableBuild(settings) === undefined) warmSearch(env, settings, words[0]!);
    }
  }
  if (entries(env.facetDocids) > maxKeys) return;
  const reader = new FacetReader(env);
  for (const field of readFacetFields(env)) {
    const fid = reader.fieldId(field);
    if (fid === undefined) continue;
    valueColumn(env, reader, fid, FacetKind.string);
    valueColumn(env, reader, fid, FacetKind.number);
  }
}

/**
 * A search of one of the index's words, its first hit ranked and its document read: it derives
 * what a first search would (the settings' tables, the searched fields, the forward records, the
 * postings kept between searches, the typo matches of a word, the shared documents).
 */
function warmSearch(env: IndexEnv, settings: IndexSettings, word: string): void {
  const { hits } = executeSearch(env, settings, plainRequest(word, 1));
  if (hits.length > 0) new DocumentStore(env).sharedByDocid(hits[0]!.docid);
}
