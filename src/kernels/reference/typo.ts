/**
 * Plain TypeScript reference of the typo kernel (assembly/typo.ts): the same matches computed
 * word by word with a full optimal-string-alignment table, no prefix sharing and no pruning.
 * The tests compare the kernel against it; its output is per word ([query, word, distance]
 * triples in query then word order), which is what the kernel's range records expand to.
 */
import { codePoints, TypoFlag, type TypoQuery } from '../typo.js';

/** Distance of `query` to `word` (prefix mode: to the closest prefix of `word`). */
export function referenceDistance(query: readonly number[], word: readonly number[], prefix: boolean): number {
  const m = query.length;
  const n = word.length;
  // d[j][i]: distance between word[0..j) and query[0..i)
  const d: number[][] = [];
  for (let j = 0; j <= n; j++) {
    d.push(new Array<number>(m + 1).fill(0));
    d[j]![0] = j;
  }
  for (let i = 0; i <= m; i++) d[0]![i] = i;
  let best = d[0]![m]!;
  for (let j = 1; j <= n; j++) {
    for (let i = 1; i <= m; i++) {
      let v = Math.min(d[j - 1]![i]! + 1, d[j]![i - 1]! + 1, d[j - 1]![i - 1]! + (query[i - 1] === word[j - 1] ? 0 : 1));
      if (i >= 2 && j >= 2 && query[i - 1] === word[j - 2] && query[i - 2] === word[j - 1]) v = Math.min(v, d[j - 2]![i - 2]! + 1);
      d[j]![i] = v;
    }
    best = Math.min(best, d[j]![m]!);
  }
  return prefix ? best : d[n]![m]!;
}

/** Every word of `words` (sorted, distinct) within each query's budget, as the kernel reports them. */
export function referenceTypoMatch(words: readonly string[], queries: readonly TypoQuery[]): [number, number, number][] {
  const out: [number, number, number][] = [];
  queries.forEach((q, qi) => {
    const query = codePoints(q.word);
    if (query.length === 0) return;
    const prefix = (q.flags & TypoFlag.Prefix) !== 0;
    const to = Math.min(q.to ?? words.length, words.length);
    for (let w = q.from ?? 0; w < to; w++) {
      const word = codePoints(words[w]!);
      const penalty = (q.flags & TypoFlag.FirstChar) !== 0 && word[0] !== query[0] ? 1 : 0;
      const distance = referenceDistance(query, word, prefix) + penalty;
      if (distance > q.maxTypos) continue;
      if (distance === 0 && (q.flags & TypoFlag.SkipExact) !== 0) continue;
      out.push([qi, w, distance]);
    }
  });
  return out;
}
