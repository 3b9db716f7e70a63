/**
 * How deep a JSON text nests, found without parsing it: serde_json, Meilisearch's reader, stops
 * at 128 open arrays and objects (`recursion limit exceeded`), while JSON.parse reads any depth
 * and what walks the value afterwards recursively runs out of stack. One pass over the bytes,
 * strings skipped (`closingQuote`, also the NDJSON reader's). Shared by the body reader (http)
 * and the engine's check of the payloads it reads, which cannot import http.
 */

/** The deepest nesting serde_json reads into a value: its 128th open bracket fails. */
export const SERDE_MAX_DEPTH = 127;

export const QUOTE = 0x22;
const BACKSLASH = 0x5c;
export const OPEN_ARRAY = 0x5b;
export const OPEN_OBJECT = 0x7b;
export const CLOSE_ARRAY = 0x5d;
export const CLOSE_OBJECT = 0x7d;

/** Whether `bytes` holds more opening brackets than `max`, strings included (native searches). */
function opensMoreThan(bytes: Buffer, max: number): boolean {
  let count = 0;
  for (const open of [OPEN_ARRAY, OPEN_OBJECT]) {
    for (let at = bytes.indexOf(open); at !== -1; at = bytes.indexOf(open, at + 1)) if (++count > max) return true;
  }
  return false;
}

/**
 * The byte offset of the first `[` or `{` outside strings that opens level `maxDepth + 1`, or -1.
 * Most texts have too few brackets to need the byte-by-byte scan.
 */
export function firstOpenBeyond(bytes: Buffer, maxDepth: number): number {
  if (!opensMoreThan(bytes, maxDepth)) return -1;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i === -1) return -1;
    } else if (b === OPEN_ARRAY || b === OPEN_OBJECT) {
      if (++depth > maxDepth) return i;
    } else if (b === CLOSE_ARRAY || b === CLOSE_OBJECT) {
      depth--;
    }
  }
  return -1;
}

/** Whether some `[` or `{` outside strings opens level `maxDepth + 1`. */
export function nestsDeeper(bytes: Buffer, maxDepth: number): boolean {
  return firstOpenBeyond(bytes, maxDepth) !== -1;
}

/** The offset of the quote ending the string whose content starts at `from`, or -1. */
export function closingQuote(bytes: Buffer, from: number): number {
  for (let quote = bytes.indexOf(QUOTE, from); quote !== -1; quote = bytes.indexOf(QUOTE, quote + 1)) {
    let backslashes = 0;
    while (bytes[quote - 1 - backslashes] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return -1;
}
