/**
 * The hits a facet search keeps, Meilisearch's `ValuesCollection` (facet/search.rs): `alpha`
 * keeps the first `max` hits in enumeration order; `count` keeps a binary heap of `max` hits
 * whose worst (lowest count, then value) a new hit replaces when its count is at least as high,
 * and ends sorted by count then value, both descending.
 * A hit's value is its original spelling, which costs a document read: it is asked for
 * (`spell`) only when the hit is shown or two kept hits of one count are ordered, never for a
 * hit whose count is below every kept one. Scanning the kept hits for the worst on each new
 * value, as this did before the heap, held the thread answering requests ~60 s for a count-ordered
 * facet search over 250,000 values with `maxValuesPerFacet` 10,000.
 */
import { compareBytes } from '../../types/bytes.js';

export interface FacetHit {
  value: string;
  count: number;
}

/** A kept hit: its facet key and first document, spelled when first needed. */
interface Kept {
  readonly key: string;
  readonly first: number;
  readonly count: number;
  value: string | undefined;
}

export interface FacetHitCollector {
  /** false once no further hit can be kept (alpha only) */
  insert(key: string, first: number, count: number): boolean;
  result(): FacetHit[];
}

export function facetHitCollector(max: number, byCount: boolean, spell: (key: string, first: number) => string): FacetHitCollector {
  const kept: Kept[] = [];
  const valueOf = (hit: Kept): string => (hit.value ??= spell(hit.key, hit.first));
  const worse = (a: Kept, b: Kept): number => a.count - b.count || compareBytes(valueOf(a), valueOf(b));
  const shown = (hits: readonly Kept[]): FacetHit[] => hits.map((hit) => ({ value: valueOf(hit), count: hit.count }));
  if (!byCount) {
    return {
      insert(key, first, count) {
        if (kept.length < max) kept.push({ key, first, count, value: undefined });
        return kept.length < max;
      },
      result: () => shown(kept),
    };
  }
  // a min-heap by `worse`: kept[0] is the worst hit
  const siftUp = (at: number): void => {
    const hit = kept[at]!;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (worse(kept[parent]!, hit) <= 0) break;
      kept[at] = kept[parent]!;
      at = parent;
    }
    kept[at] = hit;
  };
  const siftDown = (at: number): void => {
    const hit = kept[at]!;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= kept.length) break;
      if (child + 1 < kept.length && worse(kept[child + 1]!, kept[child]!) < 0) child++;
      if (worse(hit, kept[child]!) <= 0) break;
      kept[at] = kept[child]!;
      at = child;
    }
    kept[at] = hit;
  };
  return {
    insert(key, first, count) {
      if (kept.length < max) {
        kept.push({ key, first, count, value: undefined });
        siftUp(kept.length - 1);
      } else if (max > 0 && kept[0]!.count <= count) {
        kept[0] = { key, first, count, value: undefined };
        siftDown(0);
      }
      return true;
    },
    result: () => shown(kept.sort((a, b) => worse(b, a))),
  };
}
