// The typo kernel: which words of an index's dictionary are within a few typos of query words.
// Called through `typoMatch` (assembly/index.ts) by src/kernels/typo.ts, once per search for all
// the query's words; the dictionary is a packed sorted word list the host keeps resident.
//
// Distance: optimal-string-alignment Damerau-Levenshtein over code points (a transposition of
// two adjacent characters costs 1), as Meilisearch's Levenshtein automata with transpositions.
// - Exact mode: distance(query, word).
// - Prefix mode (the last query word while typing): min over the word's prefixes p of
//   distance(query, p), so "batmn" reaches "batmans" with 1.
// - First-letter rule (FLAG_FIRST_CHAR): a word whose first character differs from the query's
//   costs one more typo and must fit the budget with it, so with 2 typos allowed it matches only
//   at distance 1 and reports 2, and with 1 typo allowed it never matches (Meilisearch's rule).
// Only words within `maxTypos` (after the first-letter cost) are reported, as record ranges
// [query, fromWord, toWord, distance): words sharing a decided prefix share one record.
//
// Walk: the list is sorted, so consecutive words share prefixes; the DP row of each character
// depth is kept and reused for the next word's common prefix (LCP given by the host). When a row
// proves nothing deeper can come within budget, every following word sharing that prefix is
// skipped by jumps along the host's next-smaller-LCP table: a jump lands on a strictly smaller
// LCP, so leaving a block of depth d takes at most (LCP − d + 1) jumps instead of a step per word
// (a 2-typo query visits ~2,500 of 52,000 movies words and stepped over the ~49,500 others one
// by one, most of its time). Rows are capped at maxTypos + 1 (u8 cells).
// Banded: a cell (depth, i) lies at least |depth - i| from 0, so only the 2·maxTypos + 1 cells
// around the diagonal can stay within budget; each row stores and computes that band alone
// (any other cell reads as the cap), in one SIMD pass of byte lanes (maxTypos is at most
// MAX_TYPOS = 3, so a band fits): a row costs the same whatever the query's length (the scalar
// cell-by-cell loop took 25 ns a row, most of a 2-typo query's time; the lanes take 13), and the
// scratch is O(maxTypos · length).
//
// Memory (host-laid, see src/kernels/typo.ts): offsets u32[n + 1] into `bytes`; lcp u32[n]
// (low 16 bits: common prefix with the previous word in characters, high 16: the same in bytes);
// skips u32[n] (per word j: the first j' > j whose LCP in characters is smaller than j's, n if none);
// query records of QUERY_RECORD_U32 u32 (chars pointer, char count, max typos, flags, word range
// from, to); scratch big enough for the longest query (scratchBytes in the wrapper).
// Invariants: no allocation, no traps on any input the host builds; output overflow switches to
// counting and returns ERR_OUT_OF_CAPACITY with the needed record count in RESULT_RECORDS.
import { ERR_OUT_OF_CAPACITY } from './errors';
import { RESULT_RECORDS, writeResult } from './arena';

/** u32 fields of a query record. */
export const QUERY_RECORD_U32: u32 = 6;
export const QUERY_CHARS: u32 = 0;
export const QUERY_LENGTH: u32 = 1;
export const QUERY_MAX_TYPOS: u32 = 2;
export const QUERY_FLAGS: u32 = 3;
export const QUERY_FROM: u32 = 4;
export const QUERY_TO: u32 = 5;

/** u32 fields of an output record: query index, first word, end word (exclusive), distance. */
export const MATCH_RECORD_U32: u32 = 4;

export const FLAG_PREFIX: u32 = 1;
export const FLAG_FIRST_CHAR: u32 = 2;
/** Do not report distance 0 (the host finds exact and prefix words itself). */
export const FLAG_SKIP_EXACT: u32 = 4;

// Call state (module globals: the kernel is not reentrant).
let outPtr: usize = 0;
let outCap: u32 = 0;
let count: u32 = 0;

/** Typo budgets above this are taken as it: a row's band (2·MAX_TYPOS + 1 cells and its cap
 * cells) fits the SIMD lanes of its computation. Meilisearch allows 2. */
export const MAX_TYPOS: i32 = 3;
/** Sentinel code points before the query's padded copy (its rows read q[i - 2] from i = -4). */
const QUERY_PAD: i32 = 4;
/** A padding code point: no character, nor the "no previous character" of the first rows. */
const NO_CHAR: u32 = 0xfffffffe;

