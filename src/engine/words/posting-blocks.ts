/**
 * Postings split into blocks of at most BLOCK_ENTRIES documents, so that adding documents to a
 * large posting rewrites its last block instead of the whole posting (every batch of a bulk load
 * used to rewrite every common word and prefix in full: quadratic in the index size).
 *
 * Layout: the head block (postings.ts posting format) stays under the word or prefix key in its
 * own database, with CONTINUED set in its id field when further blocks exist. Those live in the
 * shared `posting-blocks` database under tag · key bytes · 0x00 · first docid (u32 BE), so a
 * posting's blocks are one contiguous key range in docid order. A block's key is the lower bound
 * of the docids it holds (the head's is 0): a change goes to the last block whose bound is not
 * above its docid, so rewriting a block never moves its key.
 * A posting of up to BLOCK_ENTRIES documents is exactly the unsplit format, which stores written
 * before blocks existed still are.
 */
import type { Database } from 'lmdb';
import { lowerBound } from '../../kernels/setops-fallback.js';
import type { IndexReadEnv, ReadDb } from '../index-read-env.js';
import { decodePosting, EMPTY_POSTING, PACKED, postingCount, postingFirstWord, PostingMerger, unpackEntries, type Posting, type PostingColumns } from './postings.js';

/** Documents per block: a rewrite unpacks and packs at most this many entries. */
export const BLOCK_ENTRIES = 4096;
/** Set in a head's id field when the posting continues in `posting-blocks`. */
const CONTINUED = 0x80000000;

/** The word id in a stored posting's first u32, without its flags. */
function idOf(first: number): number {
  return (first & ~(CONTINUED | PACKED)) >>> 0;
}

/**
 * One posting database and the tag its blocks carry in `posting-blocks`: read from any index
 * storage, written (`PostingWriter`) in an LMDB environment only.
 */
export interface PostingTable<Heads extends ReadDb<Buffer, string> = ReadDb<Buffer, string>, Blocks extends ReadDb<Buffer, Buffer> = ReadDb<Buffer, Buffer>> {
  readonly heads: Heads;
  readonly blocks: Blocks;
  /** one byte that keeps the tables' blocks apart */
  readonly tag: number;
}

/** A posting table of an LMDB environment, which `PostingWriter` writes. */
export type WritablePostingTable = PostingTable<Database<Buffer, string>, Database<Buffer, Buffer>>;

/** The word postings (`word-docids`) of an index. */
export function wordPostings<E extends IndexReadEnv>(env: E): PostingTable<E['wordDocids'], E['postingBlocks']> {
  return { heads: env.wordDocids, blocks: env.postingBlocks, tag: 0x77 };
}

/** The prefix postings (`word-prefix-docids`) of an index. */
export function prefixPostings<E extends IndexReadEnv>(env: E): PostingTable<E['prefixDocids'], E['postingBlocks']> {
  return { heads: env.prefixDocids, blocks: env.postingBlocks, tag: 0x70 };
}

function keyBase(table: PostingTable, key: string): Buffer {
  const bytes = Buffer.from(key, 'utf8');
  const base = Buffer.allocUnsafe(bytes.length + 2);
  base[0] = table.tag;
  bytes.copy(base, 1);
  base[bytes.length + 1] = 0;
  return base;
}

function blockKey(base: Buffer, first: number): Buffer {
  const key = Buffer.allocUnsafe(base.length + 4);
  base.copy(key);
  key.writeUInt32BE(first, base.length);
  return key;
}

/** The key range of a posting's continuation blocks. */
function blockRange(base: Buffer): { start: Buffer; end: Buffer } {
  const end = Buffer.from(base);
  end[end.length - 1] = 1;
  return { start: base, end };
}

