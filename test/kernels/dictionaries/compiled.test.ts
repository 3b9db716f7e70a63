// Compiled dictionary files (src/kernels/dictionaries/compiled.ts): every array type and value
// read back as written, each array aligned for its type; and a file that is missing, of another
// source or format, cut short, or naming an array type that is no typed array is not used (the
// dictionary is then read from its package).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

import { writeCompiledDictionary, type DictionaryParts } from '../../../src/kernels/dictionaries/compiled.js';
import { readWhole } from '../../helpers/compiled-dictionaries.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-compiled-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PARTS: DictionaryParts = {
  arrays: {
    bytes: Uint8Array.of(1, 2, 3),
    halves: Uint16Array.of(65535, 7),
    signed: Int16Array.of(-32768, 5, 32767),
    units: Uint32Array.of(0x80000000, 1, 2, 3, 4),
    ints: Int32Array.of(-1),
    weights: Float64Array.of(-12.5, Math.PI),
    empty: new Uint32Array(0),
  },
  values: { longest: 17, weight: -9.25, names: ['DEFAULT', 'KANJI', 'HANGUL'] },
};

function written(name: string, source = 'pkg@1.0.0 module.wasm 42', parts = PARTS): string {
  const file = join(dir, `${name}.bin`);
  writeCompiledDictionary(file, source, parts);
  return file;
}

describe('compiled dictionary files', () => {
  it('read back every array and value as written, each array aligned for its type', () => {
    const read = readWhole(written('round-trip'), 'pkg@1.0.0 module.wasm 42')!;
    expect(read.values).toEqual(PARTS.values);
    expect(Object.keys(read.arrays)).toEqual(Object.keys(PARTS.arrays));
    for (const [key, array] of Object.entries(PARTS.arrays)) {
      const back = read.arrays[key]!;
      expect(back.constructor).toBe(array.constructor);
      expect([...back]).toEqual([...array]);
      expect(back.byteOffset % back.BYTES_PER_ELEMENT).toBe(0);
    }
  });

  it('write arrays that are views into a larger buffer as the views, not their buffers', () => {
    const whole = Uint16Array.of(9, 8, 7, 6, 5);
    const read = readWhole(written('views', 's', { arrays: { middle: whole.subarray(1, 4) }, values: {} }), 's')!;
    expect([...read.arrays.middle!]).toEqual([8, 7, 6]);
  });

  it('are not used when missing, or compiled from another source', () => {
    expect(readWhole(join(dir, 'missing.bin'), 'pkg@1.0.0 module.wasm 42')).toBeUndefined();
    expect(readWhole(undefined, 'pkg@1.0.0 module.wasm 42')).toBeUndefined();
    expect(readWhole(written('other-source'), 'pkg@1.0.1 module.wasm 42')).toBeUndefined();
  });

  it('are not used when cut short, lengthened, of another format or not a compiled dictionary', () => {
    const bytes = readFileSync(written('damaged'));
    const variant = (name: string, changed: Buffer) => {
      const file = join(dir, `${name}.bin`);
      writeFileSync(file, changed);
      return readWhole(file, 'pkg@1.0.0 module.wasm 42');
    };
    expect(variant('short', bytes.subarray(0, bytes.length - 8))).toBeUndefined();
    expect(variant('long', Buffer.concat([bytes, Buffer.alloc(8)]))).toBeUndefined();
    const format = Buffer.from(bytes);
    format[5] = 2;
    expect(variant('format', format)).toBeUndefined();
    expect(variant('text', Buffer.from('word 3 n\n'))).toBeUndefined();
    expect(variant('empty', Buffer.alloc(0))).toBeUndefined();
  });

  it('are not used when the header, valid JSON of the right source, does not hold together', () => {
    // the format laid out by hand: "QDICT", format 1, the header's length, the header, the data from the next multiple of 8
    const raw = (name: string, header: object) => {
      const json = Buffer.from(JSON.stringify(header));
      const base = Math.ceil((10 + json.length) / 8) * 8;
      const out = Buffer.alloc(base + 8);
      out.write('QDICT', 0, 'latin1');
      out[5] = 1;
      out.writeUInt32LE(json.length, 6);
      json.copy(out, 10);
      const file = join(dir, `${name}.bin`);
      writeFileSync(file, out);
      return readWhole(file, 's');
    };
    const units = { type: 'Uint32Array', offset: 0, length: 2 };
    expect(raw('sound', { source: 's', bytes: 8, values: {}, arrays: { units } })).toBeDefined();
    expect(raw('no-arrays', { source: 's', bytes: 8, values: {}, arrays: null })).toBeUndefined();
    expect(raw('no-values', { source: 's', bytes: 8, arrays: { units } })).toBeUndefined();
    expect(raw('not-an-object', ['s', 8])).toBeUndefined();
    expect(raw('negative', { source: 's', bytes: 8, values: {}, arrays: { units: { ...units, offset: -8 } } })).toBeUndefined();
    expect(raw('fraction', { source: 's', bytes: 8, values: {}, arrays: { units: { ...units, length: 1.5 } } })).toBeUndefined();
    expect(raw('bytes', { source: 's', bytes: '8', values: {}, arrays: { units } })).toBeUndefined();
  });

  it('are not used when the header names an array type that is no typed array', () => {
    const bytes = readFileSync(written('typed', 's', { arrays: { units: Uint32Array.of(1, 2) }, values: {} }));
    const headerLength = bytes.readUInt32LE(6);
    const header = bytes.toString('utf8', 10, 10 + headerLength).replace('"Uint32Array"', '"constructor"');
    const changed = Buffer.from(bytes);
    changed.write(header.padEnd(headerLength), 10, 'utf8');
    const file = join(dir, 'constructor.bin');
    writeFileSync(file, changed);
    expect(header).toContain('"constructor"');
    expect(readWhole(file, 's')).toBeUndefined();
  });
});
