/**
 * Set algebra over task and batch uids, held as ascending arrays of distinct u32 (the shape the
 * index scans produce). Pure; used by query.ts.
 */

/** Ascending, without duplicates. */
export function sortedUnique(values: Iterable<number>): number[] {
  const sorted = Uint32Array.from(values).sort();
  const out: number[] = [];
  for (const value of sorted) if (out.length === 0 || out[out.length - 1] !== value) out.push(value);
  return out;
}

/** Intersection of ascending lists, driven by the shortest one. */
export function intersect(lists: readonly (readonly number[])[]): number[] {
  if (lists.length === 0) return [];
  const bySize = [...lists].sort((a, b) => a.length - b.length);
  const others = bySize.slice(1).map((list) => new Set(list));
  return bySize[0]!.filter((uid) => others.every((set) => set.has(uid)));
}

export function without(list: readonly number[], removed: ReadonlySet<number>): number[] {
  return removed.size === 0 ? [...list] : list.filter((uid) => !removed.has(uid));
}
