/**
 * Facet values as Meilisearch compares them (filter.md §3): string normalisation, the byte cap on
 * stored strings, filter tokens read as numbers the way Rust's `f64::from_str` reads them, and
 * f64 printed the way Rust's `Display` prints it (error messages echo numbers).
 * Pure; used by the facet extractor (indexing) and the filter evaluator (querying) alike, so
 * both sides of a comparison go through the same functions.
 */
import { parseRustF64 } from '../../types/rust-float.js';
import { rustTrim, trimmedEnd, trimmedStart } from '../../types/rust-whitespace.js';

/** Stored string facets are cut to this many bytes of their normalised form (on a char boundary). */
export const MAX_FACET_VALUE_BYTES = 468;

/** `normalize_facet`: trim, Unicode NFKD, lowercase. Accents stay (decomposed), so `é` ≠ `e`. */
export function normalizeFacet(value: string): string {
  return rustTrim(value).normalize('NFKD').toLowerCase();
}

const ASCII = /^[\0-\x7f]*$/;

/**
 * A string's facet key, `truncateFacet(normalizeFacet(value))`, without normalising the whole of a
 * long value whose key is plain ASCII: a 30 MB value took ~0.25 s to normalise, on the thread
 * reading a distribution's original spellings. ASCII is its own NFKD, lowercases character for
 * character, and starts no sequence that NFKD's reordering or a final sigma would reach back
 * across; so when the trimmed value's first MAX_FACET_VALUE_BYTES characters are ASCII and more
 * follow them, the key is those characters lowercased.
 */
export function facetKey(value: string): string {
  if (value.length > MAX_FACET_VALUE_BYTES) {
    const start = trimmedStart(value);
    const head = value.slice(start, start + MAX_FACET_VALUE_BYTES);
    if (trimmedEnd(value, start) - start > MAX_FACET_VALUE_BYTES && ASCII.test(head)) return head.toLowerCase();
  }
  return truncateFacet(normalizeFacet(value));
}

/** The normalised value cut to `MAX_FACET_VALUE_BYTES` UTF-8 bytes without splitting a character. */
export function truncateFacet(normalized: string): string {
  if (normalized.length * 3 <= MAX_FACET_VALUE_BYTES) return normalized;
  const bytes = Buffer.from(normalized);
  if (bytes.length <= MAX_FACET_VALUE_BYTES) return normalized;
  let end = MAX_FACET_VALUE_BYTES;
  // Back up over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString();
}

/** The token as a finite f64 as Rust parses it, or null (then the token only matches as a string). */
export function parseFiniteFloat(text: string): number | null {
  const value = parseRustF64(text);
  return value !== null && Number.isFinite(value) ? value : null;
}

/** A number as Rust's `{}` prints an f64: never in exponent form, `-0` kept, `inf` and `NaN` as Rust spells them. */
export function rustFloat(value: number): string {
  if (Object.is(value, -0)) return '-0';
  if (value === Infinity || value === -Infinity) return value > 0 ? 'inf' : '-inf';
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (match === null) return text;
  const [, sign, head, tail = '', exp] = match;
  const digits = head! + tail;
  const point = 1 + Number(exp);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/**
 * 8 bytes whose unsigned byte order is the numeric order of the f64 (the usual sign-flip trick):
 * positive numbers get their sign bit set, negative numbers have every bit inverted.
 */
export function orderedF64(value: number, out: Buffer = Buffer.allocUnsafe(8), offset = 0): Buffer {
  out.writeDoubleBE(value === 0 ? 0 : value, offset);
  if (out[offset]! & 0x80) {
    for (let i = offset; i < offset + 8; i++) out[i] = ~out[i]! & 0xff;
  } else {
    out[offset] = out[offset]! | 0x80;
  }
  return out;
}

/** Inverse of `orderedF64`. */
export function readOrderedF64(bytes: Uint8Array, offset: number): number {
  const copy = Buffer.from(bytes.subarray(offset, offset + 8));
  if (copy[0]! & 0x80) copy[0] = copy[0]! & 0x7f;
  else for (let i = 0; i < 8; i++) copy[i] = ~copy[i]! & 0xff;
  return copy.readDoubleBE(0);
}
