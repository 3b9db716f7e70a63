/**
 * How deep a JSON text nests, found without parsing it: serde_json, Meilisearch's reader, stops
 * at 127 open arrays and objects (`recursion limit exceeded`), while JSON.parse reads any depth
 * and what walks the value afterwards recursively runs out of stack. One pass over the bytes,
 * strings skipped (`closingQuote`, also the NDJSON reader's), so it costs no more than reading
 * the body.
 */

/** The deepest nesting serde_json reads into a value: its 128th open bracket fails. */
export const SERDE_MAX_DEPTH = 127;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether some `[` or `{` outside strings opens level `maxDepth + 1`. */
export function nestsDeeper(bytes: Buffer, maxDepth: number): boolean {
  if (bytes.length <= maxDepth) return false;
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = closingQuote(bytes, i + 1);
      if (i === -1) return false;
    } else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return true;
    } else if (b === 0x5d || b === 0x7d) {
      depth--;
    }
  }
  return false;
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
