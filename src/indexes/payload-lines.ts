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

/**
 * The smallest first look at an element, and the look after an element that was not a compact
 * object: such an element (spaced out) is refused within its first bytes.
 */
const MIN_WINDOW = 64;

/**
 * Finds where compact objects that start at a place of a chunk end. Each look copies its bytes
 * into the kernel's memory, so the first look at an element takes about twice the last compact
 * object's size (a chunk of many small objects is not copied once per object), and a look the
 * element goes past is widened four times over: the bytes copied stay within a small multiple
 * of the element's own.
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
        this.window = 2 * length;
        return from + length;
      }
      if (length !== JSON_OBJECT_TRUNCATED || size === rest) {
        this.window = MIN_WINDOW;
        return -1;
      }
    }
  }
}
