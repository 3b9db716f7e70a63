/**
 * Plain TypeScript reference of the proximity kernel (assembly/proximity.ts): the same costs,
 * document by document and pair by pair over the same struct-of-arrays input. The tests compare
 * the kernel against it.
 */
import { PAIR_RECORD_U32, type ProximityBatch } from '../proximity.js';

/** Cost of a left occurrence ending at `end` and a right one at `right` (positions). */
function pairCost(end: number, right: number): number {
  const proximity = right >= end ? right - end : end - right + 1;
  return proximity === 0 ? 0 : Math.min(proximity, 4) - 1;
}

export function referenceProximityCosts(batch: ProximityBatch): Uint32Array {
  const { places, offsets, pairs, docs, terms, byAttribute } = batch;
  const out = new Uint32Array(docs);
  for (let d = 0; d < docs; d++) {
    let total = 0;
    for (let p = 0; p < pairs.length; p += PAIR_RECORD_U32) {
      const a = d * terms + pairs[p]!;
      const b = d * terms + pairs[p + 1]!;
      let best = 3;
      for (let l = offsets[a]!; l < offsets[a + 1]! && best > 0; l++) {
        const left = places[l]!;
        const end = (left + pairs[p + 2]!) & 0xffff;
        for (let r = offsets[b]!; r < offsets[b + 1]! && best > 0; r++) {
          const right = places[r]!;
          if (right >>> 16 === left >>> 16) best = Math.min(best, byAttribute ? 0 : pairCost(end, right & 0xffff));
        }
      }
      total += best;
    }
    out[d] = total;
  }
  return out;
}
