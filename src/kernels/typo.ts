/**
 * Typed wrapper of the typo kernel (assembly/typo.ts): which words of an index's dictionary lie
 * within a typo budget of each query word, in ONE WASM call per search (all query words as a
 * batch). Callers: the search engine's query-term derivation (src/engine/search).
 *
 * A `TypoMatcher` owns a dedicated kernels instance whose linear memory keeps the packed word
 * list resident between calls (written once when the matcher is built, i.e. once per index
 * version); every call lays its queries, scratch and output above it. The matcher of an index's
 * next version takes the instance over (`succeededBy`), and a new index's first matcher takes
 * one made ahead, so no search instantiates the kernels. The word list must be
 * sorted in code-point order (UTF-8 byte order, LMDB's key order), without duplicates.
 *
 * Results are range records [query, fromWord, toWord (exclusive), distance] in word order; words
 * of one range share a decided prefix (prefix mode) and so one distance. A matcher keeps the
 * records of the queries it matched lately (RECENT_RECORDS at most) and answers them again without
 * a scan: search-as-you-type sends a query's earlier words again with every keystroke.
 * reference/typo.ts computes the same matches word by word (the tests' oracle).
 */
import { RESULT_RECORDS } from './arena.js';
import { encodeWords } from './utf8.js';
import { compileKernelModule, defaultKernelVariant, instantiateKernels, KernelStatus, type Kernels } from './module.js';

/** u32 fields of a query record (assembly QUERY_*). */
export const QUERY_RECORD_U32 = 6;
/** u32 fields of a match record: query index, first word, end word, distance. */
export const MATCH_RECORD_U32 = 4;

export const TypoFlag = {
  /** match prefixes of words (the word being typed) */
  Prefix: 1,
  /** a different first letter costs one more typo (Meilisearch's rule) */
  FirstChar: 2,
  /** leave out distance-0 matches */
  SkipExact: 4,
} as const;

/** The kernel's view of a sorted dictionary. */
export interface PackedWordList {
  readonly count: number;
  /** count + 1 byte offsets into `bytes` */
  readonly offsets: Uint32Array;
  /** per word: common prefix with the previous word, chars (low 16 bits) and bytes (high 16) */
  readonly lcp: Uint32Array;
  /** per word j: the first word after j whose common prefix in chars is shorter than j's (count if
   * none), along which the kernel leaves a block of words sharing a prefix in a few jumps */
  readonly skips: Uint32Array;
  readonly bytes: Uint8Array;
  /** characters of the longest word (at least: a repacked list keeps its old list's, repackWordList) */
  readonly longest: number;
}

/** Match records a matcher keeps by default of the queries it matched lately (16 bytes each). */
const RECENT_RECORDS = 1 << 14;

/** The key of a query among a matcher's recent ones: everything its matches depend on. */
function recentKey(query: TypoQuery, count: number): string {
  return `${query.maxTypos}:${query.flags}:${query.from ?? 0}:${Math.min(query.to ?? count, count)}:${query.word}`;
}

/** The largest typo budget the kernel computes (assembly MAX_TYPOS: a row's band fits its SIMD
 * lanes); Meilisearch allows 2. */
export const MAX_TYPOS = 3;

export interface TypoQuery {
  /** the normalised query word */
  readonly word: string;
  /** at most MAX_TYPOS */
  readonly maxTypos: number;
  readonly flags: number;
  /** word index range to scan (default: the whole list) */
  readonly from?: number;
  readonly to?: number;
}

export interface TypoMatches {
  readonly count: number;
  /** count × MATCH_RECORD_U32 */
  readonly records: Uint32Array;
}

interface TypoExports {
  typoMatch(
    offsets: number,
    lcp: number,
    skips: number,
    bytes: number,
    queries: number,
    nQueries: number,
    scratch: number,
    out: number,
    cap: number,
  ): number;
}

const encoder = new TextEncoder();

/** Code points of a string. */
export function codePoints(word: string): number[] {
  const out: number[] = [];
  for (const ch of word) out.push(ch.codePointAt(0)!);
  return out;
}

/**
 * Packs sorted distinct words for the kernel (LCPs counted in characters and in bytes). The words
 * are encoded straight into one buffer: a TextEncoder array per word was most of the packing, and
 * the packing most of an index's first search after a start (52,000 movies words: ~100 ms).
 */
