/**
 * Describes why a text is not valid JSON in the words of serde_json, which Meilisearch's
 * `malformed_payload` messages quote (`EOF while parsing an object at line 1 column 22`), as do
 * its embedders' errors about an answer they cannot read (embedders/rest.ts).
 * Only called on text known to be refused (JSON.parse failed, or it nests too deep) or that may
 * hold a number past f64's range (serde_json's `number out of range`, which JSON.parse reads as
 * Infinity), so it favours clarity over speed.
 * Columns are 1-based and count bytes of the line as serde_json does (at EOF: the line's length).
 * Nesting deeper than `maxDepth` is serde_json's `recursion limit exceeded`, reported in reading
 * order like any syntax error; `Infinity` for text Meilisearch only skims first (a document of an
 * array or NDJSON payload, read raw), where depth is not its concern.
 */
import { SERDE_MAX_DEPTH } from './json-depth.js';

class SyntaxFailure extends Error {}

const I32_MAX = 2 ** 31 - 1;

/** serde_json's first error in `text`, `undefined` when it has none (`text` being valid JSON then). */
export function serdeJsonError(text: string, maxDepth = SERDE_MAX_DEPTH): string | undefined {
  const bytes = Buffer.from(text, 'utf8');
  let pos = 0;
  /** The arrays (`[`) and objects (`{`) open around `pos`. */
  const stack: number[] = [];

  const fail = (msg: string, at: number): never => {
    let line = 1;
    let lineStart = 0;
    const end = Math.min(at, bytes.length);
    for (let i = 0; i < end; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const column = at >= bytes.length ? bytes.length - lineStart : at - lineStart + 1;
    throw new SyntaxFailure(`${msg} at line ${line} column ${column}`);
  };
  const isWs = (b: number | undefined) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;
  const skipWs = () => {
    while (pos < bytes.length && isWs(bytes[pos])) pos++;
  };

  const parseString = () => {
    pos++; // opening quote
    for (;;) {
      if (pos >= bytes.length) fail('EOF while parsing a string', pos);
      const b = bytes[pos]!;
      if (b === 0x22) {
        pos++;
        return;
      }
      if (b < 0x20) fail('control character (\\u0000-\\u001F) found while parsing a string', pos);
      if (b === 0x5c) {
        pos++;
        if (pos >= bytes.length) fail('EOF while parsing a string', pos);
        const e = bytes[pos]!;
        if (e === 0x75) {
          for (let i = 1; i <= 4; i++) {
            if (pos + i >= bytes.length) fail('EOF while parsing a string', bytes.length);
            if (!/[0-9a-fA-F]/.test(String.fromCharCode(bytes[pos + i]!))) fail('invalid escape', pos + i);
          }
          pos += 5;
          continue;
        }
        if (!'"\\/bfnrt'.includes(String.fromCharCode(e))) fail('invalid escape', pos);
      }
      pos++;
    }
  };

  const parseNumber = () => {
    const start = pos;
    if (bytes[pos] === 0x2d) pos++;
    const digit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;
    if (pos >= bytes.length) fail('EOF while parsing a value', pos);
    if (!digit(bytes[pos])) fail('invalid number', pos);
    if (bytes[pos] === 0x30 && digit(bytes[pos + 1])) fail('invalid number', pos + 1);
    while (digit(bytes[pos])) pos++;
    if (bytes[pos] === 0x2e) {
      pos++;
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (!digit(bytes[pos])) fail('invalid number', pos);
      while (digit(bytes[pos])) pos++;
    }
    const mantissaEnd = pos;
    if (bytes[pos] === 0x65 || bytes[pos] === 0x45) {
      pos++;
      const positiveExponent = bytes[pos] !== 0x2d;
      if (bytes[pos] === 0x2b || bytes[pos] === 0x2d) pos++;
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (!digit(bytes[pos])) fail('invalid number', pos);
      // serde_json stops at the digit that takes the exponent past an i32: out of range unless the number is 0 (or tends to it)
      const overflows = positiveExponent && /[1-9]/.test(bytes.toString('latin1', start, mantissaEnd));
      let exponent = 0;
      for (; digit(bytes[pos]); pos++) {
        exponent = exponent * 10 + bytes[pos]! - 0x30;
        if (overflows && exponent > I32_MAX) fail('number out of range', pos);
      }
    }
    if (pos === start) fail('invalid number', pos);
    // past f64's range: serde_json refuses it once the number is read, where JSON.parse makes it Infinity
    if (!Number.isFinite(Number(bytes.toString('latin1', start, pos)))) fail('number out of range', pos - 1);
  };

  const parseIdent = (word: string) => {
    for (let i = 0; i < word.length; i++) {
      if (pos >= bytes.length) fail('EOF while parsing a value', pos);
      if (bytes[pos] !== word.charCodeAt(i)) fail('expected ident', pos);
      pos++;
    }
  };

  /** The start of an object member, after `{` or `,`: its key and `:`. */
  const parseKey = () => {
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing an object', pos);
    if (bytes[pos] === 0x7d) fail('trailing comma', pos);
    if (bytes[pos] !== 0x22) fail('key must be a string', pos);
    parseString();
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing an object', pos);
    if (bytes[pos] !== 0x3a) fail('expected `:`', pos);
    pos++;
  };

  /**
   * Opens the array or object at `pos`: true when a first element or member is due, false when
   * it was empty and is already closed. serde_json counts the bracket before looking inside.
   */
  const open = (b: number): boolean => {
    if (stack.length >= maxDepth) fail('recursion limit exceeded', pos);
    pos++;
    skipWs();
    const close = b === 0x5b ? 0x5d : 0x7d;
    if (pos >= bytes.length) fail(b === 0x5b ? 'EOF while parsing a list' : 'EOF while parsing an object', pos);
    if (bytes[pos] === close) {
      pos++;
      return false;
    }
    stack.push(b);
    if (b === 0x7b) parseKey();
    return true;
  };

  /** A scalar, or the opening of a container (then true: its first element is due). */
  const parseValue = (): boolean => {
    skipWs();
    if (pos >= bytes.length) fail('EOF while parsing a value', pos);
    const b = bytes[pos]!;
    if (b === 0x7b || b === 0x5b) return open(b);
    if (b === 0x22) parseString();
    else if (b === 0x74) parseIdent('true');
    else if (b === 0x66) parseIdent('false');
    else if (b === 0x6e) parseIdent('null');
    else if (b === 0x2d || (b >= 0x30 && b <= 0x39)) parseNumber();
    else fail('expected value', pos);
    return false;
  };

  /**
   * After a complete value: closes the containers it ends and reads the separator before the
   * next element or member. True when one is due, false when the outermost value is complete.
   */
  const afterValue = (): boolean => {
    for (;;) {
      const container = stack.at(-1);
      if (container === undefined) return false;
      skipWs();
      const list = container === 0x5b;
      if (pos >= bytes.length) fail(list ? 'EOF while parsing a list' : 'EOF while parsing an object', pos);
      const b = bytes[pos];
      if (b === (list ? 0x5d : 0x7d)) {
        pos++;
        stack.pop();
        continue;
      }
      if (b !== 0x2c) fail(list ? 'expected `,` or `]`' : 'expected `,` or `}`', pos);
      pos++;
      if (list) {
        skipWs();
        if (bytes[pos] === 0x5d) fail('trailing comma', pos);
      } else {
        parseKey();
      }
      return true;
    }
  };

  try {
    // an explicit stack of open containers: a payload nested thousands deep must not recurse
    while (parseValue() || afterValue());
    skipWs();
    if (pos < bytes.length) fail('trailing characters', pos);
  } catch (err) {
    if (err instanceof SyntaxFailure) return err.message;
    throw err;
  }
  return undefined;
}

export function describeJsonSyntaxError(text: string, maxDepth = SERDE_MAX_DEPTH): string {
  // JSON.parse refused something the scanner accepts (e.g. invalid UTF-8): say so plainly.
  return serdeJsonError(text, maxDepth) ?? 'invalid unicode code point';
}

/**
 * Whether a value JSON.parse (or `parseJson`) read holds a number past f64's range, which it reads
 * as Infinity and serde_json refuses: only then need valid text be scanned with `serdeJsonError`.
 * A walk of the value read, not a scan of its text: a pattern over a 64 MB document's text held the
 * thread reading payloads 0.2-0.4 s, and strings such as `1e100` no longer send it to the scan.
 */
export function holdsOutOfRangeNumber(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'number') {
      if (next === Infinity || next === -Infinity) return true;
    } else if (Array.isArray(next)) {
      // an embedding answer's arrays hold millions of numbers: looked at here, not stacked
      for (const item of next) {
        if (typeof item === 'number') {
          if (item === Infinity || item === -Infinity) return true;
        } else stack.push(item);
      }
    } else if (typeof next === 'object' && next !== null) {
      for (const key in next) stack.push((next as Record<string, unknown>)[key]);
    }
  }
  return false;
}
