/**
 * A small re-enactment of Rust's serde_json deserializer over a byte slice, for the messages
 * Meilisearch quotes from it (``Could not decode tenant token, JSON error: missing field
 * `searchRules` at line 1 column 16.``).
 *
 * Pure. Callers: tenant-token.ts, which describes its header and claims structs with the
 * combinators below (`struct`, `option`, `string`, `i64`, `enumVariant`, `anyValue`), and the
 * chat's search tool (chats/search-tool.ts), which reads the LLM's arguments as a struct.
 * Invariants, as serde_json:
 * - the first error in reading order wins; syntax errors carry the position where they are met;
 * - errors raised by a visitor (missing/duplicate field, untagged mismatch) carry no position
 *   until the enclosing struct or string reader stamps the position it has reached;
 * - "line L column C" counts bytes; a "peek" position is one past the reader's index.
 * - at most 127 arrays and objects open at once (`recursion limit exceeded` at the 128th);
 *   deeper, a recursive reader would run out of stack.
 * Only what the tenant-token structs use is modelled: no arbitrary precision, struct fields of
 * the kinds below.
 */
import { ryu } from './ryu.js';
import { rustDebugString } from './rust-debug.js';

/** A serde_json error, message complete with its position when it has one. */
export class SerdeError extends Error {
  constructor(
    readonly reason: string,
    readonly where: string | null,
  ) {
    super(where === null ? reason : `${reason} at ${where}`);
    this.name = 'SerdeError';
  }
}

/** A JSON number, typed as serde_json reads it. */
type NumberContent = { kind: 'u64' | 'i64' | 'f64'; value: number; text: string };

/** A JSON value as serde's `Content` buffers it (untagged enums are matched against it). */
export type Content =
  | { kind: 'null' }
  | { kind: 'bool'; value: boolean }
  | NumberContent
  | { kind: 'string'; value: string }
  | { kind: 'seq'; items: Content[] }
  | { kind: 'map'; entries: Array<[string, Content]> };

/** Reads one value of type T at the reader's position. */
export type Read<T> = (r: Reader) => T;

export class Reader {
  index = 0;
  /** serde_json's `remaining_depth`: its 128th open array or object fails. */
  private remainingDepth = 128;

  constructor(readonly bytes: Uint8Array) {}

  peek(): number | undefined {
    return this.bytes[this.index];
  }

  eat(): void {
    this.index++;
  }

  /**
   * Reads the array or object whose bracket is the next byte with `read` (serde_json's
   * `check_recursion`, which counts the bracket before reading it).
   */
  nested<T>(read: () => T): T {
    if (--this.remainingDepth === 0) throw this.peekError('recursion limit exceeded');
    try {
      return read();
    } finally {
      this.remainingDepth++;
    }
  }

  /** Skips whitespace and returns the next byte without consuming it. */
  whitespace(): number | undefined {
    while (this.index < this.bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(this.bytes[this.index]!)) this.index++;
    return this.peek();
  }

  /** An error positioned at the byte about to be read (serde_json's `peek_error`). */
  peekError(reason: string): SerdeError {
    return new SerdeError(reason, this.where(Math.min(this.bytes.length, this.index + 1)));
  }

  /** An error positioned at the last byte read (serde_json's `error`). */
  error(reason: string): SerdeError {
    return new SerdeError(reason, this.where(this.index));
  }

  /** Gives a position-less error the current peek position (serde_json's `fix_position`). */
  fix(error: unknown): unknown {
    return error instanceof SerdeError && error.where === null ? this.peekError(error.reason) : error;
  }

