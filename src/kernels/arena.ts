/**
 * The host's side of the kernels' scratch memory. One `KernelArena` per kernel instance (so one
 * per thread) lays the regions of a call out in linear memory above the kernel's arena base with
 * a bump pointer that `reset()` rewinds before every call: nothing survives a call.
 *
 * Layout of a call: [result block | region | region | ...], each region ARENA_ALIGN-aligned. The
 * result block is where kernels report the sizes they produced or needed.
 *
 * Invariants: memory only grows (WebAssembly cannot shrink it), and growing replaces
 * `memory.buffer`, so the typed-array views are re-derived whenever the buffer changed; callers
 * must fetch `u8`/`u32` after their last `alloc` and never keep them across a grow.
 * The constants mirror assembly/arena.ts (the kernel tests compare them with the WASM exports).
 */

export const ARENA_ALIGN = 16;
export const RESULT_BLOCK_BYTES = 16;
/** Byte offset in the result block: records produced (or needed). */
export const RESULT_RECORDS = 0;
/** Byte offset in the result block: output bytes produced (or needed). */
export const RESULT_OUTPUT_BYTES = 4;

const PAGE_BYTES = 65_536;

/** What the arena needs of a WebAssembly.Memory (declared here: lib ES2023 and @types/node 20 lack it). */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(deltaPages: number): number;
}

const encoder = new TextEncoder();

export class KernelArena {
  readonly #memory: WasmMemory;
  readonly #base: number;
  #top: number;
  #buffer: ArrayBuffer;
  #u8: Uint8Array;
  #u32: Uint32Array;

  constructor(memory: WasmMemory, base: number) {
    if (base % ARENA_ALIGN !== 0) throw new RangeError(`kernel arena base ${base} is not ${ARENA_ALIGN}-aligned`);
    this.#memory = memory;
    this.#base = base;
    this.#top = base + RESULT_BLOCK_BYTES;
    this.#buffer = memory.buffer;
    this.#u8 = new Uint8Array(this.#buffer);
    this.#u32 = new Uint32Array(this.#buffer);
  }

  /** Start of the arena (the result block). */
  get base(): number {
    return this.#base;
  }

  /** The bump pointer: where the next region would start before alignment. */
  get top(): number {
    return this.#top;
  }

  /** Current linear-memory size in bytes. */
  get byteLength(): number {
    return this.#memory.buffer.byteLength;
  }

  /** Bytes of linear memory, re-derived if the memory grew since the last access. */
  get u8(): Uint8Array {
    this.#refresh();
    return this.#u8;
  }

  /** u32 words of linear memory (index = byte address / 4), re-derived like `u8`. */
  get u32(): Uint32Array {
    this.#refresh();
    return this.#u32;
  }

  /** Forgets every region of the previous call. */
  reset(): void {
    this.#top = this.#base + RESULT_BLOCK_BYTES;
  }

  /** Forgets the regions allocated after `top` (a value read from `this.top`), to re-lay them. */
  rewind(top: number): void {
    if (top < this.#base + RESULT_BLOCK_BYTES || top > this.#top) throw new RangeError(`cannot rewind the arena to ${top}`);
    this.#top = top;
  }

  /** Reserves `bytes` bytes, growing linear memory when needed; returns the region's address. */
  alloc(bytes: number): number {
    const start = align(this.#top);
    const end = start + bytes;
    const size = this.#memory.buffer.byteLength;
    if (end > size) this.#memory.grow(Math.ceil((end - size) / PAGE_BYTES));
    this.#top = end;
    return start;
  }

  /** Reserves `count` u32, filled from `source` when given; returns the region's address. */
  allocU32(count: number, source?: ArrayLike<number>): number {
    const ptr = this.alloc(count * 4);
    if (source !== undefined) this.u32.set(source, ptr >>> 2);
    return ptr;
  }

  /** A copy of the `count` u32 at address `ptr` (a kernel's output column). */
  copyU32(ptr: number, count: number): Uint32Array {
    return this.u32.slice(ptr >>> 2, (ptr >>> 2) + count);
  }

  /** Reads a u32 slot of the result block (RESULT_RECORDS, RESULT_OUTPUT_BYTES). */
  result(slot: number): number {
    return this.u32[(this.#base + slot) >>> 2]!;
  }

  /**
   * Writes `text` as UTF-8 at `ptr` with TextEncoder.encodeInto, without a temporary copy.
   * `capacity` must be at least 3 × text.length (the UTF-8 worst case per UTF-16 unit); lone
   * surrogates become U+FFFD, as with every TextEncoder.
   */
  writeUtf8(ptr: number, capacity: number, text: string): number {
    const { read, written } = encoder.encodeInto(text, this.u8.subarray(ptr, ptr + capacity));
    if (read !== text.length) throw new RangeError(`UTF-8 region of ${capacity} bytes is too small for the text`);
    return written;
  }

  #refresh(): void {
    const buffer = this.#memory.buffer;
    if (buffer !== this.#buffer) {
      this.#buffer = buffer;
      this.#u8 = new Uint8Array(buffer);
      this.#u32 = new Uint32Array(buffer);
    }
  }
}

function align(address: number): number {
  return (address + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1);
}
