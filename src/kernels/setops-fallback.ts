/**
 * Plain TypeScript set operations over strictly increasing u32 lists: the path src/engine/docset.ts
 * takes for lists too small to repay copying them into the set-operations kernel's memory
 * (assembly/setops.ts) or where the kernel cannot load, and the reference the tests compare the
 * kernel against.
 *
 * Never mutate arguments; may return one of them unchanged (callers treat results as read-only).
 */

export const EMPTY = new Uint32Array(0);

/** First index in `[lo, hi)` whose value is `>= value` (`hi` when none). */
export function lowerBound(set: Uint32Array, value: number, lo: number, hi: number): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (set[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** First index `>= from` whose value is `>= value`, probing 1, 2, 4… ahead: cheap when it is near. */
function gallop(set: Uint32Array, value: number, from: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < set.length && set[hi]! < value) {
    lo = hi + 1;
    hi = from + step;
    step *= 2;
  }
  return lowerBound(set, value, lo, Math.min(hi, set.length));
}

/** Galloping pays off when one side is this many times smaller; a linear merge wins otherwise. */
export const FALLBACK_GALLOP_RATIO = 16;

export function fallbackUnion(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint32Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i]!;
    const y = b[j]!;
    if (x < y) {
      out[k++] = x;
      i++;
    } else if (y < x) {
      out[k++] = y;
      j++;
    } else {
      out[k++] = x;
      i++;
      j++;
    }
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return k === out.length ? out : out.slice(0, k);
}

/** Union of many sets, merged pairwise in a balanced tree (O(n log k) for k sets). */
export function fallbackUnionAll(sets: readonly Uint32Array[]): Uint32Array {
  let level = sets.filter((set) => set.length > 0);
  if (level.length === 0) return EMPTY;
  while (level.length > 1) {
    const next: Uint32Array[] = [];
    for (let i = 0; i < level.length; i += 2) next.push(i + 1 < level.length ? fallbackUnion(level[i]!, level[i + 1]!) : level[i]!);
    level = next;
  }
  return level[0]!;
}

export function fallbackIntersect(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return EMPTY;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  const out = new Uint32Array(small.length);
  let k = 0;
  if (small.length * FALLBACK_GALLOP_RATIO < large.length) {
    let from = 0;
    for (let i = 0; i < small.length && from < large.length; i++) {
      from = gallop(large, small[i]!, from);
      if (large[from] === small[i]) out[k++] = small[i]!;
    }
  } else {
    let i = 0;
    let j = 0;
    while (i < small.length && j < large.length) {
      const x = small[i]!;
      const y = large[j]!;
      if (x < y) i++;
      else if (y < x) j++;
      else {
        out[k++] = x;
        i++;
        j++;
      }
    }
  }
  return k === out.length ? out : out.slice(0, k);
}

/** |a ∩ b|, without building the intersection. */
export function fallbackIntersectCount(a: Uint32Array, b: Uint32Array): number {
  if (a.length === 0 || b.length === 0) return 0;
  const [small, large] = a.length <= b.length ? [a, b] : [b, a];
  let count = 0;
  if (small.length * FALLBACK_GALLOP_RATIO < large.length) {
    let from = 0;
    for (let i = 0; i < small.length && from < large.length; i++) {
      from = gallop(large, small[i]!, from);
      if (large[from] === small[i]) count++;
    }
    return count;
  }
  let i = 0;
  let j = 0;
  while (i < small.length && j < large.length) {
    const x = small[i]!;
    const y = large[j]!;
    if (x <= y) i++;
    if (y <= x) j++;
    if (x === y) count++;
  }
  return count;
}

/** `a` without the elements of `b`. */
export function fallbackDifference(a: Uint32Array, b: Uint32Array): Uint32Array {
  if (a.length === 0 || b.length === 0) return a;
  const out = new Uint32Array(a.length);
  let k = 0;
  let j = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (j < b.length && b[j]! < x) j = gallop(b, x, j);
    if (j < b.length && b[j] === x) continue;
    out[k++] = x;
  }
  return k === a.length ? a : out.slice(0, k);
}
