/**
 * Plain TypeScript reference of the proximity kernel (assembly/proximity.ts): the same costs,
 * document by document and record by record over the same struct-of-arrays input. The tests
 * compare the kernel against it.
 */
import { PAIR_FORWARD_ONLY, PAIR_JOIN, PAIR_RECORD_U32, type ProximityBatch } from '../proximity.js';

/** Cost of a left occurrence at `left` and a right one at `right` (positions). */
function pairCost(left: number, right: number, forwardOnly: boolean): number {
  if (forwardOnly && right <= left) return 3;
  const proximity = right >= left ? right - left : left - right + 1;
  return proximity === 0 ? 0 : Math.min(proximity, 4) - 1;
}

export function referenceProximityCosts(batch: ProximityBatch): Uint32Array {
  const { places, offsets, pairs, docs, lists, byAttribute } = batch;
  const out = new Uint32Array(docs);
  for (let d = 0; d < docs; d++) {
    // the best cost of each term pair (a record and the PAIR_JOIN records after it)
    const runs: number[] = [];
    for (let p = 0; p < pairs.length; p += PAIR_RECORD_U32) {
      const a = d * lists + pairs[p]!;
      const b = d * lists + pairs[p + 1]!;
      const flags = pairs[p + 2]!;
      const offset = pairs[p + 3]!;
      if (runs.length === 0 || (flags & PAIR_JOIN) === 0) runs.push(Infinity);
      // a record without occurrences in a common field costs 3, plus its offset like any other
      let best = 3;
      for (let l = offsets[a]!; l < offsets[a + 1]!; l++) {
        const left = places[l]!;
        for (let r = offsets[b]!; r < offsets[b + 1]!; r++) {
          const right = places[r]!;
          if (right >>> 16 === left >>> 16) best = Math.min(best, byAttribute ? 0 : pairCost(left & 0xffff, right & 0xffff, (flags & PAIR_FORWARD_ONLY) !== 0));
        }
      }
      runs[runs.length - 1] = Math.min(runs[runs.length - 1]!, best + offset);
    }
    out[d] = runs.reduce((sum, cost) => sum + cost, 0);
  }
  return out;
}
