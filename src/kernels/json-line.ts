/**
 * Typed wrapper of the JSON line kernel (assembly/json-line.ts): the length of the compact JSON
 * object (valid UTF-8, nested at most `maxDepth` deep, no whitespace outside its strings) that
 * some bytes start with, the run of such objects, each followed by one separator byte, that
 * they start with, and the compact form of a JSON object they start with that has whitespace
 * between its tokens. The documents route asks for runs of NDJSON lines and JSON array elements it
 * would store as they are, and for the compact form of an object where a run stops
 * (indexes/payload-lines.ts); the single compact object's length, which both build on, is asked
 * only by the tests, which hold it to reference/json-line.ts (UTF-8 check, JSON.parse and a
 * scan): the kernel must agree with it on every input.
 *
 * A call resets this thread's arena and copies the bytes in: what it answers in the kernel's
 * memory is valid until the thread's next kernel call.
 */
import { RESULT_OUTPUT_BYTES, RESULT_RECORDS } from './arena.js';
import { getKernels, type Kernels } from './module.js';

interface JsonLineExports {
  jsonObjectLength(ptr: number, len: number, maxDepth: number): number;
  compactObjectRun(ptr: number, len: number, maxDepth: number, separator: number, newlines: boolean): number;
  spacedJsonObject(ptr: number, len: number, maxDepth: number): number;
}

/** No compact object within the limits starts the bytes (assembly JSON_OBJECT_INVALID). */
export const JSON_OBJECT_INVALID = -1;
/** The bytes end before the object does: more bytes could complete it (assembly JSON_OBJECT_TRUNCATED). */
export const JSON_OBJECT_TRUNCATED = -2;

let threadKernels: Kernels | undefined;

/**
 * The length of the compact JSON object nested at most `maxDepth` deep that `bytes` start with,
 * JSON_OBJECT_INVALID or JSON_OBJECT_TRUNCATED (`kernels`: this thread's by default).
 */
export function compactJsonObjectLength(bytes: Uint8Array, maxDepth: number, kernels: Kernels = (threadKernels ??= getKernels())): number {
  const { arena, exports } = kernels;
  arena.reset();
  const ptr = arena.alloc(bytes.length);
  arena.u8.set(bytes, ptr);
  return (exports as unknown as JsonLineExports).jsonObjectLength(ptr, bytes.length, maxDepth);
}

/** A run of compact objects, each followed by its separator byte (`compactObjectRun`). */
export interface ObjectRun {
  /** bytes the run spans, through its last separator */
  readonly length: number;
  /** objects in the run */
  readonly count: number;
  /** whether the bytes ended inside the object after the run (or right after it, before its separator) */
  readonly truncated: boolean;
  /** with `asLines`: the run's bytes with each separator a newline, in the kernel's memory (valid until this thread's next kernel call); else null */
  readonly lines: Uint8Array | null;
}

/**
 * The run of compact JSON objects nested at most `maxDepth` deep, each followed by exactly one
 * `separator` byte, that `bytes` start with. `asLines` also answers the run as NDJSON lines
 * (each separator a newline), for a JSON array's `{…},` elements.
 */
export function compactObjectRun(bytes: Uint8Array, maxDepth: number, separator: number, asLines: boolean, kernels: Kernels = (threadKernels ??= getKernels())): ObjectRun {
  const { arena, exports } = kernels;
  arena.reset();
  const ptr = arena.alloc(bytes.length);
  arena.u8.set(bytes, ptr);
  const answer = (exports as unknown as JsonLineExports).compactObjectRun(ptr, bytes.length, maxDepth, separator, asLines);
  const length = answer < 0 ? -answer - 1 : answer;
  return {
    length,
    count: arena.result(RESULT_RECORDS),
    truncated: answer < 0,
    lines: asLines ? arena.u8.subarray(ptr, ptr + length) : null,
  };
}

/** A JSON object with whitespace between its tokens, written compact (`compactedJsonObject`). */
export interface CompactedObject {
  /** its bytes in the input */
  readonly length: number;
  /** the object without that whitespace, in the kernel's memory (valid until this thread's next kernel call) */
  readonly compact: Uint8Array;
  /** newlines among the whitespace left out */
  readonly newlines: number;
}

/**
 * The JSON object nested at most `maxDepth` deep that `bytes` start with, whitespace allowed
 * between its tokens, written compact; or JSON_OBJECT_INVALID or JSON_OBJECT_TRUNCATED as
 * `compactJsonObjectLength` answers them.
 */
export function compactedJsonObject(bytes: Uint8Array, maxDepth: number, kernels: Kernels = (threadKernels ??= getKernels())): CompactedObject | number {
  const { arena, exports } = kernels;
  arena.reset();
  const ptr = arena.alloc(bytes.length);
  arena.u8.set(bytes, ptr);
  // written compact in place
  const length = (exports as unknown as JsonLineExports).spacedJsonObject(ptr, bytes.length, maxDepth);
  if (length < 0) return length;
  return { length, compact: arena.u8.subarray(ptr, ptr + arena.result(RESULT_OUTPUT_BYTES)), newlines: arena.result(RESULT_RECORDS) };
}