/** The whole posting stored under `key`, its blocks concatenated. */
export function readPosting(table: PostingTable, key: string): Posting {
  const head = table.heads.getBinaryFast(key);
  if (head === undefined || head.length < 8) return EMPTY_POSTING;
  const first = postingFirstWord(head);
  if ((first & CONTINUED) === 0) return decodePosting(head);
  // the blocks' keys, then each block read in place (lmdb's reused buffer) straight into the
  // columns: one pass over every entry, as for an unsplit posting
  const base = keyBase(table, key);
  const keys: Buffer[] = [];
  let total = postingCount(head);
  for (const stored of table.blocks.getKeys(blockRange(base))) {
    if (stored.length !== base.length + 4) continue;
    const blockKey = Buffer.from(stored);
    keys.push(blockKey);
    total += postingCount(table.blocks.getBinaryFast(blockKey)!);
  }
  const all = new Uint32Array(3 * total);
  let at = 0;
  const copy = (block: Uint8Array) => {
    const n = Math.min(postingCount(block), total - at);
    unpackEntries(block, n, all, at, total + at, 2 * total + at);
    at += n;
  };
  copy(table.heads.getBinaryFast(key)!);
  for (const blockKey of keys) copy(table.blocks.getBinaryFast(blockKey)!);
  return { id: idOf(first), docids: all.subarray(0, total), masks: all.subarray(total, 2 * total), infos: all.subarray(2 * total) };
}

/** What `PostingWriter.update` did to a posting. */
export const enum PostingOutcome {
  /** nothing stored before nor after */
  Absent,
  Created,
  Updated,
  /** its last document went */
  Deleted,
}

const NO_CHANGES: PostingColumns = { docids: new Uint32Array(0), masks: new Uint32Array(0), infos: new Uint32Array(0) };

/** The entries of `changes` with docids in [from, to), as a view. */
function slice(changes: PostingColumns, from: number, to: number): PostingColumns {
  const lo = lowerBound(changes.docids, from, 0, changes.docids.length);
  const hi = lowerBound(changes.docids, to, lo, changes.docids.length);
  return { docids: changes.docids.subarray(lo, hi), masks: changes.masks.subarray(lo, hi), infos: changes.infos.subarray(lo, hi) };
}

/**
 * Applies a batch's changes to stored postings, block by block, inside the index write
 * transaction. Buffers are reused across keys.
 */
export class PostingWriter {
  private readonly merger = new PostingMerger();
  /** the word id of the posting last updated (its stored one, or the one `update` was given) */
  id = 0;

  constructor(private readonly table: WritablePostingTable) {}

  /**
   * Merges into the posting of `key` its `removed` docids (ascending) and `upserts` (docids
   * ascending, each replacing the stored entry of the same document). A posting created by
   * this call gets the id `newId()`.
   */
  update(key: string, removed: readonly number[], upserts: PostingColumns, newId: () => number): PostingOutcome {
    const { heads } = this.table;
    const head = heads.getBinaryFast(key);
    const first = head === undefined || head.length < 8 ? 0 : postingFirstWord(head);
    if ((first & CONTINUED) !== 0) return this.updateBlocks(key, idOf(first), removed, upserts);
    const merged = this.merger.merge(head, removed, upserts);
    if (merged.count === 0) {
      if (merged.baseCount === 0) return PostingOutcome.Absent;
      heads.removeSync(key);
      return PostingOutcome.Deleted;
    }
    this.id = merged.baseCount > 0 ? merged.baseId : newId();
    if (merged.count <= BLOCK_ENTRIES) heads.putSync(key, merged.encoded(this.id));
    else this.writeSplit(key, null, keyBase(this.table, key), true);
    return merged.baseCount > 0 ? PostingOutcome.Updated : PostingOutcome.Created;
  }

