// largeDataSegments (src/kernels/wasm-file.ts) on a hand-made module: each large active
// segment at a constant offset is listed with where instantiation puts it and where its bytes are
// in the file; small, passive and non-constant segments are not.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';

import type { WasmMemory } from '../../src/kernels/arena.js';
import type { WasmModule } from '../../src/kernels/module.js';
import { largeDataSegments } from '../../src/kernels/wasm-file.js';

/** The WebAssembly API this test uses (lib ES2023 and @types/node do not declare it). */
const wasm = (globalThis as unknown as {
  WebAssembly: {
    Module: new (bytes: Uint8Array) => WasmModule;
    Instance: new (module: WasmModule, imports: object) => { readonly exports: Record<string, unknown> };
    Global: new (descriptor: { value: 'i32' }, value: number) => object;
  };
}).WebAssembly;

const dir = mkdtempSync(path.join(tmpdir(), 'wasm-file-'));
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

function instantiate(bytes: Uint8Array): WasmMemory {
  const { exports } = new wasm.Instance(new wasm.Module(bytes), { env: { at: new wasm.Global({ value: 'i32' }, GLOBAL_BIG_AT) } });
  return exports.memory as WasmMemory;
}

describe('largeDataSegments', () => {
  const file = write(module(), 'module.wasm');

  it('lists a large segment at a constant offset: where instantiation puts it, and where its bytes are in the file', () => {
    const segments = largeDataSegments(file, 1000);
    expect(segments).toEqual([{ offset: BIG_AT, position: expect.any(Number), length: BIG.length }]);
    const { position } = segments[0]!;
    expect([...readFileSync(file).subarray(position, position + BIG.length)]).toEqual(BIG);
    expect([...new Uint8Array(instantiate(module()).buffer, BIG_AT, BIG.length)]).toEqual(BIG);
  });

  it('leaves out segments under the threshold, passive ones and those at a global offset', () => {
    expect(largeDataSegments(file, 1).map((segment) => [segment.offset, segment.length])).toEqual([
      [8, 3],
      [BIG_AT, BIG.length],
    ]);
    expect(largeDataSegments(file, 4000)).toEqual([]);
  });

  it("finds the dictionaries' segment of lindera-wasm's module", () => {
    const lindera = createRequire(import.meta.url).resolve('lindera-wasm/lindera_wasm_bg.wasm');
    expect(largeDataSegments(lindera).some((segment) => segment.length > 40_000_000)).toBe(true);
  });
});
