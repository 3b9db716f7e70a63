/**
 * Reference of assembly/json-line.ts, for the tests: whether some bytes are exactly one compact
 * JSON object, as the documents route decided before the kernel: valid UTF-8 that JSON.parse
 * reads as one object, with no whitespace outside strings and brackets nested at most `maxDepth`
 * deep. (The kernel's length of a leading object is checked against it on the object's bytes.)
 * And the compact form of bytes that are exactly one such object but for whitespace between its
 * tokens: the bytes without that whitespace.
 */
import { isUtf8 } from 'node:buffer';
import { closingQuote } from '../../types/json-depth.js';

const QUOTE = 0x22;

/**
 * `line` as a Buffer when it starts with `{` and is valid UTF-8 that JSON.parse reads as one object
 * holding no number that may be past f64's range (`holdsLongNumber`); else null.
 */
function parsedObject(line: Uint8Array): Buffer | null {
  if (line[0] !== 0x7b || !isUtf8(line)) return null;
  const bytes = Buffer.from(line.buffer, line.byteOffset, line.length);
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return typeof value !== 'object' || value === null || Array.isArray(value) || holdsLongNumber(bytes) ? null : bytes;
  } catch {
    return null;
  }
}

const isDigit = (b: number | undefined): boolean => b !== undefined && b >= 0x30 && b <= 0x39;

/** Whether valid JSON `bytes` hold a number with over 200 integer digits or a positive exponent of three significant digits or more. */
function holdsLongNumber(bytes: Buffer): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = closingQuote(bytes, i + 1);
      continue;
    }
    if (b !== 0x2d && !isDigit(b)) continue;
    if (b === 0x2d) i++;
    let digits = 0;
    for (; isDigit(bytes[i]); i++) digits++;
    if (digits > 200) return true;
    if (bytes[i] === 0x2e) for (i++; isDigit(bytes[i]); i++);
    if (bytes[i] === 0x65 || bytes[i] === 0x45) {
      const negative = bytes[++i] === 0x2d;
      if (negative || bytes[i] === 0x2b) i++;
      while (bytes[i] === 0x30) i++;
      let significant = 0;
      for (; isDigit(bytes[i]); i++) significant++;
      if (!negative && significant >= 3) return true;
    }
    i--; // the byte after the number is looked at by the loop
  }
  return false;
}

export function isCompactJsonObjectReference(line: Uint8Array, maxDepth: number): boolean {
  const bytes = parsedObject(line);
  if (bytes === null) return false;
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const b = line[i]!;
    if (b === QUOTE) {
      // valid JSON: the string ends at the next quote not escaped by an odd run of backslashes
      i = closingQuote(bytes, i + 1);
    } else if (b === 0x7b || b === 0x5b) {
      if (++depth > maxDepth) return false;
    } else if (b === 0x7d || b === 0x5d) {
      depth--;
    } else if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
      return false;
    }
  }
  return true;
}

/** `line` without its whitespace outside strings, when it is one object (nested at most `maxDepth` deep) ending at its last byte; else null. */
export function compactedJsonObjectReference(line: Uint8Array, maxDepth: number): Uint8Array | null {
  const bytes = line[line.length - 1] === 0x7d ? parsedObject(line) : null;
  if (bytes === null) return null;
  const out: number[] = [];
  let depth = 0;
  for (let i = 0; i < line.length; i++) {
    const b = line[i]!;
    if (b === QUOTE) {
      const end = closingQuote(bytes, i + 1);
      for (let k = i; k <= end; k++) out.push(line[k]!);
      i = end;
    } else if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
      continue;
    } else {
      if (b === 0x7b || b === 0x5b) {
        if (++depth > maxDepth) return null;
      } else if (b === 0x7d || b === 0x5d) {
        depth--;
      }
      out.push(b);
    }
  }
  return Uint8Array.from(out);
}
