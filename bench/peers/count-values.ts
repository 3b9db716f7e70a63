/** Facet counts for engines without facets: every matching document's values of `field`, counted in JS. */
import type { Doc } from '../datasets.js';

export function countValues(ids: Iterable<number>, byId: ReadonlyMap<number, Doc>, field: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const id of ids) {
    for (const value of [byId.get(id)![field] ?? []].flat()) {
      const key = String(value);
      counts[key] = (counts[key] ?? 0) + 1;
    }
  }
  return counts;
}