  private where(at: number): string {
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (this.bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    return `line ${line} column ${at - lineStart}`;
  }
}

/** Deserializes the whole slice as one T; trailing non-whitespace is an error. */
export function fromSlice<T>(bytes: Uint8Array, read: Read<T>): T {
  const r = new Reader(bytes);
  const value = read(r);
  if (r.whitespace() !== undefined) throw r.peekError('trailing characters');
  return value;
}

/** Raised by visitors: positioned later by the reader that catches it. */
export function custom(reason: string): SerdeError {
  return new SerdeError(reason, null);
}

// ---- scalars ------------------------------------------------------------------------------------

const QUOTE = 0x22;

const SIMPLE_ESCAPES: Readonly<Record<string, string>> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A JSON string (the reader is on its opening quote). Runs between escapes are kept as views of
 * the input and decoded once, whole: a string of hundreds of megabytes (an LLM's streamed tool
 * arguments) is never an array of its bytes, which past V8's array bound ends the process.
 */
function readStringToken(r: Reader): string {
  r.eat();
  const start = r.index;
  const pieces: Uint8Array[] = [];
  let run = r.index;
  for (;;) {
    if (r.index >= r.bytes.length) throw r.error('EOF while parsing a string');
    const b = r.bytes[r.index]!;
    if (b !== QUOTE && b !== 0x5c && b >= 0x20) {
      r.index++;
      continue;
    }
    if (r.index > run) pieces.push(r.bytes.subarray(run, r.index));
    r.eat();
    if (b === QUOTE) break;
    if (b < 0x20) throw r.error('control character (\\u0000-\\u001F) found while parsing a string');
    if (r.index >= r.bytes.length) throw r.error('EOF while parsing a string');
    const escape = String.fromCharCode(r.bytes[r.index]!);
    r.eat();
    const simple = SIMPLE_ESCAPES[escape];
    if (simple !== undefined) {
      pieces.push(Buffer.from(simple, 'utf8'));
    } else if (escape === 'u') {
      let code = readHex4(r);
      if (code >= 0xdc00 && code <= 0xdfff) throw r.error('lone leading surrogate in hex escape');
      if (code >= 0xd800 && code <= 0xdbff) {
        for (const expected of [0x5c, 0x75]) {
          const next = r.peek();
          if (next === undefined) throw r.error('EOF while parsing a string');
          r.eat();
          if (next !== expected) throw r.error('unexpected end of hex escape');
        }
        const low = readHex4(r);
        if (low < 0xdc00 || low > 0xdfff) throw r.error('lone leading surrogate in hex escape');
        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
      }
      pieces.push(Buffer.from(String.fromCodePoint(code), 'utf8'));
    } else {
      throw r.error('invalid escape');
    }
    run = r.index;
  }
  try {
    return fatalUtf8.decode(pieces.length === 1 ? pieces[0] : Buffer.concat(pieces));
  } catch {
    r.index = start;
    throw r.error('invalid unicode code point');
  }
}

function readHex4(r: Reader): number {
  if (r.index + 4 > r.bytes.length) {
    r.index = r.bytes.length;
    throw r.error('EOF while parsing a string');
  }
  let value = 0;
  for (let i = 0; i < 4; i++) {
    const digit = parseInt(String.fromCharCode(r.bytes[r.index]!), 16);
    r.eat();
    if (Number.isNaN(digit)) throw r.error('invalid escape');
    value = value * 16 + digit;
  }
  return value;
}

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;

/** A number (the reader is on its first digit or minus sign): u64, i64 or f64 as serde_json reads it. */
function readNumberToken(r: Reader): NumberContent {
  const start = r.index;
  const negative = r.peek() === 0x2d;
  if (negative) r.eat();
  const first = r.peek();
  if (first === undefined) throw r.error('EOF while parsing a value');
  r.eat();
  if (first === 0x30) {
    if (isDigit(r.peek())) throw r.peekError('invalid number');
  } else if (isDigit(first)) {
    while (isDigit(r.peek())) r.eat();
  } else {
    throw r.error('invalid number');
  }
  let float = false;
  if (r.peek() === 0x2e) {
    float = true;
    r.eat();
    if (!isDigit(r.peek())) throw r.peekError(r.peek() === undefined ? 'EOF while parsing a value' : 'invalid number');
    while (isDigit(r.peek())) r.eat();
  }
  if (r.peek() === 0x65 || r.peek() === 0x45) {
    float = true;
    r.eat();
    if (r.peek() === 0x2b || r.peek() === 0x2d) r.eat();
    if (!isDigit(r.peek())) {
      if (r.peek() !== undefined) r.eat();
      throw r.error('invalid number');
    }
    while (isDigit(r.peek())) r.eat();
  }
  const text = Buffer.from(r.bytes.subarray(start, r.index)).toString('latin1');
  if (!float) {
    const big = BigInt(text);
    if (!negative && big <= 2n ** 64n - 1n) return { kind: 'u64', value: Number(big), text };
    if (negative && big >= -(2n ** 63n)) return { kind: 'i64', value: Number(big), text };
  }
  const value = Number(text);
  if (!Number.isFinite(value)) throw r.error('number out of range');
  return { kind: 'f64', value, text };
}

function readIdent(r: Reader, rest: string): void {
  for (const char of rest) {
    const b = r.peek();
    if (b === undefined) throw r.error('EOF while parsing a value');
    r.eat();
    if (b !== char.charCodeAt(0)) throw r.error('expected ident');
  }
}

/** How serde_json names an unexpected value in "invalid type" messages. */
function describeUnexpected(value: Content): string {
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'bool':
      return `boolean \`${value.value}\``;
    case 'u64':
    case 'i64':
      return `integer \`${BigInt(value.text)}\``;
    case 'f64':
      return `floating point \`${ryu(value.value)}\``;
    case 'string':
      return `string ${rustDebugString(value.value)}`;
    case 'seq':
      return 'sequence';
    case 'map':
      return 'map';
  }
}

