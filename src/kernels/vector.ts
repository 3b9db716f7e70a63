/**
 * Typed wrapper of the vector distance kernel (assembly/vector.ts): blocks of vectors RESIDENT in
 * WebAssembly linear memory, so an exact search or an HNSW step copies only the query in and the
 * distances out, never the vectors (100k × 384 f32 is 150 MB).
 *
 * - `VectorBlock`: fixed dimensions and metric; slots 0..size−1 hold vectors; `add` takes a freed
 *   slot first, `set` writes any slot (growing the block), `remove` frees one. Batched queries:
 *   `distancesAll` (every slot), `distancesFor` (a list of slot ids: an HNSW node's neighbours),
 *   `topK` / `topKFor` (exact search over the block or over a candidate list). A query may be
 *   prepared once (`prepare`, `prepareSlot`) and reused for many calls. `anyCloser` tests stored
 *   vectors against one another (the HNSW neighbour heuristic) without preparing a query.
 * - Metrics: 'cosine', 'dot', 'l2' store f32; 'hamming' stores binary-quantized vectors (what a
 *   `binaryQuantized` embedder keeps; its f32 inputs are quantized on the way in).
 * - Distances are the ones Meilisearch's store (hannoy, crates hannoy/src/distance/) reports:
 *   cosine (1 − clamp(q·v / (|q|·|v|), −1, 1)) / 2, and 0 when |q|·|v| ≤ f32 epsilon (a zero
 *   vector is at distance 0 from everything, as in hannoy); hamming popcount(q xor v) divided by
 *   the PADDED bit count (dimensions rounded up to 64: hannoy packs bits in u64 words, so 3-d
 *   vectors are at most 3/64 apart); dot 1 − q·v; l2 the squared Euclidean distance (no sqrt).
 *   Meilisearch's similarity (`_rankingScore` before the distribution shift) is 1 − distance in
 *   f32: `similarityScore`. Cosine = (1 + cos θ) / 2.
 * - Cosine vectors are stored AS GIVEN (not normalised) with their norm beside them, computed by
 *   the kernel at insertion; a distance is one dot product plus hannoy's formula on the norms.
 *   Normalising at insertion would save nothing measurable (the dot product dominates) and would
 *   change the f32 rounding: below 16 dimensions the kernel sums in hannoy's scalar order, so
 *   small vectors (Meilisearch's test fixtures) score bit-for-bit as Meilisearch does; above,
 *   sums differ from hannoy's AVX/FMA ones in the last bits only.
 * - Binary quantization (`binaryQuantize`) follows hannoy's `Binary` codec: bit i is 1 when
 *   component i > 0 (zero, −0 and negatives give 0), little-endian bit order inside u64 words.
 *   (The legacy arroy store's BinaryQuantizedCosine reports the same value: its ±1 dot product
 *   over padded words works out to differing bits / padded bits too.)
 *
 * Memory: WebAssembly memories reserve gigabytes of virtual address space each in V8 (guard
 * regions), so blocks do not get an instance each. A thread has a small pool of dedicated
 * kernels instances ("heaps", separate from module.ts's shared instance so the tokenizer's arena
 * never sits behind 150 MB of vectors); each heap hands out regions with a first-fit free list
 * over its linear memory, up to HEAP_LIMIT_BYTES, and a new heap is created only when no
 * existing one has room. A growing block doubles its region (moving to another heap if needed).
 * Memory never shrinks (WebAssembly cannot): a freed region is reused by later blocks.
 * `dispose()` returns a block's regions; a block is single-threaded like its heap.
 */
import { ARENA_ALIGN, RESULT_BLOCK_BYTES, type WasmMemory } from './arena.js';
import { compileKernelModule, defaultKernelVariant, instantiateKernels, type KernelVariant } from './module.js';

export type VectorMetric = 'cosine' | 'dot' | 'l2' | 'hamming';

/** From this many dimensions on, the kernel sums on v128 lanes (assembly DOT_SIMD_MIN). */
export const DOT_SIMD_MIN = 16;
/** Largest linear memory a heap grows to (2 GiB: safe for every wasm32 engine and typed array). */
export const HEAP_LIMIT_BYTES = 2 ** 31;
/** Slots per kernel call in whole-block scans, bounding the scratch a call needs. */
const CHUNK_SLOTS = 16_384;
const PAGE_BYTES = 65_536;
const METRIC_CODES = { cosine: 0, dot: 1, l2: 2 } as const;

