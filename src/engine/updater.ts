/**
 * The extension point of indexing: every derived structure of an index (facet values, word
 * postings, sort values…) is an IndexUpdater. The document processor hands each updater the
 * batch's net document changes inside the index environment's single write transaction, so the
 * documents and everything derived from them always land together.
 *
 * A settings change that alters what an updater derives (its `shape` of the settings) calls
 * its `rebuild`: the updater clears its own databases and re-derives from every stored document.
 * A long updater calls `checkpoint` between chunks of work: it throws when the write is
 * interrupted (a cancelation), which rolls the transaction back.
 *
 * The engine's base: the document store (documents/store.ts) produces the changes, the facet
 * index (facets/updater.ts) and the word index (words/word-index.ts) implement the contract, and
 * the indexer (indexer/registry.ts, indexer/document-batch.ts) drives them. `Ahead` is the work the
 * indexer did ahead of the write for the updaters that can use it (words/ahead-parts.ts: the word
 * index takes the parts' words, the facet index their facet entries); an updater that takes none
 * leaves it `unknown`.
 */
import type { JsonObject } from './document-id.js';
import type { IndexEnv } from './index-env.js';
import type { IndexSettings } from '../types/settings.js';
import type { IndexingStep } from './indexing-steps.js';

/** One document's net change in a batch: `before` absent = created, `after` absent = deleted. */
export interface DocumentChange {
  docid: number;
  before: JsonObject | undefined;
  after: JsonObject | undefined;
  /** the batch's document `after` was stored from (the same fields, maybe reordered) */
  source?: JsonObject;
}

export interface IndexUpdater<Ahead = unknown> {
  readonly name: string;
  /** the indexer step its work is reported as (indexing-steps.ts) */
  readonly step: IndexingStep;
  /**
   * Applies net changes; runs inside the index write transaction. `ahead` has work done
   * ahead on the batch's documents, for the updaters that can use it.
   */
  apply(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[], checkpoint?: () => void, ahead?: Ahead): void;
  /**
   * The part of the index's settings its derived data depends on (the settings it reads to
   * derive): a settings change rebuilds the updater when this differs before and after
   * (settings/diff.ts). null for an updater that a settings write always runs (RECONCILING_UPDATERS).
   */
  shape(settings: IndexSettings): unknown;
  /**
   * Clears and re-derives from all documents (ascending docids); runs inside the index write
   * transaction. `ahead` has work done ahead on the stored documents, for an updater that can use it.
   */
  rebuild(env: IndexEnv, settings: IndexSettings, documents: Iterable<{ docid: number; doc: JsonObject }>, checkpoint?: () => void, ahead?: Ahead): void;
}
