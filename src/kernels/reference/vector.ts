/**
 * Plain TypeScript reference of the vector distance kernel (assembly/vector.ts) and of
 * VectorBlock's exact search (src/kernels/vector.ts): one vector at a time, f32 arithmetic via
 * Math.fround with sequential sums (hannoy's scalar path), binary quantization word by word as
 * hannoy's `Binary` codec builds its u64 words. The tests compare the kernel against it: exactly
 * below 16 dimensions, within f32 rounding above (the kernel sums on v128 lanes there).
 */
import type { VectorMetric } from '../vector.js';

const f = Math.fround;
const F32_EPSILON = 2 ** -23;

function referenceDot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum = f(sum + f(f(a[i]!) * f(b[i]!)));
  return sum;
}

/** hannoy's binary codec: u64 words, component i → bit i % 64 of word i / 64 when > 0, little-endian bytes. */
export function referenceBinaryQuantize(vector: ArrayLike<number>): Uint8Array {
  const words = Math.ceil(vector.length / 64);
  const out = new Uint8Array(words * 8);
  const view = new DataView(out.buffer);
  for (let w = 0; w < words; w++) {
    let word = 0n;
    for (let i = Math.min(vector.length, (w + 1) * 64) - 1; i >= w * 64; i--) word = (word << 1n) | (vector[i]! > 0 ? 1n : 0n);
    view.setBigUint64(w * 8, word, true);
  }
  return out;
}

/** Normalised Hamming distance of two quantized vectors: differing bits over all (padded) bits. */
export function referenceHamming(a: Uint8Array, b: Uint8Array): number {
  let bits = 0;
  for (let i = 0; i < a.length; i++) {
    let x = a[i]! ^ b[i]!;
    while (x) {
      bits += x & 1;
      x >>>= 1;
    }
  }
  return f(bits / (a.length * 8));
}

/** The distance the kernel computes between two f32 vectors (hamming: after quantizing both). */
export function referenceDistance(metric: VectorMetric, query: ArrayLike<number>, vector: ArrayLike<number>): number {
  switch (metric) {
    case 'cosine': {
      const norms = f(f(Math.sqrt(referenceDot(query, query))) * f(Math.sqrt(referenceDot(vector, vector))));
      if (!(norms > F32_EPSILON)) return 0;
      const cos = Math.min(Math.max(f(referenceDot(query, vector) / norms), -1), 1);
      return f(f(1 - cos) / 2);
    }
    case 'dot':
      return f(1 - referenceDot(query, vector));
    case 'l2': {
      let sum = 0;
      for (let i = 0; i < query.length; i++) {
        const d = f(f(query[i]!) - f(vector[i]!));
        sum = f(sum + f(d * d));
      }
      return sum;
    }
    case 'hamming':
      return referenceHamming(referenceBinaryQuantize(query), referenceBinaryQuantize(vector));
  }
}

/** The `k` nearest live vectors (null = removed slot) by distance then slot, as VectorBlock.topK answers. */
export function referenceTopK(
  metric: VectorMetric,
  vectors: readonly (ArrayLike<number> | null)[],
  query: ArrayLike<number>,
  k: number,
  accept?: (slot: number) => boolean,
): { slots: number[]; distances: number[] } {
  const scored: { slot: number; distance: number }[] = [];
  vectors.forEach((vector, slot) => {
    if (vector && (!accept || accept(slot))) scored.push({ slot, distance: referenceDistance(metric, query, vector) });
  });
  scored.sort((a, b) => a.distance - b.distance || a.slot - b.slot);
  const top = scored.slice(0, Math.max(0, k));
  return { slots: top.map((s) => s.slot), distances: top.map((s) => s.distance) };
}