interface VectorExports {
  readonly memory: WasmMemory;
  vectorNorm(vector: number, dims: number): number;
  vectorDistances(metric: number, query: number, queryNorm: number, base: number, norms: number, dims: number, first: number, count: number, out: number): void;
  vectorDistancesGather(metric: number, query: number, queryNorm: number, base: number, norms: number, dims: number, list: number, count: number, out: number): void;
  vectorHamming(query: number, base: number, words: number, first: number, count: number, out: number): void;
  vectorHammingGather(query: number, base: number, words: number, slots: number, count: number, out: number): void;
  vectorAnyCloser(metric: number, base: number, norms: number, dims: number, from: number, slots: number, count: number, threshold: number): number;
  vectorHammingAnyCloser(base: number, words: number, from: number, slots: number, count: number, threshold: number): number;
}

/** Meilisearch's similarity for a distance of this module: 1 − distance, in f32 (before any distribution shift). */
export function similarityScore(distance: number): number {
  return Math.fround(1 - distance);
}

/** u64 words of a binary-quantized vector of `dimensions` components. */
export function binaryWords(dimensions: number): number {
  return Math.ceil(dimensions / 64);
}

/** The binary quantization of `vector` (hannoy's `Binary` codec): bit i set when component i > 0, padded to u64 words. */
export function binaryQuantize(vector: ArrayLike<number>): Uint8Array {
  const bytes = new Uint8Array(binaryWords(vector.length) * 8);
  quantizeInto(vector, bytes);
  return bytes;
}

function quantizeInto(vector: ArrayLike<number>, bytes: Uint8Array): void {
  bytes.fill(0);
  for (let i = 0; i < vector.length; i++) if (vector[i]! > 0) bytes[i >>> 3]! |= 1 << (i & 7);
}

/** One dedicated kernels instance whose linear memory is carved into regions for vector blocks. */
class VectorHeap {
  readonly exports: VectorExports;
  readonly #memory: WasmMemory;
  #top: number;
  /** Free regions [start, end), sorted by start, never adjacent (coalesced). */
  readonly #free: { start: number; end: number }[] = [];
  #buffer!: ArrayBuffer;
  #u8!: Uint8Array;
  #f32!: Float32Array;
  #u32!: Uint32Array;
  #scratch = 0;
  #scratchBytes = 0;

  constructor(variant: KernelVariant) {
    const kernels = instantiateKernels(compileKernelModule(variant), variant);
    this.exports = kernels.exports as unknown as VectorExports;
    if (typeof this.exports.vectorDistances !== 'function') {
      throw new Error('the kernels module has no vector kernel; rebuild with `npm run build:wasm`');
    }
    this.#memory = this.exports.memory;
    // nothing else uses this instance's arena: regions start after its result block
    this.#top = align(kernels.arena.base + RESULT_BLOCK_BYTES);
    this.#refresh();
  }

  get u8(): Uint8Array {
    this.#refresh();
    return this.#u8;
  }

  get f32(): Float32Array {
    this.#refresh();
    return this.#f32;
  }

  get u32(): Uint32Array {
    this.#refresh();
    return this.#u32;
  }

  /** Current linear-memory size in bytes. */
  get byteLength(): number {
    return this.#memory.buffer.byteLength;
  }

  /** Whether a region of `bytes` fits without passing HEAP_LIMIT_BYTES. */
  fits(bytes: number): boolean {
    const size = align(bytes);
    return this.#free.some((r) => r.end - r.start >= size) || this.#top + size <= HEAP_LIMIT_BYTES;
  }

  /** A region of at least `bytes` (ARENA_ALIGN-aligned), first fit, else at the top (growing memory). */
  alloc(bytes: number): number {
    const size = align(Math.max(bytes, 1));
    for (let i = 0; i < this.#free.length; i++) {
      const region = this.#free[i]!;
      if (region.end - region.start < size) continue;
      const start = region.start;
      region.start += size;
      if (region.start === region.end) this.#free.splice(i, 1);
      return start;
    }
    const start = this.#top;
    const end = start + size;
    if (end > HEAP_LIMIT_BYTES) throw new RangeError(`a vector heap cannot hold ${size} more bytes`);
    const have = this.#memory.buffer.byteLength;
    if (end > have) this.#memory.grow(Math.ceil((end - have) / PAGE_BYTES));
    this.#top = end;
    return start;
  }

