/**
 * Locates the first byte that breaks UTF-8, for the positions in Meilisearch's error messages, and
 * tells whether it lies in a JSON string. Called only after `isUtf8` has failed, so it favours
 * simplicity over speed.
 */

/** Index of the first byte of the first invalid sequence in `bytes[from, to)`, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array, from = 0, to = bytes.length): number {
  let i = from;
  while (i < to) {
    const b = bytes[i]!;
    let extra: number;
    let min: number;
    if (b < 0x80) {
      i++;
      continue;
    } else if (b >= 0xc2 && b <= 0xdf) {
      extra = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      extra = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      extra = 3;
      min = 0x10000;
    } else {
      return i;
    }
    if (i + extra >= to) return i; // truncated sequence
    let cp = b & (0x3f >> extra);
    for (let k = 1; k <= extra; k++) {
      const c = bytes[i + k]!;
      if ((c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
    if (cp < min || (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return i;
    i += extra + 1;
  }
  return -1;
}

/**
 * Whether byte `at` of a JSON text lies inside a string (its quotes and escapes read from the
 * start): serde_json checks UTF-8 there only; elsewhere a byte that is no UTF-8 is a syntax error.
 */
export function insideJsonString(bytes: Uint8Array, at: number): boolean {
  let inString = false;
  let escaped = false;
  for (let i = 0; i < at; i++) {
    const b = bytes[i]!;
    if (!inString) inString = b === 0x22;
    else if (escaped) escaped = false;
    else if (b === 0x5c) escaped = true;
    else if (b === 0x22) inString = false;
  }
  return inString;
}
