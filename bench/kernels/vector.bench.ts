// Micro-benchmark of the vector distance kernel: 384-d distances from one query to a block of
// 10k resident vectors (the release WASM kernel through VectorBlock, query copy and distance copy
// out included) against a plain JS loop over Float32Arrays, per metric, plus the gather path an
// HNSW step takes (32 neighbour slots). Vectors per second = 10,000 × the reported hz.
import { bench, describe } from 'vitest';

import { VectorBlock, type VectorMetric } from '../../src/kernels/vector.js';

const DIMS = 384;
const COUNT = 10_000;

let state = 0x5eed;
function random(): number {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = Math.imul(state ^ (state >>> 15), state | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
}

const vectors = Array.from({ length: COUNT }, () => Float32Array.from({ length: DIMS }, () => random() * 2 - 1));
const query = Float32Array.from({ length: DIMS }, () => random() * 2 - 1);
const out = new Float32Array(COUNT);
const neighbours = Uint32Array.from({ length: 32 }, () => Math.floor(random() * COUNT));

const norms = vectors.map((v) => Math.sqrt(v.reduce((sum, x) => sum + x * x, 0)));

/** The plain JS loop a kernel-less implementation would run: cosine with norms stored at insertion. */
function jsCosineAll(): void {
  let qq = 0;
  for (let i = 0; i < DIMS; i++) qq += query[i]! * query[i]!;
  const qn = Math.sqrt(qq);
  for (let s = 0; s < COUNT; s++) {
    const v = vectors[s]!;
    let dot = 0;
    for (let i = 0; i < DIMS; i++) dot += query[i]! * v[i]!;
    out[s] = (1 - dot / (qn * norms[s]!)) / 2;
  }
}

function jsL2All(): void {
  for (let s = 0; s < COUNT; s++) {
    const v = vectors[s]!;
    let sum = 0;
    for (let i = 0; i < DIMS; i++) {
      const d = query[i]! - v[i]!;
      sum += d * d;
    }
    out[s] = sum;
  }
}

const blocks = new Map<VectorMetric, VectorBlock>();
for (const metric of ['cosine', 'dot', 'l2', 'hamming'] as const) {
  const block = new VectorBlock({ dimensions: DIMS, metric, initialCapacity: COUNT, variant: 'release' });
  for (const v of vectors) block.add(v);
  blocks.set(metric, block);
}

describe(`${COUNT} × ${DIMS}-d distances from one query`, () => {
  bench('cosine: wasm (release)', () => void blocks.get('cosine')!.distancesAll(query, out));
  bench('cosine: plain JS loop', jsCosineAll);
  bench('dot: wasm (release)', () => void blocks.get('dot')!.distancesAll(query, out));
  bench('l2: wasm (release)', () => void blocks.get('l2')!.distancesAll(query, out));
  bench('l2: plain JS loop', jsL2All);
  bench('hamming (binary quantized): wasm (release)', () => void blocks.get('hamming')!.distancesAll(query, out));
  bench('cosine exact top-10: wasm (release)', () => void blocks.get('cosine')!.topK(query, 10));
});

describe(`gather: ${DIMS}-d distances to 32 neighbour slots`, () => {
  // a block of its own: the scans above prepare queries of theirs on the shared ones
  const block = new VectorBlock({ dimensions: DIMS, metric: 'cosine', initialCapacity: COUNT, variant: 'release' });
  for (const v of vectors) block.add(v);
  const prepared = block.prepare(query);
  const gathered = new Float32Array(32);
  bench('cosine gather, prepared query: wasm (release)', () => void block.distancesFor(prepared, neighbours, 32, gathered));
});
