/**
 * Rhai's built-in operators and the standard-package functions scripts use (rhai
 * `func/builtin.rs`, `packages/{arithmetic,logic,math_basic,string_basic,string_more,
 * array_basic,map_basic,lang_core}.rs`), with Rhai's overflow checks and error texts.
 *
 * A native function receives its arguments with the receiver first (`s.trim()` is
 * `trim(s)`); functions that change their receiver change arrays and maps in place and
 * replace `args[0]` for strings, which the interpreter writes back to the variable or property.
 * A native answers `NO_MATCH` when its argument types do not fit, which becomes Rhai's
 * "Function not found" error.
 */
import { RhaiRuntimeError, dataTooLarge } from './errors.js';
import { rustTrim } from '../types/rust-whitespace.js';
import { codePointCount, unitIndexOf } from '../types/utf16.js';
import type { Pos } from './position.js';
import {
  FnPtr,
  INT_MAX,
  INT_MIN,
  RChar,
  RRange,
  cloneValue,
  compareValues,
  isArray,
  isMap,
  signatureType,
  sortedKeys,
  toDebug,
  toJsonText,
  toText,
  typeName,
  valuesEqual,
  type RArray,
  type RMap,
  type Value,
} from './values.js';
import type { BinaryOp } from './ast.js';

export const NO_MATCH = Symbol('no match');

export interface NativeContext {
  pos: Pos;
  /** the engine's size limits, which a native that builds a value from a length checks before building it */
  limits: { readonly maxArraySize: number; readonly maxStringSize: number };
  /** calls a function pointer; `extra` arguments are passed when the function takes them */
  call(fn: FnPtr, args: Value[], extra?: Value[]): Value;
}

type Native = (args: Value[], ctx: NativeContext) => Value | typeof NO_MATCH;

/** V8's longest string (2^29 − 24 UTF-16 units): Rhai's 1 GiB string limit goes past it. */
const MAX_JS_STRING_LENGTH = 2 ** 29 - 24;

export function functionNotFound(name: string, args: readonly Value[], pos: Pos): RhaiRuntimeError {
  return new RhaiRuntimeError(`Function not found: ${name} (${args.map(signatureType).join(', ')})`, pos);
}

const arithmetic = (message: string, pos: Pos) => new RhaiRuntimeError(message, pos);

function checked(result: bigint, message: () => string, pos: Pos): bigint {
  if (result < INT_MIN || result > INT_MAX) throw arithmetic(message(), pos);
  return result;
}

function intOp(op: BinaryOp, x: bigint, y: bigint, pos: Pos): Value | typeof NO_MATCH {
  switch (op) {
    case '+':
      return checked(x + y, () => `Addition overflow: ${x} + ${y}`, pos);
    case '-':
      return checked(x - y, () => `Subtraction overflow: ${x} - ${y}`, pos);
    case '*':
      return checked(x * y, () => `Multiplication overflow: ${x} * ${y}`, pos);
    case '/':
      if (y === 0n) throw arithmetic(`Division by zero: ${x} / ${y}`, pos);
      return checked(x / y, () => `Division overflow: ${x} / ${y}`, pos);
    case '%':
      if (y === 0n || (x === INT_MIN && y === -1n)) throw arithmetic(`Modulo division by zero or overflow: ${x} % ${y}`, pos);
      return x % y;
    case '**':
      if (y < 0n) throw arithmetic(`Integer raised to a negative power: ${x} ** ${y}`, pos);
      if (y > 0xffffffffn) throw arithmetic(`Integer raised to too large an index: ${x} ** ${y}`, pos);
      if (x === 0n || x === 1n) return y === 0n ? 1n : x;
      if (x === -1n) return y % 2n === 0n ? 1n : -1n;
      // Any other base overflows an i64 before its 64th power: never build the huge number.
      if (y > 63n) throw arithmetic(`Exponential overflow: ${x} ** ${y}`, pos);
      return checked(x ** y, () => `Exponential overflow: ${x} ** ${y}`, pos);
    case '<<':
      if (y < 0n) throw arithmetic(`Left-shift by a negative number: ${x} << ${y}`, pos);
      if (y >= 64n) throw arithmetic(`Left-shift by too many bits: ${x} << ${y}`, pos);
      return BigInt.asIntN(64, x << y);
    case '>>':
      if (y < 0n) throw arithmetic(`Right-shift by a negative number: ${x} >> ${y}`, pos);
      if (y >= 64n) throw arithmetic(`Right-shift by too many bits: ${x} >> ${y}`, pos);
      return x >> y;
    case '&':
      return x & y;
    case '|':
      return x | y;
    case '^':
      return x ^ y;
    default:
      return NO_MATCH;
  }
}

