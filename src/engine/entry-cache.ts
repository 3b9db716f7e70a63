/**
 * A value derived from one stored entry of an index (its settings, its document ids, ...), kept
 * per environment and derived again only when the entry's stored bytes differ from those it was
 * derived from, i.e. after a commit rewrote the entry, unless `follow` can carry the value over
 * (the caches keyed on the documents version follow a write's changes: index-changes.ts). A hit
 * costs an LMDB read into lmdb's shared buffer and a memcmp instead of a msgpack decode and a
 * copy, which searches would otherwise pay per request. The entry keyed on must change whenever
 * anything `derive` reads does (the entry itself, or a version written with it). Cached values
 * are shared between requests: callers must not mutate them.
 */
import type { ReadDb } from './index-read-env.js';
import type { IndexReadEnv } from './index-read-env.js';

interface Entry<T> {
  readonly bytes: Uint8Array | undefined;
  /** the entry's decoded contents, kept for `follow` */
  readonly stored: unknown;
  readonly value: T;
}

/**
 * Brings `value`, derived when the entry held `from` (decoded; undefined: absent), up to the
 * entry's current contents in place; false when it cannot (the value is then derived again).
 */
export type Follow<T> = (env: IndexReadEnv, value: T, from: unknown) => boolean;

export class EntryCache<T> {
  // keyed by environment object: a deleted and re-created index gets a new one
  private readonly entries = new WeakMap<IndexReadEnv, Entry<T>>();

  constructor(
    private readonly db: (env: IndexReadEnv) => ReadDb<unknown, string>,
    private readonly key: string,
    private readonly derive: (env: IndexReadEnv) => T,
    private readonly follow?: Follow<T>,
  ) {}

  get(env: IndexReadEnv): T {
    const fast = this.db(env).getBinaryFast(this.key);
    // lmdb's fast buffer reports the value's length but may span its whole shared region
    const bytes = fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length);
    const cached = this.entries.get(env);
    if (cached !== undefined && sameBytes(cached.bytes, bytes)) return cached.value;
    // copied before deriving: the derivation's reads reuse lmdb's shared buffer
    const copy = bytes?.slice();
    const stored = this.follow === undefined ? undefined : this.db(env).get(this.key);
    if (cached !== undefined && this.follow?.(env, cached.value, cached.stored) === true) {
      this.entries.set(env, { bytes: copy, stored, value: cached.value });
      return cached.value;
    }
    const entry = { bytes: copy, stored, value: this.derive(env) };
    this.entries.set(env, entry);
    return entry.value;
  }

  /**
   * Holds `value` for the entry's current contents, as if derived from them: for a caller that
   * made the entry from `value` and knows `derive` would give it back (a write's own settings),
   * where deriving it again would decode what was just encoded.
   */
  prime(env: IndexReadEnv, value: T): void {
    const fast = this.db(env).getBinaryFast(this.key);
    const bytes = fast === undefined ? undefined : new Uint8Array(fast.buffer, fast.byteOffset, fast.length).slice();
    const stored = this.follow === undefined ? undefined : this.db(env).get(this.key);
    this.entries.set(env, { bytes, stored, value });
  }
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
