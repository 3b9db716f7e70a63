// The JSON line kernel against its reference (UTF-8 check, JSON.parse, a scan): fixed lines for
// every rule of the grammar, UTF-8's edges, depth and whitespace, then seeded random lines built
// from a small grammar and mutated byte by byte, so that the kernel never accepts a line the
// reference refuses, nor refuses one it accepts.
import { describe, expect, it } from 'vitest';

import { compactedJsonObject, compactJsonObjectLength, compactObjectRun, JSON_OBJECT_INVALID, JSON_OBJECT_TRUNCATED } from '../../src/kernels/json-line.js';
import { compactedJsonObjectReference, isCompactJsonObjectReference } from '../../src/kernels/reference/json-line.js';
import { mulberry32 } from '../helpers/random.js';

const DEPTH = 128;

const pick = <T>(random: () => number, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

/** Random JSON objects from a small grammar (`object(0)`), with `space()` between their tokens. */
function randomObjects(random: () => number, space: () => string): (depth: number) => string {
  const strings = ['""', '"a"', '"\\n"', '"\\u00e9"', '"é"', '"🙂"', '"a\\"b"', '"\\\\"', '"x y"', '" { , : } "'];
  const numbers = ['0', '-0', '1', '-12', '3.25', '1e9', '-2.5E-7', '90071992547409931', '1e99', '1e100', '1e-400', '2E+0308', '0.5e0012', '9'.repeat(201)];
  const value = (depth: number): string => {
    const roll = random();
    if (depth < 4 && roll < 0.15) return '[' + space() + Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1)).join(space() + ',' + space()) + space() + ']';
    if (depth < 4 && roll < 0.3) return object(depth + 1);
    if (roll < 0.55) return pick(random, strings);
    if (roll < 0.85) return pick(random, numbers);
    return pick(random, ['true', 'false', 'null']);
  };
  const object = (depth: number): string =>
    '{' + space() + Array.from({ length: Math.floor(random() * 4) }, () => pick(random, strings) + space() + ':' + space() + value(depth)).join(space() + ',' + space()) + space() + '}';
  return object;
}

/** `line` with one byte replaced by, or one byte removed, or one of `noise` inserted, at a random place. */
function mutated(random: () => number, line: Buffer, noise: readonly number[]): Buffer {
  const copy = Buffer.from(line);
  const at = Math.floor(random() * copy.length);
  const kind = random();
  if (kind < 0.4) {
    copy[at] = pick(random, noise);
    return copy;
  }
  if (kind < 0.7) return Buffer.concat([copy.subarray(0, at), copy.subarray(at + 1)]);
  return Buffer.concat([copy.subarray(0, at), Buffer.from([pick(random, noise)]), copy.subarray(at)]);
}

function check(line: Uint8Array | string, depth = DEPTH): boolean {
  const bytes = typeof line === 'string' ? Buffer.from(line, 'utf8') : line;
  const kernel = compactJsonObjectLength(bytes, depth) === bytes.length;
  const reference = isCompactJsonObjectReference(bytes, depth);
  if (kernel !== reference) expect({ line: Buffer.from(bytes).toString('hex'), kernel }).toEqual({ line: Buffer.from(bytes).toString('hex'), kernel: reference });
  return kernel;
}