/** serde_json's `peek_invalid_type`: consumes a scalar to name it, leaves `[`/`{` in place. */
function invalidType(r: Reader, expected: string): SerdeError {
  const b = r.whitespace();
  let found: Content;
  if (b === 0x6e) {
    r.eat();
    readIdent(r, 'ull');
    found = { kind: 'null' };
  } else if (b === 0x74 || b === 0x66) {
    r.eat();
    readIdent(r, b === 0x74 ? 'rue' : 'alse');
    found = { kind: 'bool', value: b === 0x74 };
  } else if (b === 0x2d || isDigit(b)) {
    found = readNumberToken(r);
  } else if (b === QUOTE) {
    found = { kind: 'string', value: readStringToken(r) };
  } else if (b === 0x5b) {
    found = { kind: 'seq', items: [] };
  } else if (b === 0x7b) {
    found = { kind: 'map', entries: [] };
  } else {
    return r.peekError(b === undefined ? 'EOF while parsing a value' : 'expected value');
  }
  return r.peekError(`invalid type: ${describeUnexpected(found)}, expected ${expected}`);
}

// ---- combinators -----------------------------------------------------------------------------------

/** A string; `check` may refuse it with a message (serde's `custom` error). */
export function string(expected = 'a string', check?: (value: string) => string | undefined): Read<string> {
  return (r) => {
    if (r.whitespace() !== QUOTE) throw invalidType(r, expected);
    const value = readStringToken(r);
    const problem = check?.(value);
    if (problem !== undefined) throw r.peekError(problem);
    return value;
  };
}

/** A signed 64-bit integer, kept as its decimal text (bigint-exact). */
export const i64: Read<bigint> = (r) => {
  const b = r.whitespace();
  if (b !== 0x2d && !isDigit(b)) throw invalidType(r, 'i64');
  const number = readNumberToken(r);
  if (number.kind === 'f64') throw r.peekError(`invalid type: ${describeUnexpected(number)}, expected i64`);
  const value = BigInt(number.text);
  if (value > 2n ** 63n - 1n) throw r.peekError(`invalid value: ${describeUnexpected(number)}, expected i64`);
  return value;
};

/** `Option<T>`: `null` is `undefined`. */
export function option<T>(read: Read<T>): Read<T | undefined> {
  return (r) => {
    if (r.whitespace() !== 0x6e) return read(r);
    r.eat();
    readIdent(r, 'ull');
    return undefined;
  };
}

/** `Vec<T>`. */
export function seq<T>(read: Read<T>): Read<T[]> {
  return (r) => {
    if (r.whitespace() !== 0x5b) throw invalidType(r, 'a sequence');
    return r.nested(() => {
      r.eat();
      const items: T[] = [];
      let failure: unknown;
      try {
        while (hasNextElement(r, items.length === 0)) items.push(read(r));
      } catch (error) {
        failure = error;
      }
      const end = endSeq(r);
      if (failure !== undefined || end !== undefined) throw r.fix(failure ?? end);
      return items;
    });
  };
}

/** A unit-variant enum written as a string (`"HS256"`). */
export function enumVariant<V extends string>(variants: readonly V[]): Read<V> {
  return (r) => {
    const b = r.whitespace();
    if (b !== QUOTE) throw r.peekError(b === undefined ? 'EOF while parsing a value' : 'expected value');
    const value = readStringToken(r);
    if (!(variants as readonly string[]).includes(value)) {
      throw r.peekError(`unknown variant \`${value}\`, expected ${oneOf(variants)}`);
    }
    return value as V;
  };
}

function oneOf(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(', ')}`;
}

/** Any JSON value, buffered (serde's `Content`, also how ignored fields are skipped). */
export const anyValue: Read<Content> = (r) => {
  const b = r.whitespace();
  switch (b) {
    case undefined:
      throw r.peekError('EOF while parsing a value');
    case 0x6e:
      r.eat();
      readIdent(r, 'ull');
      return { kind: 'null' };
    case 0x74:
    case 0x66:
      r.eat();
      readIdent(r, b === 0x74 ? 'rue' : 'alse');
      return { kind: 'bool', value: b === 0x74 };
    case QUOTE:
      return { kind: 'string', value: readStringToken(r) };
    case 0x5b:
      return { kind: 'seq', items: seq(anyValue)(r) };
    case 0x7b:
      return r.nested(() => {
        r.eat();
        const entries: Array<[string, Content]> = [];
        let failure: unknown;
        try {
          while (hasNextKey(r, entries.length === 0)) {
            const key = readStringToken(r);
            objectColon(r);
            entries.push([key, anyValue(r)]);
          }
        } catch (error) {
          failure = error;
        }
        const end = endMap(r);
        if (failure !== undefined || end !== undefined) throw r.fix(failure ?? end);
        return { kind: 'map', entries } as Content;
      });
    default:
      if (b === 0x2d || isDigit(b)) return readNumberToken(r);
      throw r.peekError('expected value');
  }
};

/** A struct field: its JSON name, how to read it, and whether it may be absent (`Option`). */
export interface Field {
  readonly name: string;
  readonly read: Read<unknown>;
  readonly optional?: boolean;
}

/**
 * A `#[derive(Deserialize)]` struct without `deny_unknown_fields`: from an object (unknown keys
 * skipped, duplicates refused, missing fields reported in declaration order) or from an array
 * holding every field in declaration order.
 */