function floatOp(op: BinaryOp, a: bigint | number, b: bigint | number, pos: Pos): Value | typeof NO_MATCH {
  const x = Number(a);
  switch (op) {
    case '+':
      return x + Number(b);
    case '-':
      return x - Number(b);
    case '*':
      return x * Number(b);
    case '/':
      return x / Number(b);
    case '%':
      return x % Number(b);
    case '**':
      if (typeof b === 'bigint' && b > 2147483647n) throw arithmetic(`Number raised to too large an index: ${toText(a)} ** ${b}`, pos);
      return x ** Number(b);
    default:
      return NO_MATCH;
  }
}

/** `contains(container, item)`, which `item in container` calls. */
function contains(container: Value, item: Value): boolean | typeof NO_MATCH {
  if (isArray(container)) return container.some((x) => valuesEqual(x, item));
  if (typeof container === 'string') {
    if (typeof item === 'string') return container.includes(item);
    if (item instanceof RChar) return container.includes(item.ch);
    return NO_MATCH;
  }
  if (isMap(container)) {
    if (typeof item === 'string') return container.has(item);
    if (item instanceof RChar) return container.has(item.ch);
    return NO_MATCH;
  }
  if (container instanceof RRange && typeof item === 'bigint') {
    return item >= container.start && (container.inclusive ? item <= container.end : item < container.end);
  }
  return NO_MATCH;
}

function compare(op: BinaryOp, a: Value, b: Value): boolean | typeof NO_MATCH {
  if (op === '==' || op === '!=') {
    const equal = valuesEqual(a, b);
    return op === '==' ? equal : !equal;
  }
  const order = compareValues(a, b);
  if (order === undefined) return false;
  if (order === null) return NO_MATCH;
  switch (op) {
    case '<':
      return order < 0;
    case '<=':
      return order <= 0;
    case '>':
      return order > 0;
    default:
      return order >= 0;
  }
}

/** Removes every occurrence of `part`, as Rhai's string `-` and `remove` do. */
const without = (s: string, part: string) => (part === '' ? s : s.split(part).join(''));

const asText = (v: Value) => (typeof v === 'string' ? v : v instanceof RChar ? v.ch : null);

const COMPARISONS = new Set<BinaryOp>(['==', '!=', '<', '<=', '>', '>=']);

/** A binary operator; throws Rhai's error when no built-in applies. */
export function binaryOp(op: BinaryOp, a: Value, b: Value, pos: Pos): Value {
  let result: Value | typeof NO_MATCH = NO_MATCH;
  if (op === 'in' || op === '!in') {
    const found = contains(b, a);
    if (found === NO_MATCH) throw functionNotFound('contains', [b, a], pos);
    return op === 'in' ? found : !found;
  }
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    result = intOp(op, a, b, pos);
  } else if ((typeof a === 'number' || typeof a === 'bigint') && (typeof b === 'number' || typeof b === 'bigint')) {
    result = floatOp(op, a, b, pos);
  } else if (op === '+' && (typeof a === 'string' || typeof b === 'string' || (a instanceof RChar && b instanceof RChar))) {
    result = toText(a) + toText(b);
  } else if (op === '-' && typeof a === 'string' && asText(b) !== null) {
    result = without(a, asText(b)!);
  } else if (op === '+' && isArray(a) && isArray(b)) {
    result = [...a, ...b].map(cloneValue);
  } else if (op === '+' && isMap(a) && isMap(b)) {
    result = cloneValue(a) as RMap;
    for (const [k, v] of b) result.set(k, cloneValue(v));
  } else if (typeof a === 'boolean' && typeof b === 'boolean' && (op === '&' || op === '|' || op === '^')) {
    result = op === '&' ? a && b : op === '|' ? a || b : a !== b;
  }
  if (result === NO_MATCH && COMPARISONS.has(op)) result = compare(op, a, b);
  if (result === NO_MATCH) throw functionNotFound(op, [a, b], pos);
  return result;
}

export function unaryOp(op: '-' | '+' | '!', v: Value, pos: Pos): Value {
  if (op === '!' && typeof v === 'boolean') return !v;
  if (op === '-' && typeof v === 'bigint') return checked(-v, () => `Negation overflow: -${v}`, pos);
  if (op === '-' && typeof v === 'number') return -v;
  if (op === '+' && (typeof v === 'number' || typeof v === 'bigint')) return v;
  throw functionNotFound(op, [v], pos);
}

const chars = (s: string) => [...s];
const int = (n: number) => BigInt(n);

/** A character index argument: negative counts from the end (Rhai's string and array offsets). */
function offset(index: bigint, length: number): number {
  if (index >= 0n) return index > BigInt(length) ? length : Number(index);
  const back = -index;
  return back > BigInt(length) ? 0 : length - Number(back);
}