describe('jsonObjectLine', () => {
  it('accepts compact objects of every kind of value', () => {
    for (const line of [
      '{}',
      '{"a":1}',
      '{"id":12,"title":"Carol","tags":["a","b"],"n":null,"t":true,"f":false,"o":{"x":[{},[]]}}',
      '{"a":-0,"b":0.5,"c":1e5,"d":1E+5,"e":-1.25e-3,"f":123456789012345678901234567890}',
      '{"s":"\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\ude00\\ud800"}',
      '{"é":"日本語 🙂","\u007f":"\u2028"}',
      '{"a":1,"a":2}',
      '{"":""}',
    ]) {
      expect(check(line), line).toBe(true);
    }
  });

  it('refuses what JSON.parse refuses or what is not one compact object', () => {
    for (const line of [
      '',
      '{',
      '}',
      '[]',
      '"a"',
      '{"a":1}{}',
      '{"a":1} ',
      '{ "a":1}',
      '{"a" :1}',
      '{"a":1,}',
      '{"a":[1,]}',
      '{"a":[1 ,2]}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":.5}',
      '{"a":+1}',
      '{"a":1e}',
      '{"a":-}',
      '{"a":--1}',
      '{"a":tru}',
      '{"a":True}',
      '{"a":nul}',
      '{"a":undefined}',
      '{"a":NaN}',
      '{a:1}',
      "{'a':1}",
      '{"a":"\\x41"}',
      '{"a":"\\u12G4"}',
      '{"a":"\\u123"}',
      '{"a":"tab\there"}',
      '{"a":"line\nbreak"}',
      '{"a":"unterminated}',
      '{"a":1]',
      '{"a":[1}',
      '{"a":{"b":1]}',
      '{"a"}',
      '{"a":}',
      '{,"a":1}',
      '{"a":1,,"b":2}',
    ]) {
      expect(check(line), line).toBe(false);
    }
  });

  it('leaves a number that may be past f64\'s range to the cutter: over 200 integer digits or a positive exponent of three digits', () => {
    for (const line of ['{"a":1e99}', '{"a":1e-999}', '{"a":1e+099}', '{"a":0.5e-00400}', `{"a":${'9'.repeat(200)}}`, `{"a":0.${'9'.repeat(400)}}`, '{"a":"1e400"}']) {
      expect(check(line), line).toBe(true);
    }
    for (const line of ['{"a":1e100}', '{"a":1E+400}', '{"a":-2e0308}', '{"a":0e999}', `{"a":${'9'.repeat(201)}}`, `{"a":-${'1'.repeat(201)}.5}`]) {
      expect(check(line), line).toBe(false);
    }
  });

  it('accepts UTF-8 exactly as it decodes and refuses overlong forms, surrogates and bytes past U+10FFFF', () => {
    const quoted = (...bytes: number[]) => Uint8Array.from([...Buffer.from('{"a":"'), ...bytes, ...Buffer.from('"}')]);
    for (const bytes of [[0xc2, 0x80], [0xdf, 0xbf], [0xe0, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xee, 0x80, 0x80], [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf]]) {
      expect(check(quoted(...bytes))).toBe(true);
    }
    for (const bytes of [[0x80], [0xc0, 0x80], [0xc1, 0xbf], [0xc2], [0xc2, 0x41], [0xe0, 0x9f, 0xbf], [0xed, 0xa0, 0x80], [0xf0, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff]]) {
      expect(check(quoted(...bytes))).toBe(false);
    }
    // a byte above 0x7f outside a string
    expect(check(Uint8Array.from([...Buffer.from('{"a":1'), 0xc3, 0xa9, 0x7d]))).toBe(false);
  });

  it('counts the object itself as depth 1 and refuses one bracket more than the limit', () => {
    const nested = (depth: number) => '{"a":' + '['.repeat(depth - 1) + ']'.repeat(depth - 1) + '}';
    expect(check(nested(DEPTH))).toBe(true);
    expect(check(nested(DEPTH + 1))).toBe(false);
    expect(check('{"a":"[[[[[[[[[["}', 2)).toBe(true);
    expect(check('{"a":{"b":{}}}', 2)).toBe(false);
    expect(check('{"a":{"b":{}}}', 3)).toBe(true);
    // beyond the kernel's stack: refused, never read past it
    const deep = Buffer.from(nested(10));
    expect(compactJsonObjectLength(deep, 5000) === deep.length).toBe(false);
  });

  it('finds a quote, backslash, control or non-ASCII byte at every place in long strings (16 bytes at a time)', () => {
    const specials = [[0x22], [0x5c, 0x6e], [0x5c, 0x22], [0x5c], [0x5c, 0x78], [0x0a], [0x00], [0x1f], [0x7f], [0xc3, 0xa9], [0xe2, 0x82], [0xff], [0x80]];
    let accepted = 0;
    let refused = 0;
    for (let length = 0; length <= 70; length++) {
      for (let at = 0; at <= length; at++) {
        for (const special of specials) {
          const content = [...Buffer.from('a'.repeat(at)), ...special, ...Buffer.from('b'.repeat(length - at))];
          for (const line of [Uint8Array.from([...Buffer.from('{"s":"'), ...content, ...Buffer.from('"}')]), Uint8Array.from([...Buffer.from('{"'), ...content, ...Buffer.from('":1}')])]) {
            if (check(line)) accepted++;
            else refused++;
          }
        }
      }
    }
    expect(accepted).toBeGreaterThan(10_000);
    expect(refused).toBeGreaterThan(10_000);
  });

  it('measures the object that starts the bytes, whatever follows it, and tells truncated bytes from refused ones', () => {
    const random = mulberry32(7);
    for (const line of ['{}', '{"a":1}', '{"a":[1,{"b":"c\\\\"}],"d":-0.5e-3,"e":true,"f":null,"g":"\\u00e9é"}', '{"k":"🙂","n":1234567890}']) {
      const bytes = Buffer.from(line, 'utf8');
      for (const suffix of ['', ',', ']', '{"x":1}', ' ', '\n', '\u00ff', '}']) {
        expect(compactJsonObjectLength(Buffer.concat([bytes, Buffer.from(suffix, 'utf8')]), DEPTH)).toBe(bytes.length);
      }
      // every proper prefix is an object not finished yet
      for (let cut = 0; cut < bytes.length; cut++) expect(compactJsonObjectLength(bytes.subarray(0, cut), DEPTH), `${line} cut at ${cut}`).toBe(JSON_OBJECT_TRUNCATED);
    }
    for (const line of ['{ "a":1}', '{"a":01}', '{"a":"\\x"}', '{"a":tx}', '[{}]', '{"a":1,}']) expect(compactJsonObjectLength(Buffer.from(line), DEPTH), line).toBe(JSON_OBJECT_INVALID);
    // whatever the bytes, a length the kernel answers is an object the reference accepts
    for (let round = 0; round < 3000; round++) {
      const bytes = Buffer.from(Array.from({ length: 2 + Math.floor(random() * 12) }, () => '{}[]",:1a\\e-.tn'[Math.floor(random() * 15)]).join(''));
      bytes[0] = 0x7b;
      const length = compactJsonObjectLength(bytes, DEPTH);
      if (length > 0) expect(isCompactJsonObjectReference(bytes.subarray(0, length), DEPTH), bytes.toString()).toBe(true);
    }
  });

  it('agrees with the reference on random lines and on their byte mutations', () => {
    const random = mulberry32(20261201);
    const object = randomObjects(random, () => '');
    const noise = [0x20, 0x09, 0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x30, 0x2d, 0x2e, 0x65, 0x75, 0x00, 0x1f, 0x7f, 0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff];
    let accepted = 0;
    let refused = 0;
    for (let round = 0; round < 4000; round++) {
      const line = Buffer.from(object(0), 'utf8');
      if (check(line, 4)) accepted++;
      for (let m = 0; m < 4; m++) {
        if (check(mutated(random, line, noise), 4)) accepted++;
        else refused++;
      }
    }
    // both sides of the check were exercised
    expect(accepted).toBeGreaterThan(4000);
    expect(refused).toBeGreaterThan(4000);
  });

  describe('compactObjectRun', () => {
    /** The run as the single-object kernel (checked above against the reference) finds it, object by object. */
    function runByObjects(bytes: Uint8Array, depth: number, separator: number): { length: number; count: number; truncated: boolean; separators: number[] } {
      let at = 0;
      const separators: number[] = [];
      for (;;) {
        const count = separators.length;
        if (at >= bytes.length) return { length: at, count, truncated: true, separators };
        const length = compactJsonObjectLength(bytes.subarray(at), depth);
        if (length === JSON_OBJECT_TRUNCATED || (length > 0 && at + length >= bytes.length)) return { length: at, count, truncated: true, separators };
        if (length < 0 || bytes[at + length] !== separator) return { length: at, count, truncated: false, separators };
        separators.push(at + length);
        at += length + 1;
      }
    }

    function checkRun(bytes: Uint8Array, separator: number, depth = DEPTH): number {
      const { separators, ...expected } = runByObjects(bytes, depth, separator);
      const run = compactObjectRun(bytes, depth, separator, true);
      const text = Buffer.from(bytes).toString('hex');
      expect({ text, length: run.length, count: run.count, truncated: run.truncated }).toEqual({ text, ...expected });
      // the run as NDJSON lines: its bytes, each object's separator a newline (not one inside a string)
      const lines = Buffer.from(bytes.subarray(0, run.length));
      for (const at of separators) lines[at] = 0x0a;
      expect(Buffer.from(run.lines!).equals(lines), text).toBe(true);
      expect(compactObjectRun(bytes, depth, separator, false)).toEqual({ ...run, lines: null });
      return run.count;
    }

    it('takes every compact object followed by its separator and stops at anything else', () => {
      const nl = 0x0a;
      expect(compactObjectRun(Buffer.from('{"a":1}\n{"b":[2]}\n{"c":"x"}\n'), DEPTH, nl, false)).toMatchObject({ length: 28, count: 3, truncated: true });
      expect(compactObjectRun(Buffer.from('{"a":1}\n{"b":2}\r\n{"c":3}\n'), DEPTH, nl, false)).toMatchObject({ length: 8, count: 1, truncated: false });
      expect(compactObjectRun(Buffer.from('{"a":1}\n { "b":2}\n'), DEPTH, nl, false)).toMatchObject({ length: 8, count: 1, truncated: false });
      expect(compactObjectRun(Buffer.from('{"a":1}\n{"b":2}'), DEPTH, nl, false)).toMatchObject({ length: 8, count: 1, truncated: true });
      expect(compactObjectRun(Buffer.from('{"a":1}\n{"b":'), DEPTH, nl, false)).toMatchObject({ length: 8, count: 1, truncated: true });
      expect(compactObjectRun(Buffer.from('{"a":tru}\n'), DEPTH, nl, false)).toMatchObject({ length: 0, count: 0, truncated: false });
      expect(compactObjectRun(Buffer.from(''), DEPTH, nl, false)).toMatchObject({ length: 0, count: 0, truncated: true });
      // a JSON array's elements, as NDJSON lines: the element before `]` is not in the run
      const run = compactObjectRun(Buffer.from('{"a":1},{"b":"x,y"},{"c":[1,2]}]'), DEPTH, 0x2c, true);
      expect(run).toMatchObject({ length: 20, count: 2, truncated: false });
      expect(Buffer.from(run.lines!).toString()).toBe('{"a":1}\n{"b":"x,y"}\n');
      // objects nested deeper than the limit end the run
      expect(compactObjectRun(Buffer.from('{"a":{}}\n{"a":{"b":{}}}\n'), 2, nl, false)).toMatchObject({ length: 9, count: 1, truncated: false });
    });

    it('agrees with the single-object kernel on random runs, their mutations and their cuts', () => {
      const random = mulberry32(20261202);
      const objects = ['{}', '{"a":1}', '{"s":"x\\n,\\"}"}', '{"é":["🙂",{"b":null}],"n":-1.5e3}', '{"a":[[[{}]]]}', '{ "a":1}', '{"a":01}'];
      const noise = [0x20, 0x0a, 0x0d, 0x2c, 0x7b, 0x7d, 0x22, 0x5c, 0x5d, 0x00, 0xc3, 0xff];
      let taken = 0;
      for (let round = 0; round < 3000; round++) {
        const separator = pick(random, [0x0a, 0x2c]);
        const parts: string[] = [];
        for (let k = Math.floor(random() * 6); k > 0; k--) parts.push(pick(random, objects) + (random() < 0.85 ? String.fromCharCode(separator) : pick(random, ['\r\n', ' ', ']', ',', '\n'])));
        let bytes = Buffer.from(parts.join(''), 'utf8');
        if (random() < 0.3 && bytes.length > 0) bytes[Math.floor(random() * bytes.length)] = pick(random, noise);
        if (random() < 0.3) bytes = bytes.subarray(0, Math.floor(random() * (bytes.length + 1)));
        taken += checkRun(bytes, separator, 3);
      }
      // long runs were exercised, not only runs stopped at once
      expect(taken).toBeGreaterThan(1000);
    });
  });

  describe('compactedJsonObject', () => {
    /** The kernel's compact form of `bytes` when it takes all of them as one object, else null; checked against the reference. */
    function checkSpaced(bytes: Uint8Array, depth = DEPTH): Uint8Array | null {
      const found = compactedJsonObject(bytes, depth);
      const kernel = typeof found === 'number' || found.length !== bytes.length ? null : found.compact;
      const reference = compactedJsonObjectReference(bytes, depth);
      const text = Buffer.from(bytes).toString('hex');
      expect({ text, kernel: kernel && Buffer.from(kernel).toString() }).toEqual({ text, kernel: reference && Buffer.from(reference).toString() });
      if (typeof found !== 'number') {
        // what it takes is an object the reference takes, and its newlines are counted
        const taken = bytes.subarray(0, found.length);
        expect(compactedJsonObjectReference(taken, depth), text).not.toBeNull();
        expect(found.newlines).toBe(taken.filter((b) => b === 0x0a).length - Buffer.from(found.compact).filter((b) => b === 0x0a).length);
      }
      return kernel;
    }

    it('writes spaced-out and pretty-printed objects compact, their strings and numbers as they are', () => {
      const cases: [string, string][] = [
        ['{"id": 1, "title": "a  b", "tags": ["x", "y"], "n": null}', '{"id":1,"title":"a  b","tags":["x","y"],"n":null}'],
        ['{\n  "a": {\r\n\t"b": [ 1.50 , -2e3, true, false ]\n  },\n  "s": "\\" \\n \\u00e9"\n}', '{"a":{"b":[1.50,-2e3,true,false]},"s":"\\" \\n \\u00e9"}'],
        ['{ }', '{}'],
        ['{"é": "日本 🙂"}', '{"é":"日本 🙂"}'],
      ];
      for (const [spaced, compact] of cases) expect(Buffer.from(checkSpaced(Buffer.from(spaced))!).toString()).toBe(compact);
      const found = compactedJsonObject(Buffer.from('{\n"a" :\n1\n}\n{"b":2}'), DEPTH);
      expect(found).toMatchObject({ length: 11, newlines: 3 });
      for (const refused of ['{"a":1,}', '{"a" 1}', '{"a":01}', '{\u000b"a":1}', '{"a":1} x', '[{}]']) expect(checkSpaced(Buffer.from(refused)), refused).toBeNull();
      expect(compactedJsonObject(Buffer.from('{"a": [1, '), DEPTH)).toBe(JSON_OBJECT_TRUNCATED);
      expect(compactedJsonObject(Buffer.from('{"a": [1,]}'), DEPTH)).toBe(JSON_OBJECT_INVALID);
      expect(checkSpaced(Buffer.from('{"a": {"b": {}}}'), 2)).toBeNull();
    });

    it('agrees with the reference on random spaced objects and their byte mutations', () => {
      const random = mulberry32(20261203);
      const space = () => pick(random, ['', '', ' ', '  ', '\n', '\r\n', '\t', ' \n  ']);
      const object = randomObjects(random, space);
      const noise = [0x20, 0x0a, 0x0d, 0x09, 0x0b, 0x0c, 0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d, 0x30, 0x2d, 0x65, 0x00, 0x80, 0xc3, 0xff];
      let accepted = 0;
      let refused = 0;
      for (let round = 0; round < 3000; round++) {
        const line = Buffer.from(object(0), 'utf8');
        if (checkSpaced(line, 4) !== null) accepted++;
        for (let m = 0; m < 3; m++) {
          if (checkSpaced(mutated(random, line, noise), 4) !== null) accepted++;
          else refused++;
        }
      }
      expect(accepted).toBeGreaterThan(3000);
      expect(refused).toBeGreaterThan(3000);
    });
  });
});