// Layout of the scratch for the current query: rows of `stride` cells, the band's 2·band + 1
// between two cap cells; 16 bytes after the last row for its lane stores; the query's padded
// copy at `qpad`.
let rows: usize = 0;
let stride: u32 = 0;
let qpad: usize = 0;
// The current query's length, typo budget and cell cap.
let qLen: i32 = 0;
let band: i32 = 0;
let capCell: u32 = 0;
let chars: usize = 0;
let rowReach: usize = 0;
let best: usize = 0;

/** UTF-8 decoding of one code point of a well-formed word; sets `cpLen`. */
let cpLen: u32 = 0;
function decode(p: usize): u32 {
  const b0 = <u32>load<u8>(p);
  if (b0 < 0x80) {
    cpLen = 1;
    return b0;
  }
  if (b0 < 0xe0) {
    cpLen = 2;
    return ((b0 & 0x1f) << 6) | (<u32>load<u8>(p + 1) & 0x3f);
  }
  if (b0 < 0xf0) {
    cpLen = 3;
    return ((b0 & 0x0f) << 12) | ((<u32>load<u8>(p + 1) & 0x3f) << 6) | (<u32>load<u8>(p + 2) & 0x3f);
  }
  cpLen = 4;
  return (
    ((b0 & 0x07) << 18) |
    ((<u32>load<u8>(p + 1) & 0x3f) << 12) |
    ((<u32>load<u8>(p + 2) & 0x3f) << 6) |
    (<u32>load<u8>(p + 3) & 0x3f)
  );
}

function emit(query: u32, from: u32, to: u32, distance: u32): void {
  if (count < outCap) {
    const at = outPtr + (<usize>count) * (<usize>MATCH_RECORD_U32 << 2);
    store<u32>(at, query);
    store<u32>(at + 4, from);
    store<u32>(at + 8, to);
    store<u32>(at + 12, distance);
  }
  count++;
}

/** Start of row `depth`'s band (its cell j = i - depth + band); a cap cell lies on each side. */
// @ts-ignore: decorator
@inline function rowAt(depth: u32): usize {
  return rows + <usize>(depth * stride) + 1;
}

/** Cell (depth, i): the cap off the band (cells outside the query are stored as the cap). */
function cell(depth: u32, i: i32): u32 {
  const offset = i - <i32>depth + band;
  if (offset < 0 || offset > 2 * band) return capCell;
  return <u32>load<u8>(rowAt(depth) + <usize>offset);
}

/** A row's reach: some cell is within the budget / below it. */
const REACH_WITHIN: u32 = 1;
const REACH_BELOW: u32 = 2;

