/**
 * Rust's `str::parse` of an unsigned integer (`u8`…`u64`), with its error texts, which Meilisearch
 * quotes in its messages: an optional `+`, then ASCII digits only, at most `max`.
 */
export function parseRustUnsigned(text: string, max: bigint): number {
  if (text === '') throw new Error('cannot parse integer from empty string');
  const digits = text.startsWith('+') ? text.slice(1) : text;
  // a lone `+` is refused as an invalid digit, as Rust does
  if (!/^[0-9]+$/.test(digits)) throw new Error('invalid digit found in string');
  const value = BigInt(digits);
  if (value > max) throw new Error('number too large to fit in target type');
  return Number(value);
}

export const U32_MAX = 0xffff_ffffn;
export const U64_MAX = 0xffff_ffff_ffff_ffffn;
