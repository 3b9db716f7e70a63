/**
 * Set algebra over task and batch uids, held as ascending arrays of distinct u32 (the shape the
 * index scans produce), and the cursor page of such a list. Pure; used by query.ts.
 */

/** Ascending, without duplicates. */
export function sortedUnique(values: Iterable<number>): number[] {
  const sorted = Uint32Array.from(values).sort();
  const out: number[] = [];
  for (const value of sorted) if (out.length === 0 || out[out.length - 1] !== value) out.push(value);
  return out;
}

/** Position of the first element >= `value` in an ascending list, searching from `from`. */
function lowerBound(list: readonly number[], value: number, from = 0): number {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function intersectTwo(small: readonly number[], large: readonly number[]): number[] {
  const out: number[] = [];
  // Much larger list: binary-search each element instead of walking both.
  if (large.length > 8 * small.length) {
    let at = 0;
    for (const uid of small) {
      at = lowerBound(large, uid, at);
      if (at === large.length) break;
      if (large[at] === uid) out.push(uid);
    }
    return out;
  }
  let i = 0;
  let j = 0;
  while (i < small.length && j < large.length) {
    const a = small[i]!;
    const b = large[j]!;
    if (a === b) {
      out.push(a);
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
  }
  return out;
}

/** Intersection of ascending lists, starting from the shortest one. */
export function intersect(lists: readonly (readonly number[])[]): number[] {
  if (lists.length === 0) return [];
  const bySize = [...lists].sort((a, b) => a.length - b.length);
  let acc: readonly number[] = bySize[0]!;
  for (const list of bySize.slice(1)) acc = intersectTwo(acc, list);
  return [...acc];
}

export function without(list: readonly number[], removed: ReadonlySet<number>): number[] {
  return removed.size === 0 ? [...list] : list.filter((uid) => !removed.has(uid));
}

/**
 * The uids of one page of an ascending list: newest first from `from` (inclusive) down, or oldest
 * first from `from` up when `reverse`; `count` of them at most, skipping `hidden` ones.
 */
export function pageOfSorted(
  ascending: readonly number[],
  cursor: { from?: number; reverse?: boolean },
  count: number,
  hidden: ReadonlySet<number> | null,
): number[] {
  const out: number[] = [];
  const keep = (uid: number): boolean => {
    if (hidden === null || !hidden.has(uid)) out.push(uid);
    return out.length < count;
  };
  if (cursor.reverse ?? false) {
    const start = cursor.from === undefined ? 0 : lowerBound(ascending, cursor.from);
    for (let i = start; i < ascending.length && keep(ascending[i]!); i++);
  } else {
    const end = cursor.from === undefined ? ascending.length : lowerBound(ascending, cursor.from + 1);
    for (let i = end - 1; i >= 0 && keep(ascending[i]!); i--);
  }
  return out;
}