export function packWordList(words: readonly string[]): PackedWordList {
  const { bytes, starts: offsets } = encodeWords(words, words.length);
  const lcp = new Uint32Array(words.length);
  let longest = 0;
  for (let i = 0; i < words.length; i++) {
    longest = Math.max(longest, characters(bytes, offsets[i]!, offsets[i + 1]!));
    if (i > 0) lcp[i] = commonPrefix(bytes, bytes, offsets[i - 1]!, offsets[i]!, offsets[i]!, offsets[i + 1]!);
  }
  return { count: words.length, offsets, lcp, skips: nextSmaller(lcp), bytes, longest };
}

/** Where a word of a repacked list comes from: a run of the old list's words [from, to), or itself. */
export type WordSource = { readonly from: number; readonly to: number } | string;

/**
 * A packing of the words `sources` name in order (sorted, as for packWordList) made from `packed`,
 * the old list's: the bytes of each run of old words are copied and their common prefixes kept,
 * only the words of their own are encoded, so a dictionary following a write costs copies rather
 * than the encoding of every word again. Equal to packWordList of those words, but for `longest`,
 * which stays the old list's when that is greater (an upper bound is all the kernel's shortcut needs).
 */
export function repackWordList(packed: PackedWordList, sources: readonly WordSource[]): PackedWordList {
  const old = packed.offsets;
  let n = 0;
  let total = 0;
  const encoded = sources.map((source) => {
    if (typeof source !== 'string') {
      n += source.to - source.from;
      total += old[source.to]! - old[source.from]!;
      return null;
    }
    const bytes = encoder.encode(source);
    n++;
    total += bytes.length;
    return bytes;
  });
  const bytes = new Uint8Array(total);
  const offsets = new Uint32Array(n + 1);
  const lcp = new Uint32Array(n);
  let at = 0;
  let k = 0;
  let longest = packed.longest;
  let previous: Uint8Array | null = null;
  sources.forEach((source, s) => {
    const own = encoded[s];
    if (own !== null && own !== undefined) {
      bytes.set(own, at);
      offsets[k] = at;
      at += own.length;
      longest = Math.max(longest, characters(own));
      if (previous !== null) lcp[k] = commonPrefix(previous, own);
      previous = own;
      k++;
      return;
    }
    const { from, to } = source as { from: number; to: number };
    if (to <= from) return;
    // a run of words adjacent before: their bytes in one copy, their common prefixes as they were
    bytes.set(packed.bytes.subarray(old[from]!, old[to]!), at);
    const shift = at - old[from]!;
    for (let i = from; i < to; i++) offsets[k + i - from] = old[i]! + shift;
    lcp.set(packed.lcp.subarray(from + 1, to), k + 1);
    if (previous !== null) lcp[k] = commonPrefix(previous, packed.bytes.subarray(old[from]!, old[from + 1]!));
    previous = packed.bytes.subarray(old[to - 1]!, old[to]!);
    at += old[to]! - old[from]!;
    k += to - from;
  });
  offsets[n] = at;
  return { count: n, offsets, lcp, skips: nextSmaller(lcp), bytes, longest };
}

/** Per word j: the first j' > j whose LCP in characters is below j's (the list's length if none). */
function nextSmaller(lcp: Uint32Array): Uint32Array {
  const n = lcp.length;
  const skips = new Uint32Array(n);
  // indices after j whose LCPs strictly increase from the bottom: the candidates for a later j
  const stack = new Uint32Array(n);
  let top = 0;
  for (let j = n - 1; j >= 0; j--) {
    const chars = lcp[j]! & 0xffff;
    while (top > 0 && (lcp[stack[top - 1]!]! & 0xffff) >= chars) top--;
    skips[j] = top === 0 ? n : stack[top - 1]!;
    stack[top++] = j;
  }
  return skips;
}

/** Characters of the UTF-8 word `bytes[from, to)` (its bytes that start one). */
function characters(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let count = 0;
  for (let i = from; i < to; i++) if ((bytes[i]! & 0xc0) !== 0x80) count++;
  return count;
}

/**
 * Common prefix of two UTF-8 words, `a[aFrom, aTo)` and `b[bFrom, bTo)` (whole arrays by
 * default): chars | bytes << 16, cut at a character boundary.
 */
