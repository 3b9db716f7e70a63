/**
 * Typed wrapper of the JSON line kernel (assembly/json-line.ts): whether a payload line is one
 * compact JSON object, valid UTF-8, nested at most `maxDepth` deep, with no whitespace outside
 * its strings. The documents route asks it of every NDJSON line it would store as it is
 * (http/body/documents/ndjson.ts); reference/json-line.ts is the tests' oracle (UTF-8 check,
 * JSON.parse and a scan), which the kernel must agree with on every input.
 *
 * A call resets this thread's arena and copies the line in: nothing is kept between calls.
 */
import { getKernels, type Kernels } from './module.js';

interface JsonLineExports {
  jsonObjectLine(ptr: number, len: number, maxDepth: number): number;
}

/** Deepest `maxDepth` the kernel takes (assembly JSON_LINE_MAX_DEPTH); a deeper one answers false. */
export const JSON_LINE_MAX_DEPTH = 1024;

let threadKernels: Kernels | undefined;

/** Whether `line` is one compact JSON object nested at most `maxDepth` deep (`kernels`: this thread's by default). */
export function isCompactJsonObject(line: Uint8Array, maxDepth: number, kernels: Kernels = (threadKernels ??= getKernels())): boolean {
  const { arena, exports } = kernels;
  arena.reset();
  const ptr = arena.alloc(line.length);
  arena.u8.set(line, ptr);
  return (exports as unknown as JsonLineExports).jsonObjectLine(ptr, line.length, maxDepth) === 1;
}
