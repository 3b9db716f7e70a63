// The proximity kernel: Meilisearch's proximity cost of a batch of candidate documents in one
// call. Called through `proximityCosts` (assembly/index.ts) by src/kernels/proximity.ts, once per
// group the proximity ranking step splits (src/engine/search/ranking.ts).
//
// A document's cost is the sum, over the query's adjacent term pairs (left, right), of the best
// pair cost between an occurrence of left and one of right in the same field, 3 when there is
// none: with `end` = left's position + (left's word count - 1),
//   proximity = right >= end ? right - end : end - right + 1, cost = 0 if proximity is 0
//   (one n-gram occurrence matched by both terms), else min(proximity, 4) - 1;
// FLAG_BY_ATTRIBUTE (proximityPrecision byAttribute) prices any same-field pair at 0.
//
// Memory (host-laid, struct-of-arrays): `places` u32[nPlaces] of field << 16 | position;
// `offsets` u32[nDocs * nTerms + 1], the places of document d and term t being
// places[offsets[d * nTerms + t] .. offsets[d * nTerms + t + 1]); `pairs` PAIR_RECORD_U32 u32
// per pair (left term, right term, left word count - 1); `out` u32[nDocs] receives the costs.
// Invariants: no allocation; offsets that are not ascending or run past nPlaces, and pairs naming
// a term past nTerms, return ERR_BAD_SPAN instead of reading out of bounds.
import { ERR_BAD_SPAN } from './errors';

/** u32 fields of a pair record: left term, right term, left term's word count - 1. */
export const PAIR_RECORD_U32: u32 = 3;
/** proximityPrecision `byAttribute`: any two occurrences in one field cost 0. */
export const FLAG_BY_ATTRIBUTE: u32 = 1;
/** Cost of a pair with no occurrences in a common field (Meilisearch's maximum). */
const MAX_PAIR_COST: u32 = 3;

/** Cost of a left occurrence ending at `end` and a right one at `right` (positions). */
// @ts-ignore: decorator
@inline function pairCost(end: u32, right: u32): u32 {
  const proximity = right >= end ? right - end : end - right + 1;
  if (proximity == 0) return 0;
  return (proximity < 4 ? proximity : 4) - 1;
}

/** Best cost of one pair in one document, its places given as [from, to) index ranges. */
function bestPair(places: usize, lFrom: u32, lTo: u32, rFrom: u32, rTo: u32, leftLength: u32, byAttribute: bool): u32 {
  let best = MAX_PAIR_COST;
  for (let l = lFrom; l < lTo; l++) {
    const left = load<u32>(places + (<usize>l << 2));
    const field = left >>> 16;
    const end = (left + leftLength) & 0xffff;
    for (let r = rFrom; r < rTo; r++) {
      const right = load<u32>(places + (<usize>r << 2));
      if (right >>> 16 != field) continue;
      const cost: u32 = byAttribute ? 0 : pairCost(end, right & 0xffff);
      if (cost < best) best = cost;
      if (best == 0) return 0;
    }
  }
  return best;
}

/**
 * Writes the proximity cost of each of `nDocs` documents at `out`. Returns nDocs, or
 * ERR_BAD_SPAN when the offsets or pairs do not describe places inside the input.
 */
export function proximityCosts(
  places: usize,
  nPlaces: u32,
  offsets: usize,
  nDocs: u32,
  nTerms: u32,
  pairs: usize,
  nPairs: u32,
  flags: u32,
  out: usize,
): i32 {
  const byAttribute = (flags & FLAG_BY_ATTRIBUTE) != 0;
  for (let p: u32 = 0; p < nPairs; p++) {
    const record = pairs + (<usize>(p * PAIR_RECORD_U32) << 2);
    if (load<u32>(record) >= nTerms || load<u32>(record + 4) >= nTerms) return ERR_BAD_SPAN;
  }
  for (let d: u32 = 0; d < nDocs; d++) {
    const row = offsets + (<usize>(d * nTerms) << 2);
    let total: u32 = 0;
    for (let p: u32 = 0; p < nPairs; p++) {
      const record = pairs + (<usize>(p * PAIR_RECORD_U32) << 2);
      const a = <usize>load<u32>(record) << 2;
      const b = <usize>load<u32>(record + 4) << 2;
      const lFrom = load<u32>(row + a);
      const lTo = load<u32>(row + a + 4);
      const rFrom = load<u32>(row + b);
      const rTo = load<u32>(row + b + 4);
      if (lFrom > lTo || lTo > nPlaces || rFrom > rTo || rTo > nPlaces) return ERR_BAD_SPAN;
      total += bestPair(places, lFrom, lTo, rFrom, rTo, load<u32>(record + 8), byAttribute);
    }
    store<u32>(out + (<usize>d << 2), total);
  }
  return <i32>nDocs;
}
