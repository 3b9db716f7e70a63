/**
 * The documents route's reading of payload documents (NDJSON lines, JSON array elements): JSON
 * objects (valid UTF-8) that nest no deeper than the body reader lets a document nest, found by
 * the JSON line kernel in one pass instead of a UTF-8 check, JSON.parse and a scan, or the
 * byte-by-byte cutter, on the HTTP thread. Runs of compact ones, each followed by its newline or
 * comma (`CompactRuns`), are checked a window of a chunk at a time and stored as they are; one
 * where a run stops, spaced out or not (`SpacedObjects`), is written compact by the kernel. A
 * document it does not take (invalid, or longer than MAX_KERNEL_BYTES) is read by the body
 * reader's cutter, which compacts it or reports the error. A service because the route layer may
 * not call kernels itself.
 */
import { compactedJsonObject, compactObjectRun, JSON_OBJECT_TRUNCATED } from '../kernels/json-line.js';

/**
 * The longest document the kernel is given: it copies what it checks into its thread's memory,
 * which never shrinks, so a larger one (rare) is left to the cutter.
 */
export const MAX_KERNEL_BYTES = 1 << 20;

/** The smallest first look at an object. */
const MIN_WINDOW = 64;

/** A payload document written compact (`SpacedObjects.objectIn`). */
export interface FoundObject {
  /** where it ends in the chunk */
  readonly end: number;
  /**
   * its bytes without whitespace between tokens: a copy out of the kernel's memory, which its next
   * call overwrites, in Node's pooled buffers (a fresh ArrayBuffer per document, as `slice` makes,
   * cost ~2.5 µs, about 7 times as much)
   */
  readonly compact: Buffer;
  /** newlines among the whitespace left out */
  readonly newlines: number;
}

/**
 * Finds the JSON objects that start at a place of a chunk, spaced out or not (Python's
 * `json.dumps`, pretty-printed documents, a compact object where a run stops), and writes them
 * compact. Each look copies its bytes into the kernel's memory, so the first look at an object
 * takes about twice the last object's size, and a look the object goes past is widened four
 * times over: the bytes copied stay within a small multiple of the object's own.
 */
export class SpacedObjects {
  private window = MIN_WINDOW;

  /**
   * The object nested at most `maxDepth` deep that starts at `chunk[from]`, or null (also for one
   * longer than MAX_KERNEL_BYTES, or one the chunk ends before).
   */
  objectIn(chunk: Uint8Array, from: number, maxDepth: number): FoundObject | null {
    const rest = Math.min(chunk.length - from, MAX_KERNEL_BYTES);
    for (let size = Math.min(rest, this.window); ; size = Math.min(rest, 4 * size)) {
      const found = compactedJsonObject(chunk.subarray(from, from + size), maxDepth);
      if (typeof found !== 'number') {
        this.window = 2 * found.length;
        return { end: from + found.length, compact: Buffer.from(found.compact), newlines: found.newlines };
      }
      if (found !== JSON_OBJECT_TRUNCATED || size === rest) return null;
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
        if (run.lines !== null) pieces.push({ lines: Buffer.from(run.lines), count: run.count });
      }
      // stopped at something else than an object, by the chunk's end, or by an object longer than the kernel takes
      if (!run.truncated || take === rest || (run.count === 0 && take === MAX_KERNEL_BYTES)) break;
    }
    if (count > 0) this.window = Math.max(MIN_WINDOW, end - from, 2 * Math.ceil((end - from) / count));
    return { end, count, pieces };
  }
}