  /** The general case: the posting already has continuation blocks. */
  private updateBlocks(key: string, id: number, removed: readonly number[], upserts: PostingColumns): PostingOutcome {
    const { heads, blocks } = this.table;
    this.id = id;
    const base = keyBase(this.table, key);
    // lower bounds of the blocks: the head's (0), then each continuation block's
    const bounds = [0];
    for (const stored of blocks.getKeys(blockRange(base))) {
      if (stored.length === base.length + 4) bounds.push(stored.readUInt32BE(base.length));
    }
    const removedDocids = Uint32Array.from(removed);
    let continuations = bounds.length - 1;
    let headChanged = false;
    // the head is written last: whether it still continues depends on the other blocks
    for (let b = bounds.length - 1; b >= 0; b--) {
      const from = bounds[b]!;
      const to = b + 1 < bounds.length ? bounds[b + 1]! : 0x100000000;
      const lo = lowerBound(removedDocids, from, 0, removedDocids.length);
      const gone = Array.from(removedDocids.subarray(lo, lowerBound(removedDocids, to, lo, removedDocids.length)));
      const added = slice(upserts, from, to);
      if (gone.length === 0 && added.docids.length === 0) continue;
      const storedKey = b === 0 ? null : blockKey(base, from);
      const stored = storedKey === null ? heads.getBinaryFast(key) : blocks.getBinaryFast(storedKey);
      const merged = this.merger.merge(stored, gone, added);
      if (b === 0) {
        headChanged = true;
        break;
      }
      if (merged.count === 0) {
        blocks.removeSync(storedKey!);
        continuations--;
      } else {
        continuations += this.writeSplit(key, from, base, false);
      }
    }
    if (!headChanged) {
      if (continuations > 0) return PostingOutcome.Updated;
      // every continuation block went: the head no longer continues
      this.merger.merge(heads.getBinaryFast(key), [], NO_CHANGES);
    }
    if (this.merger.count === 0 && continuations === 0) {
      heads.removeSync(key);
      return PostingOutcome.Deleted;
    }
    continuations += this.writeSplit(key, null, base, continuations > 0);
    return PostingOutcome.Updated;
  }

  /**
   * Writes the merger's posting as the block of `key` bounded by `from` (null: the head),
   * split into blocks of BLOCK_ENTRIES when it outgrew one. Returns the continuation blocks it
   * added. `continued` marks a head whose posting goes on after this block.
   */
  private writeSplit(key: string, from: number | null, base: Buffer, continued: boolean): number {
    const { heads, blocks } = this.table;
    const { count } = this.merger;
    let added = 0;
    let start = 0;
    do {
      const end = Math.min(count, start + BLOCK_ENTRIES);
      if (start === 0 && from === null) {
        const flag = continued || end < count ? CONTINUED : 0;
        heads.putSync(key, this.merger.pack((this.id | flag) >>> 0, start, end));
      } else {
        // a block's bound is its first docid: the columns, unpacked once split blocks need them
        blocks.putSync(blockKey(base, start === 0 ? from! : this.merger.columns()[2 + start]!), this.merger.pack(0, start, end));
        if (start > 0) added++;
      }
      start = end;
    } while (start < count);
    return added;
  }
}

/**
 * Splits every posting of `table` stored whole although it holds more than BLOCK_ENTRIES
 * documents, as storage format 1 stored every posting (engine/storage-upgrade.ts). Answers how
 * many it split; `checkpoint` may throw between postings to interrupt.
 */
export function splitOversizedPostings(table: WritablePostingTable, checkpoint: () => void): number {
  const oversized: string[] = [];
  for (const { key, value } of table.heads.getRange()) {
    if (value.length >= 8 && (postingFirstWord(value) & CONTINUED) === 0 && postingCount(value) > BLOCK_ENTRIES) oversized.push(key);
  }
  const writer = new PostingWriter(table);
  for (const key of oversized) {
    checkpoint();
    // no change: the writer rewrites the posting as it stores any posting of that size
    writer.update(key, [], NO_CHANGES, () => 0);
  }
  return oversized.length;
}

/**
 * Packs every value of `db` (a posting table's heads, or `posting-blocks`) still in the columns
 * layout, keeping its first u32's flags, as storage format 3 stores them (engine/storage-upgrade.ts).
 * Answers how many it packed; `checkpoint` may throw between values to interrupt.
 */
export function packColumnPostings<K extends string | Buffer>(db: Database<Buffer, K>, checkpoint: () => void): number {
  const columns: K[] = [];
  // binary keys are lmdb's reused buffer: each is copied
  for (const { key, value } of db.getRange()) if (value.length >= 8 && (postingFirstWord(value) & PACKED) === 0) columns.push((typeof key === 'string' ? key : Buffer.from(key)) as K);
  const merger = new PostingMerger();
  for (const key of columns) {
    checkpoint();
    const stored = db.getBinary(key)!;
    merger.merge(stored, [], NO_CHANGES);
    db.putSync(key, merger.pack(postingFirstWord(stored), 0, merger.count));
  }
  return columns.length;
}

