/**
 * Rhai values in JavaScript, and what Rhai does with them everywhere: type names, printing
 * (`to_string` and debug forms, floats formatted as Rhai/Rust formats them), equality and
 * ordering, copies, data sizes for the engine limits, and the JSON mapping of documents.
 *
 * Mapping: INT (i64) is a `bigint`, FLOAT (f64) a `number`, `()` is `null`, a string a JS
 * string, a char an `RChar`, an array a JS array, an object map a JS `Map`. Arrays and maps
 * have value semantics in Rhai: the interpreter copies them wherever Rhai would.
 */
import type { FnDef } from './ast.js';
import { setField } from '../types/own-record.js';
import { isFloatMember, withFloatMember } from '../types/wire-floats.js';

export class RChar {
  constructor(readonly ch: string) {}
}

export class RRange {
  constructor(
    readonly start: bigint,
    readonly end: bigint,
    readonly inclusive: boolean,
    /** only `range(from, to, step)` builds a stepped range */
    readonly step = 1n,
  ) {}
}

/** A variable shared between a scope and the closures that captured it (also `this`). */
export class Cell {
  constructor(
    public value: Value,
    readonly constant = false,
  ) {}
}

/** A function pointer: a named function, or a closure with its captured variables. */
export class FnPtr {
  constructor(
    readonly name: string,
    readonly closure: FnDef | null = null,
    readonly captured: ReadonlyMap<string, Cell> = new Map(),
    readonly curry: readonly Value[] = [],
  ) {}
}

export type RArray = Value[];
export type RMap = Map<string, Value>;
export type Value = null | boolean | bigint | number | string | RChar | RArray | RMap | FnPtr | RRange;

export const INT_MIN = -(2n ** 63n);
export const INT_MAX = 2n ** 63n - 1n;

export const isArray = (v: Value): v is RArray => Array.isArray(v);
export const isMap = (v: Value): v is RMap => v instanceof Map;

/** Rhai's `type_of` names. */
export function typeName(v: Value): string {
  if (v === null) return '()';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'bigint':
      return 'i64';
    case 'number':
      return 'f64';
    case 'string':
      return 'string';
  }
  if (v instanceof RChar) return 'char';
  if (Array.isArray(v)) return 'array';
  if (v instanceof Map) return 'map';
  if (v instanceof FnPtr) return 'Fn';
  return v.inclusive ? 'range=' : 'range';
}

/** The type as a "Function not found" signature shows it. */
export function signatureType(v: Value): string {
  return typeof v === 'string' ? '&str | ImmutableString | String' : typeName(v);
}

/** Shortest round-trip digits of a finite positive number, and its decimal exponent. */
function digitsOf(abs: number): { digits: string; exponent: number } {
  const [mantissa, exp] = abs.toExponential().split('e') as [string, string];
  return { digits: mantissa.replace('.', ''), exponent: Number(exp) };
}

function plainDecimal(abs: number): string {
  const { digits, exponent } = digitsOf(abs);
  const point = exponent + 1;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${'0'.repeat(point - digits.length)}.0`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}

function exponential(abs: number): string {
  const { digits, exponent } = digitsOf(abs);
  return `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exponent}`;
}

function specialFloat(x: number): string | null {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Number.POSITIVE_INFINITY) return 'inf';
  if (x === Number.NEGATIVE_INFINITY) return '-inf';
  return null;
}

/** Rhai's bounds of a FLOAT's natural display: f32 constants (`FloatWrapper`), 9,999,999,827,968 and just under 1e-13. */
const MAX_NATURAL_FLOAT = Math.fround(1e13);
const MIN_NATURAL_FLOAT = Math.fround(1e-13);

/** Rhai's FLOAT display: natural notation between its bounds, `.0` on whole numbers. */
export function formatFloat(x: number): string {
  const special = specialFloat(x);
  if (special !== null) return special;
  const abs = Math.abs(x);
  if (abs === 0) return '0.0';
  const sign = x < 0 ? '-' : '';
  return sign + (abs > MAX_NATURAL_FLOAT || abs < MIN_NATURAL_FLOAT ? exponential(abs) : plainDecimal(abs));
}

/** Rust's `{:?}` of an f64 (floats inside arrays and maps). */
export function debugFloat(x: number): string {
  const special = specialFloat(x);
  if (special !== null) return special;
  const abs = Math.abs(x);
  const sign = Object.is(x, -0) || x < 0 ? '-' : '';
  if (abs === 0) return `${sign}0.0`;
  return sign + (abs >= 1e16 || abs < 1e-4 ? exponential(abs) : plainDecimal(abs));
}

function escapeChar(c: string, quote: string): string {
  switch (c) {
    case '\\':
      return '\\\\';
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    case '\0':
      return '\\0';
    case quote:
      return `\\${quote}`;
  }
  const code = c.codePointAt(0)!;
  return code < 0x20 || code === 0x7f ? `\\u{${code.toString(16)}}` : c;
}

function debugString(s: string): string {
  let out = '"';
  for (const c of s) out += escapeChar(c, '"');
  return `${out}"`;
}