// Characters are counted and found in place (utf16.ts), not spread into an array of them: on a
// string of 4 Mi characters, each `len` or `index_of` built one (33–100 ms an operation).
function subString(s: string, start: bigint, len: bigint): string {
  const length = codePointCount(s);
  if (length === 0 || len <= 0n) return '';
  if (start >= 0n && start >= BigInt(length)) return '';
  const from = offset(start, length);
  const count = len > BigInt(length - from) ? length - from : Number(len);
  const begin = unitIndexOf(s, from);
  return s.slice(begin, unitIndexOf(s, count, begin));
}

function rangeBounds(range: RRange, length: number): [number, number] {
  const start = range.start < 0n ? 0 : range.start > BigInt(length) ? length : Number(range.start);
  const endRaw = range.inclusive ? range.end + 1n : range.end;
  const end = endRaw < BigInt(start) ? start : endRaw > BigInt(length) ? length : Number(endRaw);
  return [start, end];
}

function indexOf(s: string, find: string, start: bigint): bigint {
  const length = codePointCount(s);
  if (start >= BigInt(length)) return -1n;
  const from = offset(start, length);
  const begin = unitIndexOf(s, from);
  const found = s.indexOf(find, begin);
  return found < 0 ? -1n : int(from + codePointCount(s, begin, found));
}

function parseIntText(text: string, radix: number, pos: Pos): bigint {
  const s = text.trim();
  const fail = (why: string) => arithmetic(`Error parsing integer number '${text}': ${why}`, pos);
  if (s === '') throw fail('cannot parse integer from empty string');
  const digits = /^[+-]/.test(s) ? s.slice(1) : s;
  const alphabet = '0123456789abcdefghijklmnopqrstuvwxyz'.slice(0, radix);
  if (digits === '' || [...digits.toLowerCase()].some((c) => !alphabet.includes(c))) throw fail('invalid digit found in string');
  let value = 0n;
  for (const c of digits.toLowerCase()) value = value * BigInt(radix) + BigInt(alphabet.indexOf(c));
  if (s.startsWith('-')) value = -value;
  if (value > INT_MAX) throw fail('number too large to fit in target type');
  if (value < INT_MIN) throw fail('number too small to fit in target type');
  return value;
}

function parseFloatText(text: string, pos: Pos): number {
  const s = text.trim();
  if (s === '') throw arithmetic(`Error parsing floating-point number '${text}': cannot parse float from empty string`, pos);
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(s);
  if (special !== null) return special[2]!.toLowerCase() === 'nan' ? Number.NaN : special[1] === '-' ? -Infinity : Infinity;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
    throw arithmetic(`Error parsing floating-point number '${text}': invalid float literal`, pos);
  }
  return Number(s);
}

/** Sorting without a comparer: one comparable type only. */
function sortArray(array: RArray, pos: Pos): void {
  if (array.length <= 1) return;
  const type = typeName(array[0]!);
  if (array.some((x) => typeName(x) !== type)) {
    throw new RhaiRuntimeError('Function not found: sort() cannot be called with elements of different types', pos);
  }
  if (!['i64', 'f64', 'string', 'char', 'bool', '()'].includes(type)) return;
  array.sort((a, b) => compareValues(a, b) || 0);
}

const isInt = (v: Value | undefined): v is bigint => typeof v === 'bigint';
const isStr = (v: Value | undefined): v is string => typeof v === 'string';
const isFn = (v: Value | undefined): v is FnPtr => v instanceof FnPtr;
const truthy = (v: Value, pos: Pos): boolean => {
  if (typeof v !== 'boolean') throw new RhaiRuntimeError(`Data type incorrect: ${typeName(v)} (expecting bool)`, pos);
  return v;
};

/** The callback's boolean answer for `filter`, `some`, `all`… */
function predicate(ctx: NativeContext, fn: FnPtr, item: Value, index: number): boolean {
  return truthy(ctx.call(fn, [cloneValue(item)], [int(index)]), ctx.pos);
}