function commonPrefix(a: Uint8Array, b: Uint8Array, aFrom = 0, aTo = a.length, bFrom = 0, bTo = b.length): number {
  const n = Math.min(aTo - aFrom, bTo - bFrom, 0xffff);
  let bytes = 0;
  while (bytes < n && a[aFrom + bytes] === b[bFrom + bytes]) bytes++;
  // back off to the start of the character the first difference is in
  while (bytes > 0 && bytes < n && (b[bFrom + bytes]! & 0xc0) === 0x80) bytes--;
  return characters(b, bFrom, bFrom + bytes) | (bytes << 16);
}

/** Scratch bytes the kernel needs for a query of `m` characters and `k` typos: banded rows (a
 * cap cell on each side) and 16 bytes for the last row's lane stores, the characters of a word,
 * two bytes per depth, and the query's padded copy (4 code points before, 8 after): linear. */
function scratchBytes(m: number, k: number): number {
  const depth = m + k;
  return (depth + 1) * (2 * k + 3) + 16 + 4 + (depth + 2) * 4 + 2 * (depth + 1) + 16 + (m + 12) * 4 + 16;
}

/** An instance made ahead for the next matcher that needs one, and whether one is being made. */
let spare: Kernels | null = null;
let refilling = false;

/**
 * A kernels instance of its own for a new matcher: the one made ahead if there is one, and the
 * next is made once the current task is done (a timer, in Node and in browsers). Instantiating
 * costs most of a millisecond, which the first search of a new index then no longer pays.
 */
function freshKernels(): Kernels {
  const variant = defaultKernelVariant();
  const taken = spare?.variant === variant ? spare : instantiateKernels(compileKernelModule(variant), variant);
  spare = null;
  if (!refilling) {
    refilling = true;
    setTimeout(() => {
      refilling = false;
      spare ??= instantiateKernels(compileKernelModule(variant), variant);
    }, 0);
  }
  return taken;
}

/**
 * Runs typo queries against one resident word list. Not thread-safe across calls (one call owns
 * the instance until it returns); results are copies.
 */
export class TypoMatcher {
  readonly list: PackedWordList;
  readonly #kernels: Kernels;
  readonly #offsets: number;
  readonly #lcp: number;
  readonly #skips: number;
  readonly #bytes: number;
  readonly #top: number;
  /** output records the last calls needed: a batch rarely runs out twice */
  #capacity = 256;
  /** each recent query's records (query index 0), oldest first */
  readonly #recent = new Map<string, Uint32Array>();
  /** match records held in #recent */
  #heldRecords = 0;

