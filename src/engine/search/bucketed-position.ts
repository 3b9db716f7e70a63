/**
 * Meilisearch's bucketed word position (milli's `bucketed_position`): exact below 16, then
 * coarser, so far-away positions compare alike. Shared by the wordPosition and exactness rules
 * (ranking.ts) and by the place a phrase is ranked at (terms.ts).
 */
export function bucketedPosition(position: number): number {
  if (position < 16) return position;
  if (position < 24) return 24;
  // the next power of two, in integer operations (positions are below 2^16): Math.log2 and a
  // power cost a quarter of a one-word search that ranks by wordPosition
  return 1 << (32 - Math.clz32(position - 1));
}
