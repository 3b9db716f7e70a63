/**
 * Edit distances over Unicode code points (Rust `char`s), for the "did you mean" hints of error
 * messages. Two variants, as the Rust crates behind those messages use them: the optimal string
 * alignment distance (a transposed pair is not edited again) and `strsim`'s unrestricted
 * Damerau–Levenshtein distance. Pure.
 */

/**
 * Whether the optimal string alignment distance of `a` and `b` (insertions, deletions,
 * substitutions and adjacent transpositions, each pair transposed at most once) is at most
 * `limit`. Only the band of the matrix within `limit` of its diagonal is computed, in three rows:
 * time linear in the strings' lengths for a small limit, where the whole matrix of two names
 * 32,000 characters long, one a user's filter and the other an embedder's, exhausted the heap.
 */
export function osaWithin(a: string, b: string, limit: number): boolean {
  const x = [...a];
  const y = [...b];
  const n = x.length;
  const m = y.length;
  if (Math.abs(n - m) > limit) return false;
  if (n === 0 || m === 0) return true;
  // any distance past the limit is `over`: cells outside the band read as it
  const over = limit + 1;
  let before = new Array<number>(m + 1).fill(over);
  let previous = new Array<number>(m + 1).fill(over);
  let row = new Array<number>(m + 1).fill(over);
  for (let j = 0; j <= Math.min(m, limit); j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - limit);
    const hi = Math.min(m, i + limit);
    row[lo - 1] = lo === 1 ? Math.min(i, over) : over;
    if (hi < m) row[hi + 1] = over;
    let least = row[lo - 1]!;
    for (let j = lo; j <= hi; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row[j] = Math.min(d, over);
      least = Math.min(least, row[j]!);
    }
    if (least > limit) return false;
    [before, previous, row] = [previous, row, before];
  }
  return previous[m]! <= limit;
}

/**
 * Unrestricted Damerau–Levenshtein distance over Unicode code points (as Rust `strsim`):
 * insertions, deletions, substitutions and transpositions of adjacent characters, where a
 * transposed pair may still be edited afterwards (unlike the "optimal string alignment" variant).
 */
export function damerauLevenshtein(a: string, b: string): number {
  const s = [...a];
  const t = [...b];
  const n = s.length;
  const m = t.length;
  if (n === 0) return m;
  if (m === 0) return n;

  const maxDistance = n + m;
  // Row/column 0 of the Lowrance–Wagner matrix hold the sentinel, so indices are shifted by one.
  const width = m + 2;
  const d = new Array<number>((n + 2) * width).fill(0);
  const at = (i: number, j: number): number => i * width + j;
  d[at(0, 0)] = maxDistance;
  for (let i = 0; i <= n; i++) {
    d[at(i + 1, 0)] = maxDistance;
    d[at(i + 1, 1)] = i;
  }
  for (let j = 0; j <= m; j++) {
    d[at(0, j + 1)] = maxDistance;
    d[at(1, j + 1)] = j;
  }

  // Last row in which each character of `a` was seen.
  const lastRow = new Map<string, number>();
  for (let i = 1; i <= n; i++) {
    let lastMatchCol = 0;
    for (let j = 1; j <= m; j++) {
      const k = lastRow.get(t[j - 1]!) ?? 0;
      const l = lastMatchCol;
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      if (cost === 0) lastMatchCol = j;
      d[at(i + 1, j + 1)] = Math.min(
        d[at(i, j)]! + cost,
        d[at(i + 1, j)]! + 1,
        d[at(i, j + 1)]! + 1,
        d[at(k, l)]! + (i - k - 1) + 1 + (j - l - 1),
      );
    }
    lastRow.set(s[i - 1]!, i);
  }
  return d[at(n + 1, m + 1)]!;
}
