/**
 * The count an addition answers as its `indexedDocuments` (documents.md §4.3): its distinct
 * document ids (of owned shards, with a sharded network), duplicates inside the payload once,
 * those `skipCreation` drops included. Taken while the batch applies the addition, from what
 * application already resolves, rather than from a set of every id of the payload (tens of
 * MiB for millions of ids):
 * - an id written since the store's last write is remembered with the document written (at
 *   most a chunk of them);
 * - once the store wrote them, only their docids are: a bit per docid of the index;
 * - an id `skipCreation` drops has no docid: those ids are kept as they are, so the count is
 *   exact, and only such a payload's missing ids cost memory.
 * One counter per addition: an id an earlier task of the batch wrote counts again.
 */
import type { JsonObject } from '../document-id.js';
import type { DocumentChange } from '../updater.js';

export class DistinctIds {
  private distinct = 0;
  /** id → the document the addition last wrote under it, since the store's last write */
  private readonly unstored = new Map<string, JsonObject>();
  /** a bit per docid the addition wrote to the store */
  private stored = new Uint8Array(0);
  private readonly skipped = new Set<string>();

  get count(): number {
    return this.distinct;
  }

  /**
   * Notes that the addition writes `doc` under `id`; `docid` is the docid the store has for
   * `id`, when the batch's pending changes do not hold it.
   */
  wrote(id: string, docid: number | undefined, doc: JsonObject): void {
    if (!this.unstored.has(id) && (docid === undefined || !this.isStored(docid))) this.distinct++;
    this.unstored.set(id, doc);
  }

  /** Notes an id `skipCreation` drops: no document of the index has it. */
  skip(id: string): void {
    if (this.skipped.has(id)) return;
    this.skipped.add(id);
    this.distinct++;
  }

  /** Takes the docids of the documents the store just wrote (`applied`). */
  storeWrote(applied: readonly DocumentChange[]): void {
    if (this.unstored.size === 0) return;
    const docs = new Set<JsonObject>(this.unstored.values());
    for (const { docid, source } of applied) if (source !== undefined && docs.has(source)) this.markStored(docid);
    this.unstored.clear();
  }

  private isStored(docid: number): boolean {
    return (docid >>> 3) < this.stored.length && (this.stored[docid >>> 3]! & (1 << (docid & 7))) !== 0;
  }

  private markStored(docid: number): void {
    const byte = docid >>> 3;
    if (byte >= this.stored.length) {
      const grown = new Uint8Array(Math.max(byte + 1, this.stored.length * 2));
      grown.set(this.stored);
      this.stored = grown;
    }
    this.stored[byte] = this.stored[byte]! | (1 << (docid & 7));
  }
}