  /** Returns a region of `alloc(bytes)` to the free list. */
  free(start: number, bytes: number): void {
    let end = start + align(Math.max(bytes, 1));
    let i = 0;
    while (i < this.#free.length && this.#free[i]!.start < start) i++;
    const next = this.#free[i];
    if (next && next.start === end) {
      end = next.end;
      this.#free.splice(i, 1);
    }
    const previous = this.#free[i - 1];
    if (previous && previous.end === start) {
      previous.end = end;
      start = previous.start;
      this.#free.splice(i - 1, 1);
      i--;
    }
    if (end === this.#top) this.#top = start;
    else this.#free.splice(i, 0, { start, end });
  }

  /** A transient region of at least `bytes` for one call's slot lists and outputs (may move between calls). */
  scratch(bytes: number): number {
    if (bytes > this.#scratchBytes) {
      if (this.#scratchBytes > 0) this.free(this.#scratch, this.#scratchBytes);
      this.#scratchBytes = align(Math.max(bytes, this.#scratchBytes * 2));
      this.#scratch = this.alloc(this.#scratchBytes);
    }
    return this.#scratch;
  }

  #refresh(): void {
    const buffer = this.#memory.buffer;
    if (buffer !== this.#buffer) {
      this.#buffer = buffer;
      this.#u8 = new Uint8Array(buffer);
      this.#f32 = new Float32Array(buffer);
      this.#u32 = new Uint32Array(buffer);
    }
  }
}

const heaps = new Map<KernelVariant, VectorHeap[]>();

/** A heap of this thread's pool with room for `bytes`, preferring `current`; a new one when none has. */
function heapFor(variant: KernelVariant, bytes: number, current?: VectorHeap): VectorHeap {
  if (current?.fits(bytes)) return current;
  let pool = heaps.get(variant);
  if (!pool) heaps.set(variant, (pool = []));
  const found = pool.find((heap) => heap.fits(bytes));
  if (found) return found;
  const heap = new VectorHeap(variant);
  pool.push(heap);
  return heap;
}

/** Number of heaps (kernels instances) this thread created for vector blocks. */
export function vectorHeapCount(): number {
  let n = 0;
  for (const pool of heaps.values()) n += pool.length;
  return n;
}

/** Linear memory of this thread's vector heaps, in bytes (it never shrinks; freed regions are reused). */
export function vectorMemoryBytes(): number {
  let bytes = 0;
  for (const pool of heaps.values()) for (const heap of pool) bytes += heap.byteLength;
  return bytes;
}

function align(bytes: number): number {
  return Math.ceil(bytes / ARENA_ALIGN) * ARENA_ALIGN;
}

export interface VectorBlockOptions {
  dimensions: number;
  metric: VectorMetric;
  /** Slots reserved up front (default 64); the block doubles when full. */
  initialCapacity?: number;
  /** Kernel build (default: module.ts's choice; benchmarks ask for 'release'). */
  variant?: KernelVariant;
}

/** A query copied into its block's memory once, valid until the block prepares another. */
export class VectorQuery {
  readonly block: VectorBlock;
  readonly generation: number;

  constructor(block: VectorBlock, generation: number) {
    this.block = block;
    this.generation = generation;
  }
}

export type VectorInput = Float32Array | readonly number[];

/** Nearest slots of an exact search, closest first (ties: lower slot first). */
export interface VectorMatches {
  slots: Uint32Array;
  distances: Float32Array;
}

export class VectorBlock {
  readonly dimensions: number;
  readonly metric: VectorMetric;
  /** Bytes per stored vector: dimensions × 4, or u64 words × 8 for 'hamming'. */
  readonly stride: number;
  readonly #variant: KernelVariant;
  readonly #words: number;
  #heap: VectorHeap;
  /** Region: [norms (capacity f32, cosine only) | vectors (capacity × stride)]. */
  #region = 0;
  #capacity = 0;
  #size = 0;
  #count = 0;
  #live = new Uint8Array(0);
  #freed: number[] = [];
  #query = 0;
  #queryNorm = 0;
  #generation = 0;
  #disposed = false;

  constructor(options: VectorBlockOptions) {
    const { dimensions, metric } = options;
    if (!Number.isInteger(dimensions) || dimensions < 1) throw new RangeError(`vector dimensions must be a positive integer, got ${dimensions}`);
    if (!['cosine', 'dot', 'l2', 'hamming'].includes(metric)) throw new RangeError(`unknown vector metric ${String(metric)}`);
    this.dimensions = dimensions;
    this.metric = metric;
    this.#words = binaryWords(dimensions);
    this.stride = metric === 'hamming' ? this.#words * 8 : dimensions * 4;
    this.#variant = options.variant ?? defaultKernelVariant();
    const capacity = Math.max(1, options.initialCapacity ?? 64);
    this.#heap = heapFor(this.#variant, this.#regionBytes(capacity) + this.stride);
    this.#query = this.#heap.alloc(this.stride);
    this.#region = this.#heap.alloc(this.#regionBytes(capacity));
    this.#capacity = capacity;
    this.#live = new Uint8Array(capacity);
  }

  /** Slot high-water mark: slots are 0..size−1 (removed ones included). */
  get size(): number {
    return this.#size;
  }

  /** Slots holding a vector. */
  get count(): number {
    return this.#count;
  }

  get capacity(): number {
    return this.#capacity;
  }

  has(slot: number): boolean {
    return slot >= 0 && slot < this.#size && this.#live[slot] === 1;
  }

  /** Stores `vector` in a free slot (a removed one first) and returns the slot. */
  add(vector: VectorInput): number {
    this.#check(vector);
    let slot: number | undefined;
    while ((slot = this.#freed.pop()) !== undefined && this.#live[slot] === 1);
    if (slot === undefined) slot = this.#size;
    this.set(slot, vector);
    return slot;
  }

  /** Stores `vector` in `slot`, replacing what it held; slots between the old size and `slot` become free. */
  set(slot: number, vector: VectorInput): void {
    this.#alive();
    this.#check(vector);
    if (!Number.isInteger(slot) || slot < 0 || slot >= 2 ** 32) throw new RangeError(`invalid vector slot ${slot}`);
    if (slot >= this.#capacity) this.#grow(Math.max(slot + 1, Math.min(this.#capacity * 2, this.#largestCapacity())));
    for (let free = this.#size; free < slot; free++) this.#freed.push(free);
    if (slot >= this.#size) this.#size = slot + 1;
    const address = this.#vectorAddress(slot);
    if (this.metric === 'hamming') {
      quantizeInto(vector, this.#heap.u8.subarray(address, address + this.stride));
    } else {
      this.#heap.f32.set(vector, address >>> 2);
      if (this.metric === 'cosine') this.#heap.f32[(this.#region >>> 2) + slot] = this.#heap.exports.vectorNorm(address, this.dimensions);
    }
    if (this.#live[slot] !== 1) {
      this.#live[slot] = 1;
      this.#count++;
    }
  }

  /** Frees `slot` for reuse by `add`; false when it held no vector. */
  remove(slot: number): boolean {
    if (!this.has(slot)) return false;
    this.#live[slot] = 0;
    this.#count--;
    this.#freed.push(slot);
    return true;
  }

  /** A copy of the vector in `slot` (for 'hamming': 1 for a set bit, 0 otherwise, as Meilisearch shows them). */
  get(slot: number): Float32Array {
    this.#alive();
    if (!this.has(slot)) throw new RangeError(`vector slot ${slot} is empty`);
    const address = this.#vectorAddress(slot);
    if (this.metric !== 'hamming') return this.#heap.f32.slice(address >>> 2, (address >>> 2) + this.dimensions);
    const bytes = this.#heap.u8;
    const out = new Float32Array(this.dimensions);
    for (let i = 0; i < this.dimensions; i++) out[i] = (bytes[address + (i >>> 3)]! >>> (i & 7)) & 1;
    return out;
  }

  /** Copies `query` into the block once, for many calls; a later prepare invalidates it. */
  prepare(query: VectorInput): VectorQuery {
    this.#check(query);
    this.#alive();
    if (this.metric === 'hamming') {
      quantizeInto(query, this.#heap.u8.subarray(this.#query, this.#query + this.stride));
    } else {
      this.#heap.f32.set(query, this.#query >>> 2);
      this.#queryNorm = this.metric === 'cosine' ? this.#heap.exports.vectorNorm(this.#query, this.dimensions) : 0;
    }
    return new VectorQuery(this, ++this.#generation);
  }

  /** Prepares the vector stored in `slot` as the query (distances between stored vectors). */
  prepareSlot(slot: number): VectorQuery {
    this.#alive();
    if (!this.has(slot)) throw new RangeError(`vector slot ${slot} is empty`);
    const address = this.#vectorAddress(slot);
    this.#heap.u8.copyWithin(this.#query, address, address + this.stride);
    if (this.metric === 'cosine') this.#queryNorm = this.#heap.f32[(this.#region >>> 2) + slot]!;
    return new VectorQuery(this, ++this.#generation);
  }

  /** Distance from `query` to the vector in `slot`. */
  distance(query: VectorInput | VectorQuery, slot: number): number {
    const slots = new Uint32Array([slot]);
    return this.distancesFor(query, slots, 1)[0]!;
  }

  /**
   * Distances from `query` to every slot 0..size−1 into `out[0..size)` (NaN for removed slots);
   * returns `out` (a new array of `size` when none is given).
   */
  distancesAll(query: VectorInput | VectorQuery, out?: Float32Array): Float32Array {
    const size = this.#size;
    const result = out ?? new Float32Array(size);
    if (result.length < size) throw new RangeError(`distance output holds ${result.length} values, ${size} needed`);
    this.#use(query);
    for (let first = 0; first < size; first += CHUNK_SLOTS) {
      const count = Math.min(CHUNK_SLOTS, size - first);
      const at = this.#scan(first, count);
      result.set(this.#heap.f32.subarray(at >>> 2, (at >>> 2) + count), first);
    }
    for (const slot of this.#freed) if (slot < size && this.#live[slot] !== 1) result[slot] = NaN;
    return result;
  }

  /**
   * Distances from `query` to `slots[0..count)` into `out[0..count)`, in list order; every slot
   * must hold a vector (the caller's graph only names live slots). Returns `out` (new when omitted).
   */
  distancesFor(query: VectorInput | VectorQuery, slots: Uint32Array, count = slots.length, out?: Float32Array): Float32Array {
    if (count > slots.length) throw new RangeError(`${count} slots asked of a list of ${slots.length}`);
    const result = out ?? new Float32Array(count);
    if (result.length < count) throw new RangeError(`distance output holds ${result.length} values, ${count} needed`);
    for (let i = 0; i < count; i++) if (!this.has(slots[i]!)) throw new RangeError(`vector slot ${slots[i]} is empty`);
    this.#use(query);
    for (let first = 0; first < count; first += CHUNK_SLOTS) {
      const n = Math.min(CHUNK_SLOTS, count - first);
      const list = this.#heap.scratch(n * 8);
      const at = list + n * 4;
      this.#heap.u32.set(slots.subarray(first, first + n), list >>> 2);
      this.#gather(list, n, at);
      result.set(this.#heap.f32.subarray(at >>> 2, (at >>> 2) + n), first);
    }
    return result;
  }

  /**
   * Whether one of `slots[0..count)` is closer than `threshold` to the vector in slot `from`
   * (the HNSW neighbour heuristic's test), checked in list order up to the first that is; no
   * query is prepared or replaced. Every slot must hold a vector, as for `distancesFor`.
   */
  anyCloser(from: number, slots: Uint32Array, count: number, threshold: number): boolean {
    this.#alive();
    if (count > slots.length) throw new RangeError(`${count} slots asked of a list of ${slots.length}`);
    if (!this.has(from)) throw new RangeError(`vector slot ${from} is empty`);
    for (let i = 0; i < count; i++) if (!this.has(slots[i]!)) throw new RangeError(`vector slot ${slots[i]} is empty`);
    const list = this.#heap.scratch(count * 4);
    this.#heap.u32.set(slots.subarray(0, count), list >>> 2);
    const { exports } = this.#heap;
    const base = this.#vectorAddress(0);
    const closer =
      this.metric === 'hamming'
        ? exports.vectorHammingAnyCloser(base, this.#words, from, list, count, threshold)
        : exports.vectorAnyCloser(METRIC_CODES[this.metric], base, this.#region, this.dimensions, from, list, count, threshold);
    return closer !== 0;
  }

  /**
   * The `k` slots nearest to `query` by exact scan of the whole block, skipping removed slots and
   * those `accept` refuses (asked only of slots close enough to enter the result).
   */
  topK(query: VectorInput | VectorQuery, k: number, accept?: (slot: number) => boolean): VectorMatches {
    const top = new TopK(k);
    if (top.k > 0) {
      this.#use(query);
      const live = this.#live;
      for (let first = 0; first < this.#size; first += CHUNK_SLOTS) {
        const count = Math.min(CHUNK_SLOTS, this.#size - first);
        const at = this.#scan(first, count) >>> 2;
        const distances = this.#heap.f32;
        for (let i = 0; i < count; i++) {
          const d = distances[at + i]!;
          const slot = first + i;
          if (top.beats(d, slot) && live[slot] === 1 && (!accept || accept(slot))) top.push(d, slot);
        }
      }
    }
    return top.matches();
  }

  /**
   * The `k` slots nearest to `query` among `slots[0..count)` (a filtered candidate set, scanned
   * exactly as Meilisearch does small ones); removed slots are skipped, duplicates kept once.
   */
  topKFor(query: VectorInput | VectorQuery, slots: Uint32Array, k: number, count = slots.length): VectorMatches {
    if (count > slots.length) throw new RangeError(`${count} slots asked of a list of ${slots.length}`);
    const top = new TopK(k);
    if (top.k === 0) return top.matches();
    const listed = slots.subarray(0, count).filter((slot) => this.has(slot));
    const unique = listed.length > 1 ? Uint32Array.from(new Set(listed)) : listed;
    this.#use(query);
    for (let first = 0; first < unique.length; first += CHUNK_SLOTS) {
      const n = Math.min(CHUNK_SLOTS, unique.length - first);
      const list = this.#heap.scratch(n * 8);
      const at = list + n * 4;
      this.#heap.u32.set(unique.subarray(first, first + n), list >>> 2);
      this.#gather(list, n, at);
      const distances = this.#heap.f32;
      for (let i = 0; i < n; i++) {
        const d = distances[(at >>> 2) + i]!;
        const slot = unique[first + i]!;
        if (top.beats(d, slot)) top.push(d, slot);
      }
    }
    return top.matches();
  }

  /** Returns the block's memory to its heap; the block is unusable afterwards. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#heap.free(this.#region, this.#regionBytes(this.#capacity));
    this.#heap.free(this.#query, this.stride);
  }

  /** The most slots a region of this block can have in one heap (a doubling must not ask for more). */
  #largestCapacity(): number {
    let capacity = Math.floor((HEAP_LIMIT_BYTES - this.stride) / (this.stride + (this.metric === 'cosine' ? 4 : 0)));
    while (capacity > 0 && this.#regionBytes(capacity) + this.stride > HEAP_LIMIT_BYTES) capacity--;
    return capacity;
  }

  #regionBytes(capacity: number): number {
    return this.#normsBytes(capacity) + capacity * this.stride;
  }

  #normsBytes(capacity: number): number {
    return this.metric === 'cosine' ? align(capacity * 4) : 0;
  }

  #vectorAddress(slot: number): number {
    return this.#region + this.#normsBytes(this.#capacity) + slot * this.stride;
  }

  /** Kernel distances for slots first..first+count−1 of the prepared query; returns their address in scratch. */
  #scan(first: number, count: number): number {
    const at = this.#heap.scratch(count * 4);
    const { exports } = this.#heap;
    const base = this.#vectorAddress(0);
    if (this.metric === 'hamming') exports.vectorHamming(this.#query, base, this.#words, first, count, at);
    else exports.vectorDistances(METRIC_CODES[this.metric], this.#query, this.#queryNorm, base, this.#region, this.dimensions, first, count, at);
    return at;
  }

  /** Kernel distances for the `count` slot ids at `list` (in the heap) into `out`. */
  #gather(list: number, count: number, out: number): void {
    const { exports } = this.#heap;
    const base = this.#vectorAddress(0);
    if (this.metric === 'hamming') exports.vectorHammingGather(this.#query, base, this.#words, list, count, out);
    else {
      const metric = METRIC_CODES[this.metric];
      exports.vectorDistancesGather(metric, this.#query, this.#queryNorm, base, this.#region, this.dimensions, list, count, out);
    }
  }

  #use(query: VectorInput | VectorQuery): void {
    this.#alive();
    if (!(query instanceof VectorQuery)) {
      this.prepare(query);
      return;
    }
    if (query.block !== this) throw new RangeError('the query was prepared by another vector block');
    if (query.generation !== this.#generation) throw new RangeError('the prepared query was replaced by a later prepare');
  }

  #grow(capacity: number): void {
    this.#alive();
    const bytes = this.#regionBytes(capacity);
    const target = heapFor(this.#variant, bytes + this.stride, this.#heap);
    const region = target.alloc(bytes);
    const oldNorms = this.#normsBytes(this.#capacity);
    const newNorms = this.#normsBytes(capacity);
    const used = this.#size * this.stride;
    const source = this.#heap.u8;
    const destination = target.u8;
    if (oldNorms > 0) destination.set(source.subarray(this.#region, this.#region + this.#size * 4), region);
    const vectors = this.#region + oldNorms;
    destination.set(source.subarray(vectors, vectors + used), region + newNorms);
    this.#heap.free(this.#region, this.#regionBytes(this.#capacity));
    if (target !== this.#heap) {
      const query = target.alloc(this.stride);
      target.u8.set(this.#heap.u8.subarray(this.#query, this.#query + this.stride), query);
      this.#heap.free(this.#query, this.stride);
      this.#query = query;
      this.#heap = target;
    }
    this.#region = region;
    this.#capacity = capacity;
    const live = new Uint8Array(capacity);
    live.set(this.#live);
    this.#live = live;
  }

  #check(vector: VectorInput): void {
    if (vector.length !== this.dimensions) throw new RangeError(`vector of ${vector.length} dimensions, the block holds ${this.dimensions}`);
  }

  #alive(): void {
    if (this.#disposed) throw new Error('the vector block was disposed');
  }
}

/** The k best (distance, slot) pairs seen: a max-heap in two parallel arrays, the worst kept at index 0. */
class TopK {
  readonly k: number;
  readonly #slots: Uint32Array;
  readonly #distances: Float32Array;
  #filled = 0;

  constructor(k: number) {
    this.k = Math.max(0, Math.floor(k));
    this.#slots = new Uint32Array(this.k);
    this.#distances = new Float32Array(this.k);
  }

  /** Whether (d, slot) would enter: a free place, or closer than the worst kept (ties: lower slot). NaN never enters. */
  beats(d: number, slot: number): boolean {
    if (d !== d) return false;
    if (this.#filled < this.k) return true;
    const worst = this.#distances[0]!;
    return d < worst || (d === worst && slot < this.#slots[0]!);
  }

  /** Adds a pair `beats` accepted, evicting the worst when full. */
  push(d: number, slot: number): void {
    const ss = this.#slots;
    const ds = this.#distances;
    let i: number;
    if (this.#filled < this.k) {
      // sift up from the new leaf
      i = this.#filled++;
      while (i > 0) {
        const parent = (i - 1) >>> 1;
        if (worse(ds, ss, parent, d, slot)) break;
        ss[i] = ss[parent]!;
        ds[i] = ds[parent]!;
        i = parent;
      }
    } else {
      // replace the root and sift down
      i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= this.k) break;
        if (child + 1 < this.k && worse(ds, ss, child + 1, ds[child]!, ss[child]!)) child++;
        if (!worse(ds, ss, child, d, slot)) break;
        ss[i] = ss[child]!;
        ds[i] = ds[child]!;
        i = child;
      }
    }
    ss[i] = slot;
    ds[i] = d;
  }

  /** The kept pairs, closest first (ties: lower slot first). */
  matches(): VectorMatches {
    const ss = this.#slots;
    const ds = this.#distances;
    const order = Array.from({ length: this.#filled }, (_, i) => i).sort((a, b) => ds[a]! - ds[b]! || ss[a]! - ss[b]!);
    return { slots: Uint32Array.from(order, (i) => ss[i]!), distances: Float32Array.from(order, (i) => ds[i]!) };
  }
}

/** Whether the pair at `i` ranks after (d, slot): farther, or as far with a higher slot. */
function worse(ds: Float32Array, ss: Uint32Array, i: number, d: number, slot: number): boolean {
  return ds[i]! > d || (ds[i] === d && ss[i]! > slot);
}