/** Compares strings by code point, as Rust orders `str`. */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const ai = a[Symbol.iterator]();
  const bi = b[Symbol.iterator]();
  for (;;) {
    const x = ai.next();
    const y = bi.next();
    if (x.done === true) return y.done === true ? 0 : -1;
    if (y.done === true) return 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** Map keys in Rhai's order: maps are B-tree maps, sorted by key. */
export function sortedKeys(map: RMap): string[] {
  return [...map.keys()].sort(compareStrings);
}

/** The debug form (`to_debug`, items of printed arrays and maps). */
export function toDebug(v: Value): string {
  if (v === null) return '()';
  switch (typeof v) {
    case 'boolean':
    case 'bigint':
      return v.toString();
    case 'number':
      return debugFloat(v);
    case 'string':
      return debugString(v);
  }
  if (v instanceof RChar) return `'${escapeChar(v.ch, "'")}'`;
  if (Array.isArray(v)) return `[${v.map(toDebug).join(', ')}]`;
  if (v instanceof Map) return `#{${sortedKeys(v).map((k) => `${debugString(k)}: ${toDebug(v.get(k)!)}`).join(', ')}}`;
  if (v instanceof FnPtr) return `Fn(${v.name})`;
  return `${v.start}${v.inclusive ? '..=' : '..'}${v.end}`;
}

/** The print form (`to_string`, interpolation, string concatenation). */
export function toText(v: Value): string {
  if (v === null) return '';
  switch (typeof v) {
    case 'string':
      return v;
    case 'number':
      return formatFloat(v);
    case 'boolean':
    case 'bigint':
      return v.toString();
  }
  if (v instanceof RChar) return v.ch;
  return toDebug(v);
}

/**
 * `==` as Rhai's built-in operators compute it: INT and FLOAT compare numerically, a char
 * compares with a string as a one-character string, other mixed types are never equal.
 */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (typeof a === 'bigint' && typeof b === 'number') return Number(a) === b;
  if (typeof a === 'number' && typeof b === 'bigint') return a === Number(b);
  if (a instanceof RChar) return b instanceof RChar ? a.ch === b.ch : typeof b === 'string' && a.ch === b;
  if (b instanceof RChar) return typeof a === 'string' && a === b.ch;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]!));
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, x] of a) if (!b.has(k) || !valuesEqual(x, b.get(k)!)) return false;
    return true;
  }
  if (a instanceof RRange) return b instanceof RRange && a.start === b.start && a.end === b.end && a.inclusive === b.inclusive;
  return false;
}

/** Ordering for `<`, `>`…: a number, `undefined` for mixed types (always false), `null` when the type has none. */
export function compareValues(a: Value, b: Value): number | null | undefined {
  const num = (v: Value) => (typeof v === 'bigint' ? Number(v) : v);
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if ((typeof a === 'bigint' || typeof a === 'number') && (typeof b === 'bigint' || typeof b === 'number')) {
    const x = num(a) as number;
    const y = num(b) as number;
    return x < y ? -1 : x > y ? 1 : x === y ? 0 : Number.NaN;
  }
  const text = (v: Value) => (v instanceof RChar ? v.ch : v);
  const x = text(a);
  const y = text(b);
  if (typeof x === 'string' && typeof y === 'string') return compareStrings(x, y);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (a === null && b === null) return Number.NaN;
  if (typeName(a) !== typeName(b)) return undefined;
  return null;
}

