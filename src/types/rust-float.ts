/**
 * Rust's `str::parse::<f64>`: an optional sign, then digits with an optional fraction (either side
 * of the dot may be empty, not both) and exponent, or `inf`, `infinity`, `nan` in any case. No
 * surrounding space, no `0x`, no `_`, which JavaScript's `Number` would take or refuse otherwise.
 */
// One way only to read a run of digits (`[0-9]+(?:\.[0-9]*)?`, not `[0-9]+\.?[0-9]*`): with two,
// a long run of digits followed by a letter was split every way before the match failed (quadratic).
const RUST_F64 = /^[+-]?(?:inf|infinity|nan|(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?)$/i;

/** The value Rust parses `text` to (±Infinity and NaN included), or null where it refuses it. */
export function parseRustF64(text: string): number | null {
  if (!RUST_F64.test(text)) return null;
  const special = /^([+-]?)(inf|infinity|nan)$/i.exec(text);
  if (special === null) return Number(text);
  if (special[2]!.toLowerCase() === 'nan') return Number.NaN;
  return special[1] === '-' ? -Infinity : Infinity;
}
