/**
 * Rust's string order (UTF-8 bytes) for the settings Meilisearch keeps in BTreeSets and BTreeMaps.
 * JavaScript's default sort compares UTF-16 units, which differs above U+FFFF.
 */

/**
 * UTF-8 byte order is code point order, which UTF-16 order breaks only where a surrogate (a code
 * point above U+FFFF) meets U+E000–U+FFFF: ranking surrogates above the rest of the BMP restores it,
 * with no encoding per comparison (a sort of 100,000 stop words makes millions of them).
 */
function codePointRank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit <= 0xdfff ? unit + 0x2000 : unit - 0x800;
}

/** Orders strings as Rust compares them: by their UTF-8 bytes. */
export function compareBytes(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

/** A BTreeSet's iteration: deduplicated, byte-sorted. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareBytes);
}

/**
 * A BTreeMap's iteration: the same entries, keys byte-sorted. `fromEntries` defines each key, so a
 * key named `__proto__` stays an entry (an assignment would set the prototype instead).
 */
export function sortedKeys<T>(map: Readonly<Record<string, T>>): Record<string, T> {
  return Object.fromEntries(Object.keys(map).sort(compareBytes).map((key) => [key, map[key]!]));
}
