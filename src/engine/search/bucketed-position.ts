/**
 * Meilisearch's bucketed word position (milli's `bucketed_position`): exact below 16, then
 * coarser, so far-away positions compare alike. Shared by the wordPosition and exactness rules
 * (ranking.ts) and by the place a phrase is ranked at (terms.ts).
 */
export function bucketedPosition(position: number): number {
  if (position < 16) return position;
  if (position < 24) return 24;
  return 2 ** Math.ceil(Math.log2(position));
}
