/**
 * The escape-sequence decoder applied to every filter value after its quotes are removed, with
 * the behaviour of the `unescaper` crate (0.1.x) that Meilisearch uses, because its failures are
 * user-visible filter errors. Pure; called by the value parser only.
 *
 * Sequences: `\b \f \n \r \t \' \" \\ \/`, `\xHH` (one byte, read as U+0000..U+00FF), `\uHHHH`,
 * `\u{H…}` (closing brace optional at the end), and octal `\o`, `\oo`, `\ooo` (first digit 0-3) or
 * `\o`, `\oo` (first digit 4-7). Digits are parsed like Rust's `from_str_radix`, which also
 * accepts a leading `+`.
 */

export type UnescapeResult =
  | { readonly ok: true; readonly value: string }
  /** `incomplete`: a sequence is cut short by the end of the text; `number`: its digits are not a
   * number; `char`: unknown escape letter, or a number that is no Unicode scalar value. */
  | { readonly ok: false; readonly reason: 'incomplete' | 'number' | 'char' };

const SIMPLE: ReadonlyMap<string, string> = new Map([
  ['b', '\b'],
  ['f', '\f'],
  ['n', '\n'],
  ['r', '\r'],
  ['t', '\t'],
  ["'", "'"],
  ['"', '"'],
  ['\\', '\\'],
  ['/', '/'],
]);

/** Reads a text one character (code point) at a time. */
class Cursor {
  private readonly chars: string[];
  private i = 0;

  constructor(text: string) {
    this.chars = Array.from(text);
  }

  /** The next character, or undefined at the end. */
  next(): string | undefined {
    return this.chars[this.i++];
  }

  /** Consumes and returns the next character if it is an octal digit. */
  nextOctalDigit(): string | undefined {
    const c = this.chars[this.i];
    if (c === undefined || c < '0' || c > '7') return undefined;
    this.i++;
    return c;
  }

  /** The next `count` characters, or undefined if the text ends first. */
  nextN(count: number): string | undefined {
    let text = '';
    for (let k = 0; k < count; k++) {
      const c = this.next();
      if (c === undefined) return undefined;
      text += c;
    }
    return text;
  }
}

const INCOMPLETE: UnescapeResult = { ok: false, reason: 'incomplete' };
const BAD_NUMBER: UnescapeResult = { ok: false, reason: 'number' };
const BAD_CHAR: UnescapeResult = { ok: false, reason: 'char' };

export function unescapeValue(text: string): UnescapeResult {
  if (!text.includes('\\')) return { ok: true, value: text };
  const cursor = new Cursor(text);
  let out = '';
  for (let char = cursor.next(); char !== undefined; char = cursor.next()) {
    if (char !== '\\') {
      out += char;
      continue;
    }
    const escape = cursor.next();
    if (escape === undefined) return INCOMPLETE;
    const simple = SIMPLE.get(escape);
    let decoded: UnescapeResult;
    if (simple !== undefined) decoded = { ok: true, value: simple };
    else if (escape === 'u') decoded = unicodeEscape(cursor);
    else if (escape === 'x') decoded = byteEscape(cursor);
    else decoded = octalEscape(escape, cursor);
    if (!decoded.ok) return decoded;
    out += decoded.value;
  }
  return { ok: true, value: out };
}

function unicodeEscape(cursor: Cursor): UnescapeResult {
  const first = cursor.next();
  if (first === undefined) return INCOMPLETE;
  let digits: string;
  if (first === '{') {
    digits = '';
    for (let c = cursor.next(); c !== undefined && c !== '}'; c = cursor.next()) digits += c;
  } else {
    const rest = cursor.nextN(3);
    if (rest === undefined) return INCOMPLETE;
    digits = first + rest;
  }
  const code = parseUnsigned(digits, 16, 0xffffffff);
  if (code === undefined) return BAD_NUMBER;
  if (code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return BAD_CHAR;
  return { ok: true, value: String.fromCodePoint(code) };
}

function byteEscape(cursor: Cursor): UnescapeResult {
  const digits = cursor.nextN(2);
  if (digits === undefined) return INCOMPLETE;
  const code = parseUnsigned(digits, 16, 0xff);
  return code === undefined ? BAD_NUMBER : { ok: true, value: String.fromCharCode(code) };
}

function octalEscape(first: string, cursor: Cursor): UnescapeResult {
  let extraDigits: number;
  if (first >= '0' && first <= '3') extraDigits = 2;
  else if (first >= '4' && first <= '7') extraDigits = 1;
  else return BAD_CHAR;
  let digits = first;
  for (let k = 0; k < extraDigits; k++) {
    const digit = cursor.nextOctalDigit();
    if (digit === undefined) break;
    digits += digit;
  }
  // At most `377` (255): always one byte.
  return { ok: true, value: String.fromCharCode(parseInt(digits, 8)) };
}

/** Rust `uN::from_str_radix`: optional `+`, then at least one digit, no overflow past `max`. */
function parseUnsigned(text: string, radix: number, max: number): number | undefined {
  const digits = text.startsWith('+') ? text.slice(1) : text;
  if (digits.length === 0) return undefined;
  let value = 0;
  for (const c of digits) {
    const digit = digitValue(c);
    if (digit === undefined || digit >= radix) return undefined;
    value = value * radix + digit;
    if (value > max) return undefined;
  }
  return value;
}

/** Rust `char::to_digit(36)`: ASCII digits and letters only. */
function digitValue(c: string): number | undefined {
  if (c.length !== 1) return undefined;
  const code = c.charCodeAt(0);
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 122) return code - 87;
  if (code >= 65 && code <= 90) return code - 55;
  return undefined;
}
