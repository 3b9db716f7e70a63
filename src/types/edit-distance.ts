/**
 * Edit distances over Unicode code points (Rust `char`s), for the "did you mean" hints of error
 * messages. Two variants, as the Rust crates behind those messages use them: the optimal string
 * alignment distance (a transposed pair is not edited again) and `strsim`'s unrestricted
 * Damerau–Levenshtein distance. Pure.
 */

/** Insertions, deletions, substitutions and adjacent transpositions, each pair transposed at most once. */
export function osaDistance(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  const rows: number[][] = Array.from({ length: x.length + 1 }, (_, i) => Array.from({ length: y.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= x.length; i++) {
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[x.length]![y.length]!;
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
