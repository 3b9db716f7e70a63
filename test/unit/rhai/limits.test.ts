import { describe, expect, it } from 'vitest';
import {
  DEFAULT_COMPILE_OPTIONS,
  EDITION_COMPILE_OPTIONS,
  EDITION_LIMITS,
  compileScript,
} from '../../../src/rhai/index.js';
import { edited, errorOf, run } from './run.js';

const limits = (changes: Partial<typeof EDITION_LIMITS>) => ({ ...EDITION_LIMITS, ...changes });

function compileError(source: string, options = EDITION_COMPILE_OPTIONS): string {
  try {
    compileScript(source, options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the script compiled');
}

describe('operations limit', () => {
  it('stops a runaway loop with Too many operations instead of hanging', () => {
    expect(errorOf('loop { }')).toMatch(/^Too many operations \(line 1, position \d+\)$/);
    expect(errorOf('let i = 0; while true { i += 1; }')).toMatch(/^Too many operations/);
  });

  it('counts operations per document run: a bounded script under the limit succeeds', () => {
    expect(edited('let s = 0; for i in 0..10000 { s += i; } doc.s = s;')).toEqual({ s: 49995000 });
    expect(errorOf('let s = 0; for i in 0..100 { s += i; }', {}, null, limits({ maxOperations: 100 }))).toMatch(/^Too many operations/);
  });

  it('cannot be caught by try / catch', () => {
    expect(errorOf('try { loop {} } catch { doc.caught = true; }')).toMatch(/^Too many operations/);
  });
});

describe('call depth limit', () => {
  it('fails deeper recursion with Stack overflow, reported at the outermost call', () => {
    const script = 'fn f(n) { if n == 0 { return 0; } f(n - 1) + 1 }\ndoc.r = f(doc.n);';
    // f(9) … f(0): ten nested calls.
    expect(run(script, { n: 9 }, null, limits({ maxCallLevels: 10 }))).toEqual({ kind: 'replace', document: { n: 9, r: 9 } });
    expect(errorOf(script, { n: 10 }, null, limits({ maxCallLevels: 10 }))).toBe('Stack overflow (line 2, position 9)');
  });
});

describe('variables limit', () => {
  it('refuses more than 1000 variables in scope, doc included', () => {
    const lets = (n: number) => Array.from({ length: n }, (_, i) => `let v${i} = ${i};`).join('\n');
    expect(() => run(lets(999))).not.toThrow();
    expect(errorOf(lets(1000))).toBe('Too many variables defined (line 1000, position 1)');
  });

  it('frees block variables at the end of the block', () => {
    expect(() => run('for i in 0..5000 { let x = i; }')).not.toThrow();
  });
});

describe('data size limits', () => {
  it('refuses arrays over 10,000 items', () => {
    expect(edited('let a = []; for i in 0..10000 { a.push(i); } doc.n = a.len();')).toEqual({ n: 10000 });
    expect(errorOf('let a = []; for i in 0..10001 { a.push(i); }')).toBe('Size of array too large (line 1, position 35)');
    expect(errorOf('let a = []; a.pad(20000, 0);')).toBe('Size of array too large (line 1, position 15)');
  });

  it('refuses a pad past the limits before building anything (2^30 items would abort the process)', () => {
    expect(errorOf('let a = []; a.pad(1073741824, 1);')).toBe('Size of array too large (line 1, position 15)');
    expect(errorOf('let a = [1, 2]; a.pad(2, 0); doc.n = a.len(); let b = []; b.pad(10001, 0);')).toBe('Size of array too large (line 1, position 61)');
    expect(errorOf('let s = "x"; s.pad(1073741824, "y");')).toBe('Length of string too large (line 1, position 16)');
    expect(edited('let s = "ab"; s.pad(5, "-"); doc.s = s;')).toEqual({ s: 'ab---' });
  });

  it('refuses strings over 64 MiB (Meilisearch: 1 GiB, past what V8 holds as an array of characters)', () => {
    expect(errorOf('let s = "x"; loop { s += s; }')).toMatch(/^Length of string too large \(line 1, position \d+\)$/);
    expect(errorOf('let s = "x"; s.pad(67108865, "y");')).toBe('Length of string too large (line 1, position 16)');
    expect(edited('let s = "x"; s.pad(1000000, "y"); doc.n = s.len();')).toEqual({ n: 1000000 });
  });

  it('counts nested arrays together', () => {
    expect(errorOf('let a = []; for i in 0..6000 { a.push(i); } doc.x = [a, a];')).toMatch(/^Size of array too large/);
  });

  it('refuses maps over 10,000 entries', () => {
    expect(errorOf('let m = #{}; for i in 0..10001 { m[i.to_string()] = i; }')).toMatch(/^Size of object map too large \(line 1, position \d+\)$/);
  });
});

describe('compile-time limits', () => {
  const functions = (n: number) => Array.from({ length: n }, (_, i) => `fn f${i}() { ${i} }`).join('\n');

  it('allows 30 script functions at most in an edition', () => {
    expect(() => compileScript(functions(30), EDITION_COMPILE_OPTIONS)).not.toThrow();
    expect(compileError(functions(31))).toBe('Number of functions defined exceeds maximum limit (line 31, position 1)');
    expect(() => compileScript(functions(31), DEFAULT_COMPILE_OPTIONS)).not.toThrow();
  });

  it('limits expression depth, deeper inside functions', () => {
    const nested = (n: number) => `${'('.repeat(n)}1${')'.repeat(n)}`;
    expect(compileError(`doc.x = ${nested(40)};`)).toMatch(/^Expression exceeds maximum complexity \(line 1, position \d+\)$/);
    expect(() => compileScript(`doc.x = ${nested(20)};`, EDITION_COMPILE_OPTIONS)).not.toThrow();
    expect(() => compileScript(`fn f() { ${nested(200)} }`, EDITION_COMPILE_OPTIONS)).not.toThrow();
    expect(compileError(`fn f() { ${nested(200)} }`, DEFAULT_COMPILE_OPTIONS)).toMatch(/^Expression exceeds maximum complexity/);
  });

  it('limits array and map literals below 10,000 items (Rhai checks before each item, even the closing one)', () => {
    const items = (n: number) => Array.from({ length: n }, () => '0').join(',');
    expect(() => compileScript(`doc.a = [${items(9999)}];`, EDITION_COMPILE_OPTIONS)).not.toThrow();
    expect(compileError(`doc.a = [${items(10000)}];`)).toMatch(/^Size of array literal exceeds the maximum limit \(10000\)/);
    const entries = Array.from({ length: 10001 }, (_, i) => `k${i}: 0`).join(',');
    expect(compileError(`doc.m = #{${entries}};`)).toMatch(/^Number of properties in object map literal exceeds the maximum limit \(10000\)/);
  });
});
