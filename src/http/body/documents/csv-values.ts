/**
 * CSV header typing and cell conversion with Meilisearch's rules (`read_csv` in
 * meilisearch-types document_formats.rs, documents.md §3.4), including the Rust texts its
 * errors quote: `str::trim`, `i64`/`f64`/`bool` parsing, `{:?}` string quoting and serde_json's
 * float output (ryu). Used by `csv.ts`.
 */
import { ryu } from '../../../types/ryu.js';
import { parseRustF64 } from '../../../types/rust-float.js';
import { rustTrim } from '../../../types/rust-whitespace.js';

export type ColumnType = 'string' | 'number' | 'boolean';

/** `name:type` split on the last `:`; an unknown suffix keeps the whole header as a string. */
export function parseHeader(header: string): { name: string; type: ColumnType } {
  const colon = header.lastIndexOf(':');
  if (colon !== -1) {
    const type = header.slice(colon + 1);
    if (type === 'string' || type === 'number' || type === 'boolean') return { name: header.slice(0, colon), type };
  }
  return { name: header, type: 'string' };
}

/** The cell as JSON text, or the reason it is invalid (`line` counts data records from 1). */
export function cellJson(type: ColumnType, value: string, line: number): { json: string } | { error: string } {
  if (type === 'string') return { json: value === '' ? 'null' : JSON.stringify(value) };
  const trimmed = rustTrim(value);
  if (trimmed === '') return { json: 'null' };
  if (type === 'boolean') {
    if (trimmed === 'true' || trimmed === 'false') return { json: trimmed };
    return { error: `Error parsing boolean ${rustDebug(value)} at line ${line}: provided string was not \`true\` or \`false\`` };
  }
  const integer = parseI64(trimmed);
  if (integer !== undefined) return { json: integer };
  const float = parseRustF64(trimmed);
  if (float === null) return { error: `Error parsing number ${rustDebug(value)} at line ${line}: invalid float literal` };
  // serde_json turns a non-finite f64 into null.
  return { json: Number.isFinite(float) ? ryu(float) : 'null' };
}

const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

/** `str::parse::<i64>`: optional sign, ASCII digits, in range. Returns the canonical text. */
function parseI64(s: string): string | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  // Up to 15 digits a double is exact; past that, BigInt checks the i64 range.
  if (s.length <= 15) return String(Number(s) + 0);
  const n = BigInt(s);
  return n < I64_MIN || n > I64_MAX ? undefined : n.toString();
}


const GRAPHEME_EXTEND = /\p{Grapheme_Extend}/u;
// Rust prints as-is only what its `is_printable` allows: no separators but the space, no
// control, format, surrogate, private-use or unassigned code points.
const NOT_PRINTABLE = /[\p{Zs}\p{Zl}\p{Zp}\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}]/u;

/** A string as Rust's `{:?}` prints it. */
function rustDebug(s: string): string {
  let out = '"';
  for (const ch of s) {
    switch (ch) {
      case '\0': out += '\\0'; continue;
      case '\t': out += '\\t'; continue;
      case '\r': out += '\\r'; continue;
      case '\n': out += '\\n'; continue;
      case '\\': out += '\\\\'; continue;
      case '"': out += '\\"'; continue;
      case ' ': out += ' '; continue;
    }
    out += GRAPHEME_EXTEND.test(ch) || NOT_PRINTABLE.test(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch;
  }
  return `${out}"`;
}
