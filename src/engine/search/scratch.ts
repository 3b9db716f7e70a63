/**
 * Typed arrays a ranking takes for its own duration (the terms' per-candidate features, and
 * bucketSort's candidate groups, cost columns, counting sorts and the query's word-id map), and a
 * page's formatting for its token columns (format.ts), carved out of memory kept from one call to
 * the next in this thread. Allocated one by one they came to ~140 KB per search (31.5 MiB per
 * round of movies' 224 queries), all of it external memory to V8, whose growth set off
 * collections that found nothing to free and paused later searches by 10–14 ms
 * (bench/RESULTS.md); and a large value's token columns were fresh pages at every highlight.
 *
 * Rankings and formattings run synchronously, so one scratch per thread serves them all:
 * `withScratch` hands out arrays for the length of a call and takes them all back when it returns
 * (calls nest). An array from here must not outlive that call; taking one outside any call throws.
 */

const ALIGN = 8;
const FIRST_BYTES = 1 << 20;
/** The most memory kept between rankings: a larger ranking's arrays are let go after it. */
const KEPT_BYTES = 16 << 20;

let chunks: ArrayBuffer[] = [new ArrayBuffer(FIRST_BYTES)];
let chunk = 0;
let offset = 0;
let depth = 0;

/** Runs `use` with the scratch open; every array taken during the call is free again after it. */
export function withScratch<T>(use: () => T): T {
  const markChunk = chunk;
  const markOffset = offset;
  depth++;
  try {
    return use();
  } finally {
    depth--;
    chunk = markChunk;
    offset = markOffset;
    if (depth === 0 && chunks.length > 1) {
      // the ranking outgrew the first chunk: one chunk of what it took (within the bound) next time
      const total = chunks.reduce((sum, buffer) => sum + buffer.byteLength, 0);
      chunks = [new ArrayBuffer(Math.min(total, KEPT_BYTES))];
    }
  }
}

/** A zeroed Int32Array of `length`, valid until the enclosing `withScratch` returns. */
export function scratchInt32(length: number): Int32Array {
  const [buffer, at] = take(length * 4);
  return new Int32Array(buffer, at, length).fill(0);
}

/** A zeroed Uint32Array of `length`, valid until the enclosing `withScratch` returns. */
export function scratchUint32(length: number): Uint32Array {
  const [buffer, at] = take(length * 4);
  return new Uint32Array(buffer, at, length).fill(0);
}

/** A Uint16Array of `length` filled with `value` (zeroed), valid until the enclosing `withScratch` returns. */
export function scratchUint16(length: number, value = 0): Uint16Array {
  const [buffer, at] = take(length * 2);
  return new Uint16Array(buffer, at, length).fill(value);
}

/** A Uint8Array of `length` filled with `value` (zeroed), valid until the enclosing `withScratch` returns. */
export function scratchUint8(length: number, value = 0): Uint8Array {
  const [buffer, at] = take(length);
  return new Uint8Array(buffer, at, length).fill(value);
}

/** `bytes` (rounded up to ALIGN) in the current chunk, or the next one, made if need be. */
function take(bytes: number): [ArrayBuffer, number] {
  if (depth === 0) throw new Error('a scratch array was taken outside withScratch');
  const size = Math.ceil(bytes / ALIGN) * ALIGN;
  for (;;) {
    const current = chunks[chunk]!;
    if (offset + size <= current.byteLength) {
      const at = offset;
      offset += size;
      return [current, at];
    }
    chunk++;
    offset = 0;
    if (chunk === chunks.length) chunks.push(new ArrayBuffer(Math.max(size, current.byteLength * 2)));
  }
}
