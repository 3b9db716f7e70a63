/**
 * How many values a JSON text holds, bounded, found without parsing it. JSON.parse builds every
 * value of a body on the thread that answers every request, at up to ~0.4 µs each (1,000,000
 * short strings took 370–620 ms, 10,000,000 zeros, a 20 MB body, 0.85–1.2 s), so a body within
 * the 100 MB payload limit could hold that thread for seconds before any validator sees it.
 * Commas and opening brackets outside strings are counted, at least one per value but the
 * last: the count stops past the bound. Strings are skipped as json-depth.ts skips them.
 */
import { closingQuote } from './json-depth.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;

/** How many of `byte` `bytes` holds, strings included (native searches), counted up to `max + 1`. */
function countUpTo(bytes: Buffer, byte: number, max: number): number {
  let count = 0;
  for (let at = bytes.indexOf(byte); at !== -1 && count <= max; at = bytes.indexOf(byte, at + 1)) count++;
  return count;
}

/** Whether the JSON text `bytes` holds more than `max` commas and opening brackets outside its strings. */
export function holdsMoreValuesThan(bytes: Buffer, max: number): boolean {
  // most bodies have too few of them, strings included, to need the byte-by-byte scan
  let rough = 0;
  for (const byte of [COMMA, OPEN_ARRAY, OPEN_OBJECT]) if (rough <= max) rough += countUpTo(bytes, byte, max - rough);
  if (rough <= max) return false;
  let count = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i === -1) return false;
    } else if ((b === COMMA || b === OPEN_ARRAY || b === OPEN_OBJECT) && ++count > max) {
      return true;
    }
  }
  return false;
}
