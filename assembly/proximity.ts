// The proximity kernel: Meilisearch's proximity cost of a batch of candidate documents in one
// call. Called through `proximityCosts` (assembly/index.ts) by src/kernels/record-arena.ts over the
// lists the gather kernel left in the same memory, or by src/kernels/proximity.ts over a batch
// copied in, once per group the proximity ranking step splits (src/engine/search/ranking.ts).
//
// Each document has `nLists` place lists (src/engine/search/proximity-terms.ts lays out several
// per query term: its single words, the first and last words of its phrase-like derivations, its
// common-prefix words). A pair record prices one (left list, right list) combination: the best
// cost between an occurrence in the left list and one in the right list in the same field,
//   proximity = right >= left ? right - left : left - right + 1, cost = 0 if proximity is 0
//   (one n-gram occurrence matched by both terms), else min(proximity, 4) - 1;
// with PAIR_FORWARD_ONLY only right > left counts (phrase-like terms, common prefixes); 3 when no
// occurrences share a field; plus the record's cost offset (n − 1 when the right term is an
// n-gram of n words: every cost on that edge rises). A query term pair is a run of records, each
// after the first flagged PAIR_JOIN: its cost is the best of its records. A document's cost is the
// sum over the runs.
// FLAG_BY_ATTRIBUTE (proximityPrecision byAttribute) prices any same-field pair at 0.
//
// Memory (host-laid, struct-of-arrays): `places` u32[nPlaces] of field << 16 | position;
// `offsets` u32[nDocs * nLists + 1], the places of document d and list l being
// places[offsets[d * nLists + l] .. offsets[d * nLists + l + 1]); `pairs` PAIR_RECORD_U32 u32
// per record (left list, right list, flags, cost offset); `out` u32[nDocs] receives the costs.
// Invariants: no allocation; offsets that are not ascending or run past nPlaces, and records naming
// a list past nLists, return ERR_BAD_SPAN instead of reading out of bounds.
import { ERR_BAD_SPAN } from './errors';

/** u32 fields of a pair record: left list, right list, flags (PAIR_FORWARD_ONLY, PAIR_JOIN), cost offset. */
export const PAIR_RECORD_U32: u32 = 4;
/** proximityPrecision `byAttribute`: any two occurrences in one field cost 0. */
export const FLAG_BY_ATTRIBUTE: u32 = 1;
/** Record flag: only right occurrences after the left one count (no reversed order). */
export const PAIR_FORWARD_ONLY: u32 = 1;
/** Record flag: the record prices the same query term pair as the record before it. */
export const PAIR_JOIN: u32 = 2;
/** Cost of a pair with no occurrences in a common field (Meilisearch's maximum). */
const MAX_PAIR_COST: u32 = 3;

/** Cost of a left occurrence at `left` and a right one at `right` (positions). */
// @ts-ignore: decorator
@inline function pairCost(left: u32, right: u32, forwardOnly: bool): u32 {
  if (forwardOnly && right <= left) return MAX_PAIR_COST;
  const proximity = right >= left ? right - left : left - right + 1;
  if (proximity == 0) return 0;
  return (proximity < 4 ? proximity : 4) - 1;
}

/** Best cost of one record in one document, its places given as [from, to) index ranges. */
function bestPair(places: usize, lFrom: u32, lTo: u32, rFrom: u32, rTo: u32, forwardOnly: bool, byAttribute: bool): u32 {
  let best = MAX_PAIR_COST;
  for (let l = lFrom; l < lTo; l++) {
    const left = load<u32>(places + (<usize>l << 2));
    const field = left >>> 16;
    const position = left & 0xffff;
    for (let r = rFrom; r < rTo; r++) {
      const right = load<u32>(places + (<usize>r << 2));
      if (right >>> 16 != field) continue;
      const cost: u32 = byAttribute ? 0 : pairCost(position, right & 0xffff, forwardOnly);
      if (cost < best) best = cost;
      if (best == 0) return 0;
    }
  }
  return best;
}

/**
 * Writes the proximity cost of each of `nDocs` documents at `out`. Returns nDocs, or
 * ERR_BAD_SPAN when the offsets or records do not describe places inside the input.
 */
export function proximityCosts(
  places: usize,
  nPlaces: u32,
  offsets: usize,
  nDocs: u32,
  nLists: u32,
  pairs: usize,
  nPairs: u32,
  flags: u32,
  out: usize,
): i32 {
  const byAttribute = (flags & FLAG_BY_ATTRIBUTE) != 0;
  for (let p: u32 = 0; p < nPairs; p++) {
    const record = pairs + (<usize>(p * PAIR_RECORD_U32) << 2);
    if (load<u32>(record) >= nLists || load<u32>(record + 4) >= nLists) return ERR_BAD_SPAN;
  }
  for (let d: u32 = 0; d < nDocs; d++) {
    const row = offsets + (<usize>(d * nLists) << 2);
    let total: u32 = 0;
    let run: u32 = U32.MAX_VALUE;
    for (let p: u32 = 0; p < nPairs; p++) {
      const record = pairs + (<usize>(p * PAIR_RECORD_U32) << 2);
      const recordFlags = load<u32>(record + 8);
      if (p > 0 && (recordFlags & PAIR_JOIN) == 0) {
        total += run;
        run = U32.MAX_VALUE;
      }
      const offset = load<u32>(record + 12);
      if (run <= offset) continue;
      const a = <usize>load<u32>(record) << 2;
      const b = <usize>load<u32>(record + 4) << 2;
      const lFrom = load<u32>(row + a);
      const lTo = load<u32>(row + a + 4);
      const rFrom = load<u32>(row + b);
      const rTo = load<u32>(row + b + 4);
      if (lFrom > lTo || lTo > nPlaces || rFrom > rTo || rTo > nPlaces) return ERR_BAD_SPAN;
      const cost = bestPair(places, lFrom, lTo, rFrom, rTo, (recordFlags & PAIR_FORWARD_ONLY) != 0, byAttribute) + offset;
      if (cost < run) run = cost;
    }
    if (nPairs > 0) total += run;
    store<u32>(out + (<usize>d << 2), total);
  }
  return <i32>nDocs;
}
