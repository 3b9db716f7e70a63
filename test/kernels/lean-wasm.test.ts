// compileLean (src/kernels/lean-wasm.ts) on a hand-made module: large active segments leave the
// compiled module and land, on install, exactly where instantiation puts them; small, passive and
// non-constant segments stay in it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import type { WasmMemory } from '../../src/kernels/arena.js';
import { compileLean } from '../../src/kernels/lean-wasm.js';
import type { WasmModule } from '../../src/kernels/module.js';

/** The WebAssembly API this test uses (lib ES2023 and @types/node do not declare it). */
const wasm = (globalThis as unknown as {
  WebAssembly: {
    Module: new (bytes: Uint8Array) => WasmModule;
    Instance: new (module: WasmModule, imports: object) => { readonly exports: Record<string, unknown> };
    Global: new (descriptor: { value: 'i32' }, value: number) => object;
  };
}).WebAssembly;

const dir = mkdtempSync(path.join(tmpdir(), 'lean-wasm-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const leb = (value: number): number[] => {
  const out: number[] = [];
  do {
    let byte = value & 0x7f;
    value >>>= 7;
    if (value !== 0) byte |= 0x80;
    out.push(byte);
  } while (value !== 0);
  return out;
};
const section = (id: number, content: number[]): number[] => [id, ...leb(content.length), ...content];
const name = (text: string): number[] => [text.length, ...Buffer.from(text)];

const BIG = Array.from({ length: 3000 }, (_, i) => (i * 7 + 1) & 0xff);
const BIG_AT = 200; // its i32.const is 2 bytes of signed LEB128 (0xc8 0x01)
const GLOBAL_BIG = Array.from({ length: 1500 }, (_, i) => (i * 3 + 5) & 0xff);
const GLOBAL_BIG_AT = 4000;

/**
 * One page of memory (exported), `load(i32) -> i32` reading a byte, a global holding 4000, and
 * segments: 3 bytes at 8, a passive one, BIG at 200, GLOBAL_BIG at the global's value.
 */
function module(): Uint8Array {
  const segments = [
    [0x00, 0x41, 8, 0x0b, ...leb(3), 1, 2, 3],
    [0x01, ...leb(2), 9, 9],
    [0x00, 0x41, ...[0xc8, 0x01], 0x0b, ...leb(BIG.length), ...BIG],
    [0x00, 0x23, 0, 0x0b, ...leb(GLOBAL_BIG.length), ...GLOBAL_BIG],
  ];
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 1, 0x7f, 1, 0x7f]),
    ...section(2, [1, ...name('env'), ...name('at'), 0x03, 0x7f, 0x00]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('load'), 0x00, 0]),
    ...section(12, [segments.length]),
    ...section(10, [1, ...leb(7), 0, 0x20, 0, 0x2d, 0, 0, 0x0b]),
    ...section(11, [segments.length, ...segments.flat()]),
  ]);
}

function write(bytes: Uint8Array, file: string): string {
  const full = path.join(dir, file);
  writeFileSync(full, bytes);
  return full;
}

function instantiate(compiled: WasmModule): { memory: WasmMemory; load(at: number): number } {
  const { exports } = new wasm.Instance(compiled, { env: { at: new wasm.Global({ value: 'i32' }, GLOBAL_BIG_AT) } });
  return exports as unknown as { memory: WasmMemory; load(at: number): number };
}

const bytesAt = (memory: WasmMemory, at: number, length: number) => [...new Uint8Array(memory.buffer, at, length)];

describe('compileLean', () => {
  const file = write(module(), 'module.wasm');

  it('compiles the module without its large constant-offset segments, and install writes them where instantiation would', () => {
    const whole = instantiate(new wasm.Module(module()));
    const lean = compileLean(file, 1000);
    const { memory, load } = instantiate(lean.module);
    expect(load(BIG_AT)).toBe(0);
    lean.install(memory);
    expect(bytesAt(memory, 0, 8192)).toEqual(bytesAt(whole.memory, 0, 8192));
    expect(bytesAt(memory, BIG_AT, BIG.length)).toEqual(BIG);
  });

  it('keeps segments under the threshold, and a large one at a global offset, in the module', () => {
    const lean = compileLean(file, 1000);
    const { memory } = instantiate(lean.module);
    expect(bytesAt(memory, 8, 3)).toEqual([1, 2, 3]);
    expect(bytesAt(memory, GLOBAL_BIG_AT, GLOBAL_BIG.length)).toEqual(GLOBAL_BIG);
    const kept = instantiate(compileLean(file, 4000).module);
    expect(bytesAt(kept.memory, BIG_AT, BIG.length)).toEqual(BIG);
  });

  it('fails on install when the file no longer holds the segment', () => {
    const truncated = write(module(), 'truncated.wasm');
    const lean = compileLean(truncated, 1000);
    writeFileSync(truncated, module().subarray(0, 300));
    expect(() => lean.install(instantiate(lean.module).memory)).toThrow(/ended inside a data segment/);
  });
});