const NATIVES: Record<string, Native> = {
  // ---- generic ----
  to_string: (a) => (a.length === 1 ? toText(a[0]!) : NO_MATCH),
  to_debug: (a) => (a.length === 1 ? toDebug(a[0]!) : NO_MATCH),
  print: (a) => (a.length === 1 ? null : NO_MATCH),
  debug: (a) => (a.length === 1 ? null : NO_MATCH),
  type_of: (a) => (a.length === 1 ? typeName(a[0]!) : NO_MATCH),
  Fn: (a) => (a.length === 1 && isStr(a[0]) ? new FnPtr(a[0]) : NO_MATCH),
  call: (a, ctx) => (isFn(a[0]) ? ctx.call(a[0], a.slice(1).map(cloneValue)) : NO_MATCH),
  curry: (a) => (isFn(a[0]) ? new FnPtr(a[0].name, a[0].closure, a[0].captured, [...a[0].curry, ...a.slice(1).map(cloneValue)]) : NO_MATCH),
  name: (a) => (a.length === 1 && isFn(a[0]) ? a[0].name : NO_MATCH),

  // ---- numbers ----
  to_int: ([x, ...rest], ctx) => {
    if (rest.length > 0) return NO_MATCH;
    if (isInt(x)) return x;
    if (x instanceof RChar) return int(x.ch.codePointAt(0)!);
    if (typeof x === 'number') {
      if (x > 2 ** 63 || x < -(2 ** 63)) throw arithmetic(`Integer overflow: to_int(${toText(x)})`, ctx.pos);
      // Rust's `as` saturates (2^63 itself becomes i64::MAX) and turns NaN into 0.
      if (Number.isNaN(x)) return 0n;
      const truncated = BigInt(Math.trunc(x));
      return truncated > INT_MAX ? INT_MAX : truncated;
    }
    return NO_MATCH;
  },
  to_float: ([x, ...rest]) => (rest.length === 0 && (isInt(x) || typeof x === 'number') ? Number(x) : NO_MATCH),
  parse_int: ([s, radix, ...rest], ctx) => {
    if (!isStr(s) || rest.length > 0) return NO_MATCH;
    if (radix === undefined) return parseIntText(s, 10, ctx.pos);
    if (!isInt(radix)) return NO_MATCH;
    if (radix < 2n || radix > 36n) throw arithmetic(`Invalid radix: '${radix}'`, ctx.pos);
    return parseIntText(s, Number(radix), ctx.pos);
  },
  parse_float: ([s, ...rest], ctx) => (isStr(s) && rest.length === 0 ? parseFloatText(s, ctx.pos) : NO_MATCH),
  abs: ([x, ...rest], ctx) => {
    if (rest.length > 0) return NO_MATCH;
    if (isInt(x)) return checked(x < 0n ? -x : x, () => `Negation overflow: -${x}`, ctx.pos);
    return typeof x === 'number' ? Math.abs(x) : NO_MATCH;
  },
  sign: ([x, ...rest]) => {
    if (rest.length > 0) return NO_MATCH;
    if (isInt(x)) return x > 0n ? 1n : x < 0n ? -1n : 0n;
    if (typeof x === 'number') return x > 0 ? 1n : x < 0 ? -1n : 0n;
    return NO_MATCH;
  },
  min: ([x, y, ...rest]) => numberPair(x, y, rest, (a, b) => (compareValues(a, b)! <= 0 ? a : b)),
  max: ([x, y, ...rest]) => numberPair(x, y, rest, (a, b) => (compareValues(a, b)! >= 0 ? a : b)),
  is_odd: ([x, ...rest]) => (isInt(x) && rest.length === 0 ? x % 2n !== 0n : NO_MATCH),
  is_even: ([x, ...rest]) => (isInt(x) && rest.length === 0 ? x % 2n === 0n : NO_MATCH),
  is_zero: ([x, ...rest]) => (rest.length === 0 && (isInt(x) || typeof x === 'number') ? Number(x) === 0 : NO_MATCH),
  floor: float1(Math.floor),
  ceiling: float1(Math.ceil),
  round: float1((x) => (x < 0 ? -Math.round(-x) : Math.round(x))),
  int: float1(Math.trunc),
  fraction: float1((x) => x % 1),
  sqrt: float1(Math.sqrt),
  exp: float1(Math.exp),
  ln: float1(Math.log),
  sin: float1(Math.sin),
  cos: float1(Math.cos),
  tan: float1(Math.tan),
  to_degrees: float1((x) => (x * 180) / Math.PI),
  to_radians: float1((x) => (x * Math.PI) / 180),
  log: ([x, base, ...rest]) => {
    if (typeof x !== 'number' || rest.length > 0) return NO_MATCH;
    if (base === undefined) return Math.log10(x);
    return typeof base === 'number' ? Math.log(x) / Math.log(base) : NO_MATCH;
  },
  is_nan: floatTest(Number.isNaN),
  is_finite: floatTest(Number.isFinite),
  is_infinite: floatTest((x) => x === Infinity || x === -Infinity),
  PI: (a) => (a.length === 0 ? Math.PI : NO_MATCH),
  E: (a) => (a.length === 0 ? Math.E : NO_MATCH),
  range: ([from, to, step, ...rest], ctx) => {
    if (!isInt(from) || !isInt(to) || rest.length > 0) return NO_MATCH;
    if (step === undefined) return new RRange(from, to, false);
    if (!isInt(step)) return NO_MATCH;
    if (step === 0n) throw arithmetic('step value cannot be zero', ctx.pos);
    return new RRange(from, to, false, step);
  },

  // ---- strings, arrays and maps (dispatch on the receiver) ----
  len: ([x, ...rest]) => {
    if (rest.length > 0) return NO_MATCH;
    if (isStr(x)) return int(codePointCount(x));
    if (isArray(x)) return int(x.length);
    if (isMap(x)) return int(x.size);
    return NO_MATCH;
  },
  is_empty: ([x, ...rest]) => {
    if (rest.length > 0) return NO_MATCH;
    if (isStr(x) || isArray(x)) return x.length === 0;
    if (isMap(x)) return x.size === 0;
    return NO_MATCH;
  },
  bytes: ([x, ...rest]) => (isStr(x) && rest.length === 0 ? int(Buffer.byteLength(x)) : NO_MATCH),
  to_upper: ([x, ...rest]) => (rest.length > 0 ? NO_MATCH : isStr(x) ? x.toUpperCase() : x instanceof RChar ? new RChar(x.ch.toUpperCase()) : NO_MATCH),
  to_lower: ([x, ...rest]) => (rest.length > 0 ? NO_MATCH : isStr(x) ? x.toLowerCase() : x instanceof RChar ? new RChar(x.ch.toLowerCase()) : NO_MATCH),
  make_upper: (a) => inPlaceString(a, 1, (s) => s.toUpperCase()),
  make_lower: (a) => inPlaceString(a, 1, (s) => s.toLowerCase()),
  // Rust's `str::trim` (White_Space: U+0085 in, U+FEFF out), walked once: a pattern for the
  // trailing run was quadratic in a string's inner runs
  trim: (a) => inPlaceString(a, 1, rustTrim),
  clear: (a) => {
    if (a.length !== 1) return NO_MATCH;
    const x = a[0]!;
    if (isStr(x)) a[0] = '';
    else if (isArray(x)) x.length = 0;
    else if (isMap(x)) x.clear();
    else return NO_MATCH;
    return null;
  },
  contains: ([x, item, ...rest]) => {
    if (item === undefined || rest.length > 0) return NO_MATCH;
    if (isStr(x) && asText(item) === null) return NO_MATCH;
    return contains(x, item);
  },
  starts_with: ([x, p, ...rest]) => (isStr(x) && isStr(p) && rest.length === 0 ? x.startsWith(p) : NO_MATCH),
  ends_with: ([x, p, ...rest]) => (isStr(x) && isStr(p) && rest.length === 0 ? x.endsWith(p) : NO_MATCH),
  index_of: ([x, find, start, ...rest], ctx) => {
    if (rest.length > 0 || find === undefined || (start !== undefined && !isInt(start))) return NO_MATCH;
    if (isStr(x)) {
      const text = asText(find);
      return text === null ? NO_MATCH : indexOf(x, text, start ?? 0n);
    }
    if (isArray(x)) {
      const from = start === undefined ? 0 : offset(start, x.length);
      for (let i = from; i < x.length; i++) {
        const hit = isFn(find) ? predicate(ctx, find, x[i]!, i) : valuesEqual(x[i]!, find);
        if (hit) return int(i);
      }
      return -1n;
    }
    return NO_MATCH;
  },
  sub_string: ([x, start, len, ...rest]) => {
    if (!isStr(x) || rest.length > 0) return NO_MATCH;
    if (start instanceof RRange && len === undefined) {
      const cs = chars(x);
      const [from, to] = rangeBounds(start, cs.length);
      return cs.slice(from, to).join('');
    }
    if (!isInt(start)) return NO_MATCH;
    if (len === undefined) return subString(x, start, int(codePointCount(x)));
    return isInt(len) ? subString(x, start, len) : NO_MATCH;
  },
  replace: (a) => {
    const [x, find, sub, ...rest] = a;
    const f = find === undefined ? null : asText(find);
    const r = sub === undefined ? null : asText(sub);
    if (!isStr(x) || f === null || r === null || rest.length > 0) return NO_MATCH;
    a[0] = x.split(f).join(r);
    return null;
  },
  split: ([x, sep, count, ...rest]) => {
    if (!isStr(x) || rest.length > 0) return NO_MATCH;
    if (sep === undefined) return x.split(/\s+/).filter((part) => part !== '');
    if (isInt(sep) && count === undefined) {
      const cs = chars(x);
      const at = offset(sep, cs.length);
      return [cs.slice(0, at).join(''), cs.slice(at).join('')];
    }
    const s = asText(sep);
    if (s === null) return NO_MATCH;
    const parts = splitText(x, s);
    if (count === undefined) return parts;
    if (!isInt(count)) return NO_MATCH;
    const n = count < 1n ? 1 : Number(count > BigInt(parts.length) ? BigInt(parts.length) : count);
    return [...parts.slice(0, n - 1), parts.slice(n - 1).join(s)];
  },
  split_rev: ([x, sep, ...rest]) => {
    const s = sep === undefined ? null : asText(sep);
    return isStr(x) && s !== null && rest.length === 0 ? splitText(x, s).reverse() : NO_MATCH;
  },
  chars: ([x, ...rest]) => (isStr(x) && rest.length === 0 ? chars(x).map((c) => new RChar(c)) : NO_MATCH),
  to_chars: ([x, ...rest]) => (isStr(x) && rest.length === 0 ? chars(x).map((c) => new RChar(c)) : NO_MATCH),
  pad: (a, ctx) => {
    const [x, len, fill, ...rest] = a;
    if (!isInt(len) || fill === undefined || rest.length > 0) return NO_MATCH;
    // Bounded before building anything, as Rhai's `pad` checks the engine's limits first: an array
    // of 2^30 items is past what V8 can hold, which kills the process rather than throwing.
    if (isArray(x) && len > BigInt(x.length) && len > BigInt(ctx.limits.maxArraySize)) throw dataTooLarge('Size of array', ctx.pos);
    if (isStr(x) && len > BigInt(Math.min(ctx.limits.maxStringSize, MAX_JS_STRING_LENGTH))) throw dataTooLarge('Length of string', ctx.pos);
    if (isArray(x)) {
      while (BigInt(x.length) < len) x.push(cloneValue(fill));
      return null;
    }
    const f = asText(fill);
    if (!isStr(x) || f === null) return NO_MATCH;
    // characters counted and repeated in place: an array of each character cost ~0.9 GB and ~5 s
    // for a pad to 67 M characters
    const missing = Number(len) - codePointCount(x);
    const fillChars = codePointCount(f);
    if (missing > 0 && fillChars > 0) a[0] = x + f.repeat(Math.floor(missing / fillChars)) + f.slice(0, unitIndexOf(f, missing % fillChars));
    return null;
  },
  truncate: (a) => {
    const [x, len, ...rest] = a;
    if (!isInt(len) || rest.length > 0 || !(isStr(x) || isArray(x))) return NO_MATCH;
    const keep = len < 0n ? 0 : len > BigInt(x.length) ? x.length : Number(len);
    if (isStr(x)) a[0] = chars(x).slice(0, keep).join('');
    else x.length = Math.min(x.length, keep);
    return null;
  },
  crop: (a) => {
    const [x, start, len, ...rest] = a;
    if (!isStr(x) || !isInt(start) || rest.length > 0 || (len !== undefined && !isInt(len))) return NO_MATCH;
    a[0] = subString(x, start, len ?? int(codePointCount(x)));
    return null;
  },
  get: ([x, key, ...rest]) => {
    if (rest.length > 0 || key === undefined) return NO_MATCH;
    if (isStr(x) && isInt(key)) {
      const cs = chars(x);
      const i = key < 0n ? BigInt(cs.length) + key : key;
      return i >= 0n && i < BigInt(cs.length) ? new RChar(cs[Number(i)]!) : null;
    }
    if (isArray(x) && isInt(key)) {
      const i = key < 0n ? BigInt(x.length) + key : key;
      return i >= 0n && i < BigInt(x.length) ? cloneValue(x[Number(i)]!) : null;
    }
    if (isMap(x) && isStr(key)) return cloneValue(x.get(key) ?? null);
    return NO_MATCH;
  },
  set: ([x, key, value, ...rest]) => {
    if (rest.length > 0 || value === undefined) return NO_MATCH;
    if (isArray(x) && isInt(key)) {
      const i = key < 0n ? BigInt(x.length) + key : key;
      if (i >= 0n && i < BigInt(x.length)) x[Number(i)] = cloneValue(value);
      return null;
    }
    if (isMap(x) && isStr(key)) {
      x.set(key, cloneValue(value));
      return null;
    }
    return NO_MATCH;
  },
  remove: (a) => {
    const [x, key, ...rest] = a;
    if (rest.length > 0 || key === undefined) return NO_MATCH;
    if (isStr(x)) {
      const part = asText(key);
      if (part === null) return NO_MATCH;
      a[0] = without(x, part);
      return null;
    }
    if (isArray(x) && isInt(key)) {
      const i = key < 0n ? BigInt(x.length) + key : key;
      return i >= 0n && i < BigInt(x.length) ? x.splice(Number(i), 1)[0]! : null;
    }
    if (isMap(x) && isStr(key)) {
      const removed = x.get(key) ?? null;
      x.delete(key);
      return removed;
    }
    return NO_MATCH;
  },

  // ---- arrays ----
  push: ([x, item, ...rest]) => {
    if (!isArray(x) || item === undefined || rest.length > 0) return NO_MATCH;
    x.push(cloneValue(item));
    return null;
  },
  append: ([x, other, ...rest]) => {
    if (rest.length > 0 || other === undefined) return NO_MATCH;
    if (isArray(x)) {
      if (isArray(other)) x.push(...other.map(cloneValue));
      else x.push(cloneValue(other));
      return null;
    }
    return NO_MATCH;
  },
  insert: ([x, at, item, ...rest]) => {
    if (!isArray(x) || !isInt(at) || item === undefined || rest.length > 0) return NO_MATCH;
    x.splice(offset(at, x.length), 0, cloneValue(item));
    return null;
  },
  pop: ([x, ...rest]) => (isArray(x) && rest.length === 0 ? (x.pop() ?? null) : NO_MATCH),
  shift: ([x, ...rest]) => (isArray(x) && rest.length === 0 ? (x.shift() ?? null) : NO_MATCH),
  reverse: ([x, ...rest]) => {
    if (!isArray(x) || rest.length > 0) return NO_MATCH;
    x.reverse();
    return null;
  },
  extract: ([x, start, len, ...rest]) => {
    if (!isArray(x) || rest.length > 0) return NO_MATCH;
    if (start instanceof RRange && len === undefined) {
      const [from, to] = rangeBounds(start, x.length);
      return x.slice(from, to).map(cloneValue);
    }
    if (!isInt(start) || (len !== undefined && !isInt(len))) return NO_MATCH;
    const from = offset(start, x.length);
    const count = len === undefined ? x.length : len < 0n ? 0 : Number(len > BigInt(x.length) ? BigInt(x.length) : len);
    return x.slice(from, from + count).map(cloneValue);
  },
  map: ([x, fn, ...rest], ctx) => {
    if (!isArray(x) || !isFn(fn) || rest.length > 0) return NO_MATCH;
    return x.map((item, i) => ctx.call(fn, [cloneValue(item)], [int(i)]));
  },
  filter: ([x, fn, ...rest], ctx) => {
    if (!isFn(fn) || rest.length > 0) return NO_MATCH;
    if (isArray(x)) return x.filter((item, i) => predicate(ctx, fn, item, i)).map(cloneValue);
    if (isMap(x)) {
      const out: RMap = new Map();
      for (const k of sortedKeys(x)) {
        if (truthy(ctx.call(fn, [k, cloneValue(x.get(k)!)]), ctx.pos)) out.set(k, cloneValue(x.get(k)!));
      }
      return out;
    }
    return NO_MATCH;
  },
  reduce: ([x, fn, initial, ...rest], ctx) => {
    if (!isArray(x) || !isFn(fn) || rest.length > 0) return NO_MATCH;
    let acc: Value = initial === undefined ? null : cloneValue(initial);
    x.forEach((item, i) => (acc = ctx.call(fn, [acc, cloneValue(item)], [int(i)])));
    return acc;
  },
  some: ([x, fn, ...rest], ctx) => (isArray(x) && isFn(fn) && rest.length === 0 ? x.some((item, i) => predicate(ctx, fn, item, i)) : NO_MATCH),
  all: ([x, fn, ...rest], ctx) => (isArray(x) && isFn(fn) && rest.length === 0 ? x.every((item, i) => predicate(ctx, fn, item, i)) : NO_MATCH),
  find: ([x, fn, ...rest], ctx) => {
    if (!isArray(x) || !isFn(fn) || rest.length > 0) return NO_MATCH;
    const i = x.findIndex((item, index) => predicate(ctx, fn, item, index));
    return i < 0 ? null : cloneValue(x[i]!);
  },
  for_each: ([x, fn, ...rest], ctx) => {
    if (!isArray(x) || !isFn(fn) || rest.length > 0) return NO_MATCH;
    x.forEach((item, i) => ctx.call(fn, [cloneValue(item)], [int(i)]));
    return null;
  },
  retain: ([x, fn, ...rest], ctx) => {
    if (!isFn(fn) || rest.length > 0) return NO_MATCH;
    if (isArray(x)) {
      const removed: RArray = [];
      const kept = x.filter((item, i) => predicate(ctx, fn, item, i) || (removed.push(item), false));
      x.splice(0, x.length, ...kept);
      return removed;
    }
    if (isMap(x)) {
      const removed: RMap = new Map();
      for (const k of sortedKeys(x)) {
        if (!truthy(ctx.call(fn, [k, cloneValue(x.get(k)!)]), ctx.pos)) {
          removed.set(k, x.get(k)!);
          x.delete(k);
        }
      }
      return removed;
    }
    return NO_MATCH;
  },
  drain: ([x, fn, ...rest], ctx) => {
    if (!isArray(x) || !isFn(fn) || rest.length > 0) return NO_MATCH;
    const drained: RArray = [];
    const kept = x.filter((item, i) => !predicate(ctx, fn, item, i) || (drained.push(item), false));
    x.splice(0, x.length, ...kept);
    return drained;
  },
  dedup: ([x, ...rest]) => {
    if (!isArray(x) || rest.length > 0) return NO_MATCH;
    const kept = x.filter((item, i) => i === 0 || !valuesEqual(item, x[i - 1]!));
    x.splice(0, x.length, ...kept);
    return null;
  },
  sort: ([x, fn, ...rest], ctx) => {
    if (!isArray(x) || rest.length > 0) return NO_MATCH;
    if (fn === undefined) sortArray(x, ctx.pos);
    else if (isFn(fn)) {
      x.sort((a, b) => {
        const order = ctx.call(fn, [cloneValue(a), cloneValue(b)]);
        return isInt(order) ? Number(order > 0n) - Number(order < 0n) : 0;
      });
    } else return NO_MATCH;
    return null;
  },

  // ---- maps ----
  keys: ([x, ...rest]) => (isMap(x) && rest.length === 0 ? sortedKeys(x) : NO_MATCH),
  values: ([x, ...rest]) => (isMap(x) && rest.length === 0 ? sortedKeys(x).map((k) => cloneValue(x.get(k)!)) : NO_MATCH),
  mixin: ([x, other, ...rest]) => {
    if (!isMap(x) || !isMap(other) || rest.length > 0) return NO_MATCH;
    for (const [k, v] of other) x.set(k, cloneValue(v));
    return null;
  },
  fill_with: ([x, other, ...rest]) => {
    if (!isMap(x) || !isMap(other) || rest.length > 0) return NO_MATCH;
    for (const [k, v] of other) if (!x.has(k)) x.set(k, cloneValue(v));
    return null;
  },
  to_json: ([x, ...rest]) => (isMap(x) && rest.length === 0 ? toJsonText(x) : NO_MATCH),
};

