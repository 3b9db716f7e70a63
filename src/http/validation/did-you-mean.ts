/**
 * The "did you mean `x`? " hint of deserr's unknown-field, unknown-parameter and unknown-value
 * messages. Pure; shared by the body and query validators.
 *
 * Rule (deserr `did_you_mean`): no hint for names under 4 bytes; otherwise the closest accepted
 * name within a typo budget that grows with the received name's UTF-8 length (1 for 4–7 bytes,
 * 2 for 8–12, 3 for 13–17, 4 for 18–24, 5 beyond). Ties go to the first accepted name.
 */

const utf8 = new TextEncoder();

function typoBudget(received: string): number {
  const bytes = utf8.encode(received).length;
  if (bytes <= 3) return 0;
  if (bytes <= 7) return 1;
  if (bytes <= 12) return 2;
  if (bytes <= 17) return 3;
  if (bytes <= 24) return 4;
  return 5;
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

/** `did you mean \`x\`? ` (trailing space included) or the empty string. */
export function didYouMean(received: string, accepted: readonly string[]): string {
  const budget = typoBudget(received);
  if (budget === 0) return '';
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of accepted) {
    const distance = damerauLevenshtein(received, candidate);
    if (distance <= budget && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best === undefined ? '' : `did you mean \`${best}\`? `;
}
