/**
 * The vectors of one embedder's graph, by slot, and Meilisearch's distances between them
 * (vectors.md §8.1, hannoy's `Cosine` and `BinaryQuantizedCosine`):
 * - cosine: `(1 − cos θ) / 2`, in [0, 1]; 0 when either vector is all zeros. Vectors are kept
 *   normalised, so a distance is one dot product;
 * - binary quantized: the vectors' sign bits only, compared as ±1 vectors, which makes
 *   `(1 − cos θ) / 2` the Hamming distance over the dimensions.
 * A query is prepared once (`prepare`) into the form the slots have.
 */
import { bitWords, quantize } from './store.js';

export type Prepared = Float32Array | Uint32Array;

export class VectorSpace {
  /** f32 values (normalised) or u32 words of sign bits per slot */
  readonly width: number;
  private data: Float32Array | Uint32Array;
  /** 1 for an all-zeros float vector */
  private zero: Uint8Array;

  constructor(
    readonly dimensions: number,
    readonly quantized: boolean,
    capacity = 1024,
  ) {
    this.width = quantized ? bitWords(dimensions) : dimensions;
    this.data = quantized ? new Uint32Array(capacity * this.width) : new Float32Array(capacity * this.width);
    this.zero = new Uint8Array(capacity);
  }

  get capacity(): number {
    return this.zero.length;
  }

  ensure(capacity: number): void {
    if (capacity <= this.capacity) return;
    const next = Math.max(capacity, this.capacity * 2);
    const data = this.quantized ? new Uint32Array(next * this.width) : new Float32Array(next * this.width);
    data.set(this.data);
    const zero = new Uint8Array(next);
    zero.set(this.zero);
    this.data = data;
    this.zero = zero;
  }

  /** A query (or stored vector) in the slots' form. */
  prepare(vector: ArrayLike<number> | Uint32Array, alreadyQuantized = false): Prepared {
    if (this.quantized) return alreadyQuantized ? (vector as Uint32Array) : quantize(vector);
    const out = Float32Array.from(vector as ArrayLike<number>);
    let norm = 0;
    for (let i = 0; i < out.length; i++) norm += out[i]! * out[i]!;
    if (norm > 0) {
      const inv = 1 / Math.sqrt(norm);
      for (let i = 0; i < out.length; i++) out[i]! *= inv;
    }
    return out;
  }

  set(slot: number, prepared: Prepared): void {
    this.ensure(slot + 1);
    (this.data as Float32Array).set(prepared as Float32Array, slot * this.width);
    this.zero[slot] = this.quantized ? 0 : isZero(prepared as Float32Array) ? 1 : 0;
  }

  /** Distance from a prepared query to a slot. */
  distance(query: Prepared, queryZero: boolean, slot: number): number {
    const base = slot * this.width;
    if (this.quantized) {
      const data = this.data as Uint32Array;
      const q = query as Uint32Array;
      let diff = 0;
      for (let i = 0; i < q.length; i++) diff += popcount(q[i]! ^ data[base + i]!);
      return diff / this.dimensions;
    }
    if (queryZero || this.zero[slot] === 1) return 0;
    const data = this.data as Float32Array;
    const q = query as Float32Array;
    const n = q.length;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let i = 0;
    for (; i + 3 < n; i += 4) {
      s0 += q[i]! * data[base + i]!;
      s1 += q[i + 1]! * data[base + i + 1]!;
      s2 += q[i + 2]! * data[base + i + 2]!;
      s3 += q[i + 3]! * data[base + i + 3]!;
    }
    for (; i < n; i++) s0 += q[i]! * data[base + i]!;
    const cos = Math.min(1, Math.max(-1, s0 + s1 + s2 + s3));
    return (1 - cos) / 2;
  }

  /** The stored form of a slot, as a view (valid until the space grows). */
  view(slot: number): Prepared {
    return this.data.subarray(slot * this.width, (slot + 1) * this.width);
  }

  isZero(slot: number): boolean {
    return this.zero[slot] === 1;
  }

  between(a: number, b: number): number {
    return this.distance(this.view(a), this.zero[a] === 1, b);
  }
}

function isZero(vector: Float32Array): boolean {
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) return false;
  return true;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
