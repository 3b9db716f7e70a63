/**
 * Rust's string order (UTF-8 bytes) for the settings Meilisearch keeps in BTreeSets and BTreeMaps.
 * JavaScript's default sort compares UTF-16 units, which differs above U+FFFF.
 */

const encoder = new TextEncoder();

export function compareBytes(a: string, b: string): number {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
  return x.length - y.length;
}

/** A BTreeSet's iteration: deduplicated, byte-sorted. */
export function sortedSet(values: Iterable<string>): string[] {
  return [...new Set(values)].sort(compareBytes);
}

/** A BTreeMap's iteration: the same entries, keys byte-sorted. */
export function sortedKeys<T>(map: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(map).sort(compareBytes)) out[key] = map[key]!;
  return out;
}
