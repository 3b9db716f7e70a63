// Micro-benchmark of the set-operations kernel: the release WASM kernel (copies in and out
// included) against the TS reference, on seeded random docid lists at several sizes and size
// ratios. Dense lists draw from 36k docids (the movies index), spread ones from the whole u32
// range. The cut-offs src/engine/docset.ts applies come from runs like these.
import { bench, describe } from 'vitest';

import { getKernels } from '../../src/kernels/module.js';
import {
  fallbackDifference,
  fallbackIntersect,
  fallbackIntersectCount,
  fallbackUnionAll,
} from '../../src/kernels/setops-fallback.js';
import { SetOpsKernel } from '../../src/kernels/setops.js';

const kernel = new SetOpsKernel(getKernels('release'));
const DENSE = 36_000;
const SPREAD = 0xffffffff;

let state = 0x5eed;
/** A seeded strictly increasing list of `n` values below `universe` (mulberry32). */
function randomSet(n: number, universe: number): Uint32Array {
  const values = new Set<number>();
  while (values.size < n) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    values.add(Math.floor((((t ^ (t >>> 14)) >>> 0) / 2 ** 32) * universe));
  }
  return Uint32Array.from([...values].sort((x, y) => x - y));
}

const PAIRS: [number, number][] = [
  [64, 64],
  [256, 256],
  [4096, 4096],
  [32_000, 32_000],
  [2048, 32_000],
  [256, 32_000],
];

for (const [n, m] of PAIRS) {
  const a = randomSet(n, DENSE);
  const b = randomSet(m, DENSE);
  describe(`${n} and ${m} docids`, () => {
    bench('intersect: wasm (release)', () => void kernel.intersect(a, b));
    bench('intersect: reference (TS)', () => void fallbackIntersect(a, b));
    bench('intersection size: wasm (release)', () => void kernel.intersectCount(a, b));
    bench('intersection size: reference (TS)', () => void fallbackIntersectCount(a, b));
    bench('difference, long minus short: wasm (release)', () => void kernel.difference(b, a));
    bench('difference, long minus short: reference (TS)', () => void fallbackDifference(b, a));
  });
}

const UNIONS: [number, number, number][] = [
  [2, 512, DENSE],
  [2, 16_000, DENSE],
  [8, 128, DENSE],
  [64, 64, DENSE],
  [16, 2048, DENSE],
  [8, 128, SPREAD],
  [16, 2048, SPREAD],
];

for (const [k, size, universe] of UNIONS) {
  const sets = Array.from({ length: k }, () => randomSet(size, universe));
  describe(`union of ${k} × ${size} docids, ${universe === DENSE ? 'dense' : 'spread'}`, () => {
    bench('wasm (release), one call', () => void kernel.unionAll(sets));
    bench('reference (TS)', () => void fallbackUnionAll(sets));
  });
}
