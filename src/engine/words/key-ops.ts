/**
 * A chunk's posting entries grouped per key (a word or prefix id): what the word-index updater
 * merges into the stored postings, and what an extraction worker hands over for its part so that the
 * write takes whole keys instead of single entries.
 */
import type { PostingColumns } from './postings.js';

/** Calls `visit` once per key with changes: its removed docids and its upsert columns. */
export type KeyVisitor = (id: number, removed: readonly number[], upserts: PostingColumns) => void;

/** Entries grouped per key: key `id`'s are [starts[id], starts[id + 1]), documents ascending. */
export interface GroupedEntries {
  readonly starts: Int32Array;
  readonly docids: Uint32Array;
  readonly masks: Uint32Array;
  readonly infos: Uint32Array;
}

/** Changes of the keys of one database, as the updater merges them. */
export interface KeyChanges {
  forEachKey(visit: KeyVisitor): void;
}

/** The removed docids of a key that lost no document. */
export const NONE_REMOVED: readonly number[] = [];

function visitGrouped({ starts, docids, masks, infos }: GroupedEntries, removed: ReadonlyMap<number, number[]>, visit: KeyVisitor): void {
  for (let id = 0; id + 1 < starts.length; id++) {
    const from = starts[id]!;
    const to = starts[id + 1]!;
    const gone = removed.get(id);
    if (from === to && gone === undefined) continue;
    visit(id, gone ?? NONE_REMOVED, { docids: docids.subarray(from, to), masks: masks.subarray(from, to), infos: infos.subarray(from, to) });
  }
}

/**
 * Entries [0, `n`) of the columns grouped per key 0 to `count` - 1 (every key given below it),
 * in their order within a key: one counting pass.
 */
export function groupByKey(keys: Int32Array, docids: Uint32Array, masks: Uint32Array, infos: Uint32Array, n: number, count: number): GroupedEntries {
  const starts = new Int32Array(count + 1);
  for (let e = 0; e < n; e++) starts[keys[e]! + 1]!++;
  for (let id = 0; id < count; id++) starts[id + 1]! += starts[id]!;
  const fill = starts.slice(0, count);
  const out = { starts, docids: new Uint32Array(n), masks: new Uint32Array(n), infos: new Uint32Array(n) };
  for (let e = 0; e < n; e++) {
    const at = fill[keys[e]!]!++;
    out.docids[at] = docids[e]!;
    out.masks[at] = masks[e]!;
    out.infos[at] = infos[e]!;
  }
  return out;
}

/**
 * Pending changes of the keys of one database. Upserts are appended to growable columns of
 * (key, docid, mask, info) — docids ascending per key, as changes arrive in docid order — and
 * grouped per key by one counting pass, instead of growing millions of small per-key arrays.
 */
export class KeyOps implements KeyChanges {
  private keys = new Int32Array(1 << 16);
  private docids = new Uint32Array(1 << 16);
  private masks = new Uint32Array(1 << 16);
  private infos = new Uint32Array(1 << 16);
  private length = 0;
  private keyCount = 0;
  readonly removed = new Map<number, number[]>();

  /** Drops every change, keeping the columns' room. */
  clear(): void {
    this.length = 0;
    this.keyCount = 0;
    this.removed.clear();
  }

  remove(id: number, docid: number): void {
    const list = this.removed.get(id);
    if (list === undefined) this.removed.set(id, [docid]);
    else list.push(docid);
    if (id >= this.keyCount) this.keyCount = id + 1;
  }

  upsert(id: number, docid: number, mask: number, info: number): void {
    const at = this.length;
    if (at === this.keys.length) this.reserve(1);
    this.keys[at] = id;
    this.docids[at] = docid;
    this.masks[at] = mask;
    this.infos[at] = info;
    this.length = at + 1;
    if (id >= this.keyCount) this.keyCount = id + 1;
  }

  /** Upserts one document's entries: keys[i] with masks[i] and infos[i]. */
  upsertAll(docid: number, keys: ArrayLike<number>, masks: ArrayLike<number>, infos: ArrayLike<number>): void {
    const at = this.length;
    const n = keys.length;
    this.reserve(n);
    this.keys.set(keys, at);
    this.docids.fill(docid, at, at + n);
    this.masks.set(masks, at);
    this.infos.set(infos, at);
    this.length = at + n;
    for (let i = 0; i < n; i++) if (keys[i]! >= this.keyCount) this.keyCount = keys[i]! + 1;
  }

  /** Room for `n` more entries. */
  private reserve(n: number): void {
    if (this.length + n <= this.keys.length) return;
    const size = Math.max(2 * this.keys.length, this.length + n);
    const grow = <T extends Int32Array | Uint32Array>(column: T, made: T): T => {
      made.set(column.subarray(0, this.length));
      return made;
    };
    this.keys = grow(this.keys, new Int32Array(size));
    this.docids = grow(this.docids, new Uint32Array(size));
    this.masks = grow(this.masks, new Uint32Array(size));
    this.infos = grow(this.infos, new Uint32Array(size));
  }

  /** The upserts grouped per key, for keys 0 to `keyCount` (at least every key given). */
  grouped(keyCount = this.keyCount): GroupedEntries {
    return groupByKey(this.keys, this.docids, this.masks, this.infos, this.length, Math.max(keyCount, this.keyCount));
  }

  forEachKey(visit: KeyVisitor): void {
    visitGrouped(this.grouped(), this.removed, visit);
  }
}
