/**
 * Loads the WebAssembly kernels (assembly/ compiled to build/kernels.{debug,release}.wasm).
 * The typed wrappers (tokenizer.ts, ...) call `getKernels()`; nothing else touches WASM.
 *
 * - Compile once, instantiate per thread: `compileKernelModule()` caches the compiled module per
 *   variant, and a WebAssembly.Module can be posted to a worker, which calls `instantiateKernels`
 *   with it (each worker then has its own linear memory). `getKernels()` does both lazily and
 *   caches the instance for the calling thread.
 * - Variant: release by default; debug when QUARRY_KERNELS=debug, or under vitest (VITEST is set),
 *   unless QUARRY_KERNELS=release.
 * - Kernels never throw on bad input (they return KernelStatus codes); a trap or an `abort` is a
 *   bug, and `abort` surfaces as KernelAbortError naming the AssemblyScript file and line.
 * Synchronous on purpose: the engine stays synchronous and the binaries are small.
 * The binary's bytes come from kernel-binary.ts, the one file here that reads the file system
 * (the browser build puts the bytes it fetched in its place: browser/host/kernel-binary.ts).
 */
import { KernelArena, type WasmMemory } from './arena.js';
import { readKernelBinary, type KernelVariant } from './kernel-binary.js';

export type { KernelVariant };

/** A compiled WebAssembly.Module (opaque here; it can be posted to a worker). */
export type WasmModule = object;

export type WasmImports = Record<string, Record<string, (...args: never[]) => unknown>>;

/** The slice of the WebAssembly JS API used here; lib ES2023 and @types/node 20 do not declare it. */
interface WasmApi {
  Module: new (bytes: Uint8Array) => WasmModule;
  Instance: new (module: WasmModule, imports: WasmImports) => { readonly exports: Record<string, unknown> };
  Global: abstract new (...args: never[]) => { readonly value: unknown };
}

const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The ABI this host speaks; assembly/index.ts ABI_VERSION must match. */
export const KERNELS_ABI_VERSION = 12;

/** Negative return values of every kernel export (assembly/errors.ts). */
export const KernelStatus = {
  OutOfCapacity: -1,
  BadSpan: -2,
  BadRules: -3,
  BadBreaks: -4,
} as const;

/** The entry points of the kernels module, as the host calls them. */
export interface KernelExports {
  readonly memory: WasmMemory;
  arenaBase(): number;
  tokenize(
    inPtr: number,
    inLen: number,
    tablePtr: number,
    nStrings: number,
    outPtr: number,
    outCap: number,
    normPtr: number,
    normCap: number,
    flags: number,
    rulesPtr: number,
    rulesLen: number,
    breaksPtr: number,
    nBreaks: number,
    langsPtr: number,
  ): number;
}

/** One instantiated kernels module: its exports, its arena and its exported constants. */
export interface Kernels {
  readonly variant: KernelVariant;
  readonly exports: KernelExports;
  readonly arena: KernelArena;
  /** Value of an exported constant (layout fields, status codes); throws if there is none. */
  constant(name: string): number;
}

/** Raised when a kernel calls `abort` (a failed assertion in a debug build, or an explicit abort). */
export class KernelAbortError extends Error {
  readonly file: string;
  readonly line: number;
  readonly column: number;

  constructor(message: string, file: string, line: number, column: number) {
    super(`kernel abort: ${message || 'no message'} (${file || 'unknown file'}:${line}:${column})`);
    this.name = 'KernelAbortError';
    this.file = file;
    this.line = line;
    this.column = column;
  }
}

const compiled = new Map<KernelVariant, WasmModule>();
const instances = new Map<KernelVariant, Kernels>();

/** The variant this process uses when none is asked for. */
export function defaultKernelVariant(env: NodeJS.ProcessEnv = process.env): KernelVariant {
  if (env.QUARRY_KERNELS === 'debug' || env.QUARRY_KERNELS === 'release') return env.QUARRY_KERNELS;
  return env.VITEST ? 'debug' : 'release';
}

/** Compiles the variant's binary once per thread; the module can be posted to workers. */
export function compileKernelModule(variant: KernelVariant = defaultKernelVariant()): WasmModule {
  let module = compiled.get(variant);
  if (!module) {
    module = new wasm.Module(readKernelBinary(variant));
    compiled.set(variant, module);
  }
  return module;
}

/**
 * The host functions a kernels module may import. `memory` is read lazily because the imports
 * exist before the instance (and its memory) does.
 */
export function createKernelImports(memory: () => WasmMemory | undefined): WasmImports {
  return {
    env: {
      abort(messagePtr: number, filePtr: number, line: number, column: number): never {
        const mem = memory();
        throw new KernelAbortError(
          mem ? readAssemblyString(mem, messagePtr) : '',
          mem ? readAssemblyString(mem, filePtr) : '',
          line,
          column,
        );
      },
    },
  };
}

/** A fresh instance of a compiled kernels module, with its own memory and arena. */
export function instantiateKernels(module: WasmModule, variant: KernelVariant): Kernels {
  let memory: WasmMemory | undefined;
  const instance = new wasm.Instance(module, createKernelImports(() => memory));
  const exports = instance.exports as unknown as KernelExports & Record<string, unknown>;
  memory = exports.memory;
  const constant = (name: string): number => {
    const value = exports[name];
    if (!(value instanceof wasm.Global)) throw new Error(`the kernels module exports no constant ${name}`);
    return Number(value.value);
  };
  const abi = constant('ABI_VERSION');
  if (abi !== KERNELS_ABI_VERSION) {
    throw new Error(`kernels ABI ${abi} does not match the host's ${KERNELS_ABI_VERSION}; rebuild with \`npm run build:wasm\``);
  }
  return { variant, exports, arena: new KernelArena(memory, exports.arenaBase()), constant };
}

// read once: getKernels runs per search and process.env lookups are slow
let threadVariant: KernelVariant | undefined;

/** This thread's kernels instance for `variant`, created on first use. */
export function getKernels(variant: KernelVariant = (threadVariant ??= defaultKernelVariant())): Kernels {
  let kernels = instances.get(variant);
  if (!kernels) {
    kernels = instantiateKernels(compileKernelModule(variant), variant);
    instances.set(variant, kernels);
  }
  return kernels;
}

/** An AssemblyScript string: UTF-16LE code units, byte length in the u32 just before `ptr`. */
function readAssemblyString(memory: WasmMemory, ptr: number): string {
  if (ptr < 4 || ptr > memory.buffer.byteLength) return '';
  const view = new DataView(memory.buffer);
  const bytes = view.getUint32(ptr - 4, true);
  if (ptr + bytes > memory.buffer.byteLength) return '';
  let text = '';
  for (let at = ptr; at + 1 < ptr + bytes; at += 2) text += String.fromCharCode(view.getUint16(at, true));
  return text;
}