/** A copy with Rhai's value semantics: arrays and maps are copied deeply. */
export function cloneValue(v: Value): Value {
  if (Array.isArray(v)) return v.map(cloneValue);
  if (v instanceof Map) {
    const copy: RMap = new Map();
    for (const [k, x] of v) copy.set(k, cloneValue(x));
    return copy;
  }
  return v;
}

/** Rhai's `calc_data_sizes`: array items, map entries and string bytes, nested ones included. */
export function dataSizes(v: Value): { arrays: number; maps: number; strings: number } {
  const sizes = { arrays: 0, maps: 0, strings: 0 };
  const visit = (x: Value) => {
    if (typeof x === 'string') sizes.strings += Buffer.byteLength(x);
    else if (Array.isArray(x)) {
      sizes.arrays += x.length;
      x.forEach(visit);
    } else if (x instanceof Map) {
      sizes.maps += x.size;
      x.forEach(visit);
    }
  };
  visit(v);
  return sizes;
}

/**
 * A JSON value as Rhai receives it: integers that fit in an i64 become INT, other numbers FLOAT,
 * as do the numbers the document wrote as floats (`9.0`, marked: types/wire-floats.ts), which
 * serde_json hands Rhai as f64.
 */
export function fromJson(v: unknown, float = false): Value {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'bigint':
      return v >= INT_MIN && v <= INT_MAX ? v : Number(v);
    case 'number':
      return !float && Number.isInteger(v) && v >= -(2 ** 63) && v < 2 ** 63 ? BigInt(v) : v;
  }
  if (Array.isArray(v)) return v.map((item, i) => fromJson(item, isFloatMember(v, i)));
  const map: RMap = new Map();
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) map.set(k, fromJson(x, isFloatMember(v as object, k)));
  return map;
}

/**
 * A Rhai value as serde serializes it to JSON: `()` and non-finite floats become `null`, chars
 * strings, maps objects with sorted keys; function pointers their name (and curried values), ranges
 * their Rust type's name. A FLOAT in a map or an
 * array is marked as one (types/wire-floats.ts), so that the document stored writes `10.0`.
 */
export function toJson(v: Value): unknown {
  if (v === null) return null;
  switch (typeof v) {
    case 'boolean':
    case 'string':
      return v;
    case 'bigint':
      // an integer beyond 2^53 stays exact, as serde prints an i64
      return Number.isSafeInteger(Number(v)) ? Number(v) : v;
    case 'number':
      return Number.isFinite(v) ? v : null;
  }
  if (v instanceof RChar) return v.ch;
  if (Array.isArray(v)) {
    const out = v.map(toJson);
    v.forEach((item, i) => typeof item === 'number' && withFloatMember(out, i));
    return out;
  }
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    // a key `__proto__` is a field like any other (an assignment would set the prototype)
    for (const k of sortedKeys(v)) {
      const item = v.get(k)!;
      setField(out, k, toJson(item));
      if (typeof item === 'number') withFloatMember(out, k);
    }
    return out;
  }
  // a curried pointer: its name and curried values; a range: its Rust type's name (rhai's serde)
  if (v instanceof FnPtr) return v.curry.length === 0 ? v.name : toJson([v.name, ...v.curry]);
  if (v.step !== 1n) return 'rhai::packages::iter_basic::StepRange<i64>';
  return v.inclusive ? 'core::ops::range::RangeInclusive<i64>' : 'core::ops::range::Range<i64>';
}

/** The JSON text of a value with serde_json's number forms (`to_json` of maps). */
export function toJsonText(v: Value): string {
  if (v === null) return 'null';
  switch (typeof v) {
    case 'boolean':
    case 'bigint':
      return v.toString();
    case 'number':
      return Number.isFinite(v) ? debugFloat(v) : 'null';
    case 'string':
      return JSON.stringify(v);
  }
  if (v instanceof RChar) return JSON.stringify(v.ch);
  if (Array.isArray(v)) return `[${v.map(toJsonText).join(',')}]`;
  if (v instanceof Map) return `{${sortedKeys(v).map((k) => `${JSON.stringify(k)}:${toJsonText(v.get(k)!)}`).join(',')}}`;
  if (v instanceof FnPtr) return v.curry.length > 0 ? toJsonText([v.name, ...v.curry]) : JSON.stringify(v.name);
  // anything else as its debug form (`1..3`), as rhai's format_dynamic_as_json writes it
  return toDebug(v);
}
