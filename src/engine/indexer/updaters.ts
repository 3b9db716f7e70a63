/**
 * The extension point of indexing: every derived structure of an index (facet values, word
 * postings, sort values…) is an IndexUpdater. The document processor hands each updater the
 * batch's net document changes inside the index environment's single write transaction, so the
 * documents and everything derived from them always land together.
 *
 * A settings change that alters what is derived calls `rebuild`: the updater clears its own
 * databases and re-derives from every stored document.
 * A long updater calls `checkpoint` between chunks of work: it throws when the write is
 * interrupted (a cancelation), which rolls the transaction back.
 */
import type { JsonObject } from '../documents/document-id.js';
import type { IndexEnv } from '../index-env.js';
import type { IndexSettings } from '../../types/settings.js';
import type { PreparedWords } from './prepared-words.js';
import type { IndexingStep } from './steps.js';

/** One document's net change in a batch: `before` absent = created, `after` absent = deleted. */
export interface DocumentChange {
  docid: number;
  before: JsonObject | undefined;
  after: JsonObject | undefined;
  /** the batch's document `after` was stored from (the same fields, maybe reordered) */
  source?: JsonObject;
}

export interface IndexUpdater {
  readonly name: string;
  /** the indexer step its work is reported as (steps.ts) */
  readonly step: IndexingStep;
  /**
   * Applies net changes; runs inside the index write transaction. `prepared` has work done
   * ahead on the batch's documents, for the updaters that can use it.
   */
  apply(env: IndexEnv, settings: IndexSettings, changes: readonly DocumentChange[], checkpoint?: () => void, prepared?: PreparedWords): void;
  /** Clears and re-derives from all documents; runs inside the index write transaction. */
  rebuild(env: IndexEnv, settings: IndexSettings, documents: Iterable<{ docid: number; doc: JsonObject }>, checkpoint?: () => void): void;
}
