/**
 * The documents route's check of a payload document it would store as it is (an NDJSON line, a
 * JSON array element): one compact JSON object (valid UTF-8, no whitespace outside strings) that
 * nests no deeper than the body reader lets a document nest, found by the JSON line kernel in
 * one pass instead of a UTF-8 check, JSON.parse and a scan, or the byte-by-byte cutter, on the
 * HTTP thread. A document it does not take (or longer than MAX_KERNEL_BYTES) is read by the body
 * reader's cutter, which compacts it or reports the error. A service because the route layer may
 * not call kernels itself.
 */
import { compactJsonObjectLength, isCompactJsonObject, JSON_OBJECT_TRUNCATED } from '../kernels/json-line.js';

/**
 * The longest document the kernel is given: it copies what it checks into its thread's memory,
 * which never shrinks, so a larger one (rare) is left to the cutter.
 */
export const MAX_KERNEL_BYTES = 1 << 20;

/** Whether `line` is exactly one compact object nested at most `maxDepth` deep (false past MAX_KERNEL_BYTES). */
export function isCompactObjectLine(line: Uint8Array, maxDepth: number): boolean {
  return line.length <= MAX_KERNEL_BYTES && isCompactJsonObject(line, maxDepth);
}

/** Bytes the first look at an element takes, at least. */
const MIN_WINDOW = 1024;

/**
 * Finds where compact objects that start at a place of a chunk end, looking at a window of about
 * twice the last object's size first, so that a chunk of many small objects is not copied into
 * the kernel's memory once per object.
 */
export class CompactObjects {
  private window = MIN_WINDOW;

  /**
   * Where the compact object nested at most `maxDepth` deep that starts at `chunk[from]` ends, or
   * -1 (also for one longer than MAX_KERNEL_BYTES).
   */
  endIn(chunk: Uint8Array, from: number, maxDepth: number): number {
    const rest = Math.min(chunk.length - from, MAX_KERNEL_BYTES);
    for (let size = Math.min(rest, this.window); ; size = Math.min(rest, 4 * size)) {
      const length = compactJsonObjectLength(chunk.subarray(from, from + size), maxDepth);
      if (length > 0) {
        this.window = Math.max(MIN_WINDOW, 2 * length);
        return from + length;
      }
      if (length !== JSON_OBJECT_TRUNCATED || size === rest) return -1;
    }
  }
}