  /** `recentRecords`: the match records it keeps of the queries it matched lately. */
  constructor(
    list: PackedWordList,
    kernels?: Kernels,
    private readonly recentRecords = RECENT_RECORDS,
  ) {
    this.list = list;
    this.#kernels = kernels ?? freshKernels();
    const { arena } = this.#kernels;
    arena.reset();
    this.#offsets = arena.alloc(list.offsets.byteLength);
    this.#lcp = arena.alloc(list.lcp.byteLength);
    this.#skips = arena.alloc(list.skips.byteLength);
    this.#bytes = arena.alloc(list.bytes.byteLength);
    this.#top = arena.top;
    arena.u32.set(list.offsets, this.#offsets >>> 2);
    arena.u32.set(list.lcp, this.#lcp >>> 2);
    arena.u32.set(list.skips, this.#skips >>> 2);
    arena.u8.set(list.bytes, this.#bytes);
  }

  /**
   * A matcher of `list` on this matcher's kernels instance, which this one then no longer owns:
   * instantiating the kernels costs most of a millisecond, which the first search after every
   * change of an index's words used to pay.
   */
  succeededBy(list: PackedWordList): TypoMatcher {
    return new TypoMatcher(list, this.#kernels, this.recentRecords);
  }

  /** Matches every query: those matched lately from their kept records, the others in one kernel call. */
  match(queries: readonly TypoQuery[]): TypoMatches {
    const keys = queries.map((query) => recentKey(query, this.list.count));
    const parts = keys.map((key) => this.#recent.get(key));
    const missing = queries.flatMap((_, i) => (parts[i] === undefined ? [i] : []));
    if (missing.length > 0) {
      const scanned = this.#scan(missing.map((i) => queries[i]!));
      missing.forEach((i, m) => this.#remember(keys[i]!, (parts[i] = recordsOf(scanned, m))));
    }
    const records = new Uint32Array(parts.reduce((sum, part) => sum + part!.length, 0));
    let at = 0;
    (parts as Uint32Array[]).forEach((part, i) => {
      records.set(part, at);
      for (let r = at; r < at + part.length; r += MATCH_RECORD_U32) records[r] = i;
      at += part.length;
    });
    return { count: records.length / MATCH_RECORD_U32, records };
  }

  /** Keeps `records` as the recent matches of `key`, dropping the oldest kept past `recentRecords`. */
  #remember(key: string, records: Uint32Array): void {
    // a query word asked twice in one search is matched twice
    this.#heldRecords -= (this.#recent.get(key)?.length ?? 0) / MATCH_RECORD_U32;
    this.#recent.set(key, records);
    this.#heldRecords += records.length / MATCH_RECORD_U32;
    // the oldest first, this one too when it alone holds more than the bound
    for (const [oldest, kept] of this.#recent) {
      if (this.#heldRecords <= this.recentRecords) break;
      this.#recent.delete(oldest);
      this.#heldRecords -= kept.length / MATCH_RECORD_U32;
    }
  }

  /** Matches every query in one kernel call. */
  #scan(queries: readonly TypoQuery[]): TypoMatches {
    const { arena, exports } = this.#kernels;
    const typo = exports as unknown as TypoExports;
    const over = queries.find((q) => q.maxTypos > MAX_TYPOS);
    if (over !== undefined) throw new RangeError(`a typo budget of ${over.maxTypos} is above the kernel's ${MAX_TYPOS}`);
    arena.rewind(this.#top);
    // a query longer than the longest word by more than its typos matches nothing: it takes no scan
    const points = queries.map((q) => {
      const cps = codePoints(q.word);
      return cps.length - this.list.longest > q.maxTypos ? [] : cps;
    });
    const table = arena.alloc(queries.length * QUERY_RECORD_U32 * 4);
    const charPtrs = points.map((cps) => arena.alloc(Math.max(cps.length, 1) * 4));
    let scratchSize = 0;
    queries.forEach((q, i) => (scratchSize = Math.max(scratchSize, scratchBytes(points[i]!.length, q.maxTypos))));
    const scratch = arena.alloc(scratchSize);
    const outputs = arena.top;
    let cap = Math.max(this.#capacity, 16 * queries.length);
    for (let attempt = 0; attempt < 2; attempt++) {
      arena.rewind(outputs);
      const out = arena.alloc(cap * MATCH_RECORD_U32 * 4);
      const u32 = arena.u32;
      queries.forEach((q, i) => {
        const cps = points[i]!;
        u32.set(cps, charPtrs[i]! >>> 2);
        const base = (table >>> 2) + i * QUERY_RECORD_U32;
        u32[base] = charPtrs[i]!;
        u32[base + 1] = cps.length;
        u32[base + 2] = q.maxTypos;
        u32[base + 3] = q.flags;
        u32[base + 4] = q.from ?? 0;
        u32[base + 5] = Math.min(q.to ?? this.list.count, this.list.count);
      });
      const status = typo.typoMatch(this.#offsets, this.#lcp, this.#skips, this.#bytes, table, queries.length, scratch, out, cap);
      if (status >= 0) {
        return { count: status, records: arena.u32.slice(out >>> 2, (out >>> 2) + status * MATCH_RECORD_U32) };
      }
      if (status !== KernelStatus.OutOfCapacity) throw new Error(`typo kernel returned unknown status ${status}`);
      cap = arena.result(RESULT_RECORDS);
      this.#capacity = cap;
    }
    throw new Error('typo kernel ran out of capacity after its output was grown to the reported size');
  }
}

/** The records of query `query` in `matches`, in their order, with query index 0. */
function recordsOf(matches: TypoMatches, query: number): Uint32Array {
  const out: number[] = [];
  for (let r = 0; r < matches.count * MATCH_RECORD_U32; r += MATCH_RECORD_U32) {
    if (matches.records[r] === query) out.push(0, matches.records[r + 1]!, matches.records[r + 2]!, matches.records[r + 3]!);
  }
  return Uint32Array.from(out);
}

/** Expands range records into one [query, word, distance] triple per word (tests, debugging). */
export function expandMatches(matches: TypoMatches): [number, number, number][] {
  const out: [number, number, number][] = [];
  for (let r = 0; r < matches.count; r++) {
    const at = r * MATCH_RECORD_U32;
    for (let w = matches.records[at + 1]!; w < matches.records[at + 2]!; w++) {
      out.push([matches.records[at]!, w, matches.records[at + 3]!]);
    }
  }
  return out;
}