// Lane constants of the SIMD rows.
const LANES: v128 = i8x16(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
const ONE: v128 = i8x16.splat(1);
const TWO: v128 = i8x16.splat(2);
const FULL: v128 = i8x16.splat(-1);

/** i32x4 equality masks of two vectors narrowed to the low 8 byte lanes (0xff where equal). */
// @ts-ignore: decorator
@inline function eqBytes(lo: v128, hi: v128, value: v128): v128 {
  return i8x16.narrow_i16x8_s(i16x8.narrow_i32x4_s(i32x4.eq(lo, value), i32x4.eq(hi, value)), i8x16.splat(0));
}

/**
 * Computes DP row `depth` for word character `c` in SIMD, one byte lane per band cell (lane j
 * is query position i = depth - band + j); returns its reach under the budget `kEff`
 * (REACH_WITHIN: a cell within it, REACH_BELOW: a cell below it), which decides whether deeper
 * rows can still come within budget. Per lane, before the left
 * neighbour: min(up + 1, diagonal + (q[i - 1] != c), transposition + 1), with the query read
 * from its padded copy (sentinels past both ends match no character). The left neighbour's
 * chain, min over l <= j of t[l] + (j - l), takes two shifted mins, as distances from 3 on
 * reach the cap (at most 4). Lanes off the query hold the cap (i = 0: min(depth, cap)), and so
 * do the lanes past the band: they fall on the row's right cap cell and the next rows, which are
 * always computed again before they are read.
 */
function computeRow(depth: u32, c: u32, kEff: i32): u32 {
  const cur = rowAt(depth);
  const prev = cur - <usize>stride;
  const prevChar = depth >= 2 ? load<u32>(chars + (<usize>(depth - 1) << 2)) : 0xffffffff;
  const capV = i8x16.splat(<i8>capCell);
  // q[i - 1] for lanes 0..7, and q[i - 2]
  const at = qpad + (<usize>(<i32>depth - band - 1 + QUERY_PAD) << 2);
  const q1lo = v128.load(at);
  const q1hi = v128.load(at, 16);
  const q2lo = v128.load(at - 4);
  const q2hi = v128.load(at, 12);
  const cV = i32x4.splat(c);
  const matches = eqBytes(q1lo, q1hi, cV);
  const swapped = v128.and(eqBytes(q1lo, q1hi, i32x4.splat(prevChar)), eqBytes(q2lo, q2hi, cV));
  let t = i8x16.min_u(i8x16.add_sat_u(v128.load(prev + 1), ONE), i8x16.add_sat_u(v128.load(prev), v128.andnot(ONE, matches)));
  t = i8x16.min_u(t, v128.bitselect(i8x16.add_sat_u(v128.load(prev - <usize>stride), ONE), FULL, swapped));
  // lanes off the query: the cap, and min(depth, cap) where i = 0
  const base = <i32>depth - band;
  const first = i8x16.splat(<i8>max<i32>(1 - base, 0));
  const last = i8x16.splat(<i8>min<i32>(qLen - base, 2 * band));
  t = v128.bitselect(t, capV, v128.and(i8x16.ge_s(LANES, first), i8x16.le_s(LANES, last)));
  const zero = base <= 0 ? -base : 127;
  t = v128.bitselect(i8x16.splat(<i8>min<u32>(depth, capCell)), t, i8x16.eq(LANES, i8x16.splat(<i8>zero)));
  // the left neighbours: distance 1, then 2 and 3
  t = i8x16.min_u(t, i8x16.add_sat_u(i8x16.shuffle(t, FULL, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14), ONE));
  t = i8x16.min_u(t, i8x16.add_sat_u(i8x16.shuffle(t, FULL, 16, 16, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13), TWO));
  t = i8x16.min_u(t, capV);
  // lanes past the query or the band: the cap again (the chain reached them)
  t = v128.bitselect(t, capV, i8x16.le_s(LANES, last));
  v128.store(cur, t);
  // lanes past the band hold the cap, above any budget: every lane can be compared
  if (kEff < 0) return 0;
  const budget = i8x16.splat(<i8>kEff);
  return (v128.any_true(i8x16.le_u(t, budget)) ? REACH_WITHIN : 0) | (v128.any_true(i8x16.lt_u(t, budget)) ? REACH_BELOW : 0);
}

/**
 * First word index after `i` (at most `to`) that does not share the first `depth` characters of
 * word i: the words between j and skips[j] all have an LCP of at least j's, so when j's is at
 * least `depth` none of them leaves the block.
 */
function skipShared(lcp: usize, skips: usize, i: u32, to: u32, depth: u32): u32 {
  let j = i + 1;
  while (j < to && (load<u32>(lcp + (<usize>j << 2)) & 0xffff) >= depth) {
    const next = load<u32>(skips + (<usize>j << 2));
    // a table that does not move forward steps one word: never a loop
    j = next > j ? next : j + 1;
  }
  return j < to ? j : to;
}

function matchQuery(index: u32, record: usize, offsets: usize, lcp: usize, skips: usize, bytes: usize, scratch: usize): void {
  const query = <usize>load<u32>(record + (<usize>QUERY_CHARS << 2));
  const m = load<u32>(record + (<usize>QUERY_LENGTH << 2));
  const k = <i32>min<u32>(load<u32>(record + (<usize>QUERY_MAX_TYPOS << 2)), <u32>MAX_TYPOS);
  const flags = load<u32>(record + (<usize>QUERY_FLAGS << 2));
  const from = load<u32>(record + (<usize>QUERY_FROM << 2));
  const to = load<u32>(record + (<usize>QUERY_TO << 2));
  if (m == 0 || from >= to) return;
  const prefix = (flags & FLAG_PREFIX) != 0;
  const firstRule = (flags & FLAG_FIRST_CHAR) != 0;
  const skipExact = (flags & FLAG_SKIP_EXACT) != 0;
  const maxDepth = m + <u32>k;
  const cap = <u32>k + 1;

  qLen = <i32>m;
  band = k;
  capCell = cap;
  stride = 2 * <u32>k + 3;
  rows = scratch;
  chars = (rows + <usize>((maxDepth + 1) * stride) + 16 + 3) & ~(<usize>3);
  rowReach = chars + (<usize>(maxDepth + 2) << 2);
  best = rowReach + <usize>(maxDepth + 1);
  qpad = (best + <usize>(maxDepth + 1) + 15) & ~(<usize>15);
  for (let at: i32 = 0; at < QUERY_PAD; at++) store<u32>(qpad + (<usize>at << 2), NO_CHAR);
  memory.copy(qpad + (<usize>QUERY_PAD << 2), query, <usize>m << 2);
  for (let at: i32 = 0; at < 8; at++) store<u32>(qpad + (<usize>(QUERY_PAD + <i32>m + at) << 2), NO_CHAR);
  for (let depth: u32 = 0; depth <= maxDepth; depth++) {
    store<u8>(rowAt(depth) - 1, <u8>cap);
    store<u8>(rowAt(depth) + <usize>(2 * k + 1), <u8>cap);
  }
  for (let j: i32 = 0; j <= 2 * k; j++) {
    const i = j - k;
    store<u8>(rowAt(0) + <usize>j, <u8>(i < 0 || i > <i32>m ? cap : <u32>i < cap ? <u32>i : cap));
  }
  store<u8>(best, <u8>(m < cap ? m : cap));
  const q0 = load<u32>(query);

  let i = from;
  while (i < to) {
    let depth: u32 = 0;
    let p = <usize>load<u32>(offsets + (<usize>i << 2));
    if (i != from) {
      const shared = load<u32>(lcp + (<usize>i << 2));
      depth = shared & 0xffff;
      p += <usize>(shared >>> 16);
    }
    const end = <usize>load<u32>(offsets + (<usize>(i + 1) << 2));
    let dead = false;
    while (depth < maxDepth && p < end) {
      const c = decode(bytes + p);
      p += cpLen;
      depth++;
      store<u32>(chars + (<usize>depth << 2), c);
      const kEff = firstRule && load<u32>(chars + 4) != q0 ? k - 1 : k;
      const reach = computeRow(depth, c, kEff);
      store<u8>(rowReach + depth, <u8>reach);
      const last = cell(depth, <i32>m);
      const before = <u32>load<u8>(best + depth - 1);
      store<u8>(best + depth, <u8>(last < before ? last : before));
      // row 0's minimum is 0; a deeper row's reach was worked out under this word's kEff
      const below = depth == 1 ? kEff > 0 : (load<u8>(rowReach + depth - 1) & REACH_BELOW) != 0;
      if ((reach & REACH_WITHIN) == 0 && !below) {
        dead = true;
        break;
      }
    }
    const penalty: i32 = depth >= 1 && firstRule && load<u32>(chars + 4) != q0 ? 1 : 0;
    const kEff = k - penalty;
    if (dead || depth == maxDepth && p < end) {
      // Every following word sharing these `depth` characters has the same outcome.
      const next = skipShared(lcp, skips, i, to, depth);
      if (prefix) {
        const d = <i32>load<u8>(best + depth);
        if (d <= kEff && !(skipExact && d + penalty == 0)) emit(index, i, next, <u32>(d + penalty));
      }
      i = next;
    } else {
      const d = prefix ? <i32>load<u8>(best + depth) : <i32>cell(depth, <i32>m);
      if (d <= kEff && !(skipExact && d + penalty == 0)) emit(index, i, i + 1, <u32>(d + penalty));
      i++;
    }
  }
}

/**
 * Matches every query record against the word list. Returns the number of match records written
 * at `out`, or ERR_OUT_OF_CAPACITY (RESULT_RECORDS holds the count needed).
 */
export function typoMatch(
  offsets: usize,
  lcp: usize,
  skips: usize,
  bytes: usize,
  queries: usize,
  nQueries: u32,
  scratch: usize,
  out: usize,
  cap: u32,
): i32 {
  outPtr = out;
  outCap = cap;
  count = 0;
  for (let q: u32 = 0; q < nQueries; q++) {
    matchQuery(q, queries + (<usize>(q * QUERY_RECORD_U32) << 2), offsets, lcp, skips, bytes, scratch);
  }
  writeResult(RESULT_RECORDS, count);
  return count > cap ? ERR_OUT_OF_CAPACITY : <i32>count;
}
