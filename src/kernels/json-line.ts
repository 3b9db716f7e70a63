/**
 * Typed wrapper of the JSON line kernel (assembly/json-line.ts): the length of the compact JSON
 * object (valid UTF-8, nested at most `maxDepth` deep, no whitespace outside its strings) that
 * some bytes start with. The documents route asks it of every NDJSON line and JSON array element
 * it would store as it is (http/body/documents/); reference/json-line.ts is the tests' oracle
 * (UTF-8 check, JSON.parse and a scan), which the kernel must agree with on every input.
 *
 * A call resets this thread's arena and copies the bytes in: nothing is kept between calls.
 */
import { getKernels, type Kernels } from './module.js';

interface JsonLineExports {
  jsonObjectLength(ptr: number, len: number, maxDepth: number): number;
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

/** Whether `line` is exactly one compact JSON object nested at most `maxDepth` deep. */
export function isCompactJsonObject(line: Uint8Array, maxDepth: number, kernels?: Kernels): boolean {
  return compactJsonObjectLength(line, maxDepth, kernels) === line.length;
}
