/**
 * The documents route's check of payload documents it would store as they are (NDJSON lines, JSON
 * array elements): compact JSON objects (valid UTF-8, no whitespace outside strings) that nest
 * no deeper than the body reader lets a document nest, found by the JSON line kernel in one pass
 * instead of a UTF-8 check, JSON.parse and a scan, or the byte-by-byte cutter, on the HTTP thread.
 * Runs of them (`CompactRuns`) are checked a window of a chunk at a time, single ones where a run
 * stops. A document it does not take (or longer than MAX_KERNEL_BYTES) is read by the body
 * reader's cutter, which compacts it or reports the error. A service because the route layer may
 * not call kernels itself.
 */
import { compactJsonObjectLength, compactObjectRun, isCompactJsonObject, JSON_OBJECT_TRUNCATED } from '../kernels/json-line.js';

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

/** A run's documents as NDJSON lines, from one window of it (`CompactRuns.runIn` with `asLines`). */
export interface RunPiece {
  readonly lines: Uint8Array;
  readonly count: number;
}

/** A run of compact objects found in a chunk. */
export interface CompactRun {
  /** where the run ends in the chunk (past its last separator) */
  readonly end: number;
  /** its objects */
  readonly count: number;
  /** with `asLines`: the run as NDJSON lines, a piece per window; else empty */
  readonly pieces: readonly RunPiece[];
}

/**
 * Finds the runs of compact objects, each followed by one separator byte, that start at a place of
 * a chunk: NDJSON's `{…}\n` lines, a JSON array's `{…},` elements, a kernel call per window of a
 * run rather than one per document. Each window is copied into the kernel's memory: the first is
 * as long as the last run (at least two of its objects), and each window a run fills is followed
 * by one four times as large, so the bytes copied stay within a small multiple of the run's own
 * and of the run before it.
 */
export class CompactRuns {
  private window = MIN_WINDOW;

  /**
   * The run of compact objects nested at most `maxDepth` deep, each followed by the byte
   * `separator`, that starts at `chunk[from]` (none when the chunk ends first); `asLines` also
   * answers it as NDJSON lines (copies: each separator a newline).
   */
  runIn(chunk: Uint8Array, from: number, maxDepth: number, separator: number, asLines: boolean): CompactRun {
    let end = from;
    let count = 0;
    const pieces: RunPiece[] = [];
    for (let size = this.window; ; size *= 4) {
      const rest = chunk.length - end;
      const take = Math.min(rest, size, MAX_KERNEL_BYTES);
      const run = compactObjectRun(chunk.subarray(end, end + take), maxDepth, separator, asLines);
      if (run.count > 0) {
        end += run.length;
        count += run.count;
        if (run.lines !== null) pieces.push({ lines: run.lines, count: run.count });
      }
      // stopped at something else than an object, by the chunk's end, or by an object longer than the kernel takes
      if (!run.truncated || take === rest || (run.count === 0 && take === MAX_KERNEL_BYTES)) break;
    }
    if (count > 0) this.window = Math.max(MIN_WINDOW, end - from, 2 * Math.ceil((end - from) / count));
    return { end, count, pieces };
  }
}
