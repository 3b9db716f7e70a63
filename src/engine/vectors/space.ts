/**
 * The vectors of one embedder's graph, by slot, in a VectorBlock of the vector kernel
 * (kernels/vector.ts, resident in WebAssembly memory), with Meilisearch's distances: cosine
 * `(1 − cos θ) / 2`, or for a binary-quantized embedder the normalised Hamming distance of the
 * sign bits (hannoy's `BinaryQuantizedCosine`). Distances are asked for a list of slots at a
 * time (an HNSW node's neighbours): one kernel call per list.
 *
 * The block holds one prepared query at a time: `prepare`/`prepareSlot` make the one later calls
 * use, and invalidate the previous one.
 */
import { VectorBlock, type VectorMatches, type VectorQuery } from '../../kernels/vector.js';

export class VectorSpace {
  private readonly block: VectorBlock;
  private readonly one = new Uint32Array(1);
  private out = new Float32Array(64);

  constructor(
    readonly dimensions: number,
    readonly quantized: boolean,
    capacity = 64,
  ) {
    this.block = new VectorBlock({ dimensions, metric: quantized ? 'hamming' : 'cosine', initialCapacity: Math.max(1, capacity) });
  }

  /** Stores `vector` (f32; a quantized space keeps its sign bits) in `slot`. */
  set(slot: number, vector: Float32Array): void {
    this.block.set(slot, vector);
  }

  remove(slot: number): void {
    this.block.remove(slot);
  }

  prepare(query: Float32Array): VectorQuery {
    return this.block.prepare(query);
  }

  prepareSlot(slot: number): VectorQuery {
    return this.block.prepareSlot(slot);
  }

  /** Distances from the prepared `query` to `slots[0..count)`, in a buffer reused by the next call. */
  distances(query: VectorQuery, slots: Uint32Array, count: number): Float32Array {
    if (this.out.length < count) this.out = new Float32Array(Math.max(count, this.out.length * 2));
    return this.block.distancesFor(query, slots, count, this.out);
  }

  distance(query: VectorQuery, slot: number): number {
    this.one[0] = slot;
    return this.distances(query, this.one, 1)[0]!;
  }

  /** Whether one of `slots[0..count)` is closer than `threshold` to slot `from` (the neighbour heuristic's test; no query prepared). */
  anyCloser(from: number, slots: Uint32Array, count: number, threshold: number): boolean {
    return this.block.anyCloser(from, slots, count, threshold);
  }

  /** Every live slot's distance to `query` (NaN for free slots below the high-water mark). */
  distancesAll(query: VectorQuery): Float32Array {
    return this.block.distancesAll(query);
  }

  /** The `k` live slots `accept` takes nearest to `query`, by exact scan, closest first. */
  nearest(query: VectorQuery, k: number, accept?: (slot: number) => boolean): VectorMatches {
    return this.block.topK(query, k, accept);
  }

  /** Returns the vectors' memory to the kernel. */
  dispose(): void {
    this.block.dispose();
  }
}