function splitText(s: string, sep: string): string[] {
  if (sep !== '') return s.split(sep);
  // Rust splits on the empty pattern around every character.
  return ['', ...chars(s), ''];
}

function numberPair(x: Value | undefined, y: Value | undefined, rest: Value[], pick: (a: Value, b: Value) => Value): Value | typeof NO_MATCH {
  const numeric = (v: Value | undefined) => typeof v === 'bigint' || typeof v === 'number';
  if (!numeric(x) || !numeric(y) || rest.length > 0) return NO_MATCH;
  const picked = pick(x!, y!);
  return typeof x === 'number' || typeof y === 'number' ? Number(picked) : picked;
}

function float1(f: (x: number) => number): Native {
  return ([x, ...rest]) => (typeof x === 'number' && rest.length === 0 ? f(x) : NO_MATCH);
}

function floatTest(f: (x: number) => boolean): Native {
  return ([x, ...rest]) => (typeof x === 'number' && rest.length === 0 ? f(x) : NO_MATCH);
}

function inPlaceString(a: Value[], arity: number, f: (s: string) => string): Value | typeof NO_MATCH {
  if (a.length !== arity || !isStr(a[0])) return NO_MATCH;
  a[0] = f(a[0]);
  return null;
}

/** Natives that change their receiver: never called on constants, copied on temporaries. */
export const MUTATING = new Set([
  'make_upper', 'make_lower', 'trim', 'clear', 'replace', 'pad', 'truncate', 'crop', 'set', 'remove', 'push', 'append',
  'insert', 'pop', 'shift', 'reverse', 'retain', 'drain', 'dedup', 'sort', 'mixin', 'fill_with',
]);

