/**
 * Strings as Rust's `{:?}` prints them, for the Meilisearch messages that embed debug output
 * (`authorized indexes are ["catto", "doggo"]`, serde's `invalid type: string "x"`). Pure.
 */

/** Quoted, with quotes, backslashes and control characters escaped as Rust's `str::escape_debug`. */
export function rustDebugString(value: string): string {
  let out = '"';
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (char === '"' || char === '\\') out += `\\${char}`;
    else if (char === '\n') out += '\\n';
    else if (char === '\r') out += '\\r';
    else if (char === '\t') out += '\\t';
    else if (char === '\0') out += '\\0';
    else if (code < 0x20 || code === 0x7f) out += `\\u{${code.toString(16)}}`;
    else out += char;
  }
  return `${out}"`;
}