export function struct(name: string, fields: readonly Field[]): Read<Record<string, unknown>> {
  return (r) => {
    const b = r.whitespace();
    if (b !== 0x7b && b !== 0x5b) throw invalidType(r, `struct ${name}`);
    return r.nested(() => {
      r.eat();
      const values: Record<string, unknown> = {};
      let failure: unknown;
      try {
        if (b === 0x7b) readFields(r, fields, values);
        else readElements(r, name, fields, values);
      } catch (error) {
        failure = error;
      }
      // The closing bracket is read even after a failure, which moves the position it is given.
      const end = b === 0x7b ? endMap(r) : endSeq(r);
      if (failure !== undefined || end !== undefined) throw r.fix(failure ?? end);
      return values;
    });
  };
}

function readFields(r: Reader, fields: readonly Field[], values: Record<string, unknown>): void {
  const seen = new Set<string>();
  let first = true;
  while (hasNextKey(r, first)) {
    first = false;
    const key = readStringToken(r);
    const field = fields.find((f) => f.name === key);
    if (field === undefined) {
      objectColon(r);
      anyValue(r);
      continue;
    }
    if (seen.has(key)) throw custom(`duplicate field \`${key}\``);
    seen.add(key);
    objectColon(r);
    values[key] = field.read(r);
  }
  for (const field of fields) {
    if (!seen.has(field.name) && field.optional !== true) throw custom(`missing field \`${field.name}\``);
  }
}

function readElements(r: Reader, name: string, fields: readonly Field[], values: Record<string, unknown>): void {
  const expected = `struct ${name} with ${fields.length} element${fields.length === 1 ? '' : 's'}`;
  fields.forEach((field, i) => {
    if (!hasNextElement(r, i === 0)) throw custom(`invalid length ${i}, expected ${expected}`);
    values[field.name] = field.read(r);
  });
}

function hasNextKey(r: Reader, first: boolean): boolean {
  let b = r.whitespace();
  if (b === 0x7d) return false;
  if (b === undefined) throw r.peekError('EOF while parsing an object');
  if (!first) {
    if (b !== 0x2c) throw r.peekError('expected `,` or `}`');
    r.eat();
    b = r.whitespace();
  }
  if (b === QUOTE) return true;
  if (b === 0x7d) throw r.peekError('trailing comma');
  throw r.peekError(b === undefined ? 'EOF while parsing a value' : 'key must be a string');
}

function hasNextElement(r: Reader, first: boolean): boolean {
  let b = r.whitespace();
  if (b === 0x5d) return false;
  if (b === undefined) throw r.peekError('EOF while parsing a list');
  if (!first) {
    if (b !== 0x2c) throw r.peekError('expected `,` or `]`');
    r.eat();
    b = r.whitespace();
  }
  if (b === 0x5d) throw r.peekError('trailing comma');
  if (b === undefined) throw r.peekError('EOF while parsing a value');
  return true;
}

function objectColon(r: Reader): void {
  const b = r.whitespace();
  if (b === 0x3a) return r.eat();
  throw r.peekError(b === undefined ? 'EOF while parsing an object' : 'expected `:`');
}

function endMap(r: Reader): SerdeError | undefined {
  const b = r.whitespace();
  if (b === 0x7d) {
    r.eat();
    return undefined;
  }
  if (b === 0x2c) return r.peekError('trailing comma');
  return r.peekError(b === undefined ? 'EOF while parsing an object' : 'trailing characters');
}

function endSeq(r: Reader): SerdeError | undefined {
  const b = r.whitespace();
  if (b === 0x5d) {
    r.eat();
    return undefined;
  }
  if (b === 0x2c) {
    r.eat();
    return r.peekError(r.whitespace() === 0x5d ? 'trailing comma' : 'trailing characters');
  }
  return r.peekError(b === undefined ? 'EOF while parsing a list' : 'trailing characters');
}