/** Properties readable on values that are not maps (Rhai's registered getters). */
const GETTERS = new Set([
  'len', 'is_empty', 'bytes', 'is_odd', 'is_even', 'is_zero', 'floor', 'ceiling', 'round', 'int', 'fraction',
  'is_nan', 'is_finite', 'is_infinite', 'name',
]);

/** Calls a native function; `NO_MATCH` when none has that name and argument types. */
export function callNative(name: string, args: Value[], ctx: NativeContext): Value | typeof NO_MATCH {
  const native = Object.hasOwn(NATIVES, name) ? NATIVES[name]! : undefined;
  return native === undefined ? NO_MATCH : native(args, ctx);
}

/** Reads a property of a value that is not a map; throws Rhai's "Unknown property" error. */
export function getProperty(target: Value, name: string, ctx: NativeContext): Value {
  if (GETTERS.has(name) && !isMap(target)) {
    const result = callNative(name, [target], ctx);
    if (result !== NO_MATCH) return result;
  }
  throw new RhaiRuntimeError(`Unknown property '${name}' - a getter is not registered for type '${typeName(target)}'`, ctx.pos);
}

export function noSetter(target: Value, name: string, value: Value, pos: Pos): RhaiRuntimeError {
  return new RhaiRuntimeError(
    `No writable property '${name}' - a setter is not registered for type '${typeName(target)}' to handle '${typeName(value)}'`,
    pos,
  );
}
