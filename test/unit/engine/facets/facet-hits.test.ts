// The facet search's kept hits (Meilisearch's ValuesCollection): the count order's heap must keep
// and order exactly what replacing the worst kept hit by a linear scan kept, and spell only the
// hits it keeps or orders.
import { describe, expect, it } from 'vitest';
import { facetHitCollector, type FacetHit } from '../../../../src/engine/facets/facet-hits.js';
import { compareBytes } from '../../../../src/types/bytes.js';
import { mulberry32 } from '../../../helpers/random.js';

/** The collector before the heap: the worst kept hit found by a scan on every new hit. */
function scanned(max: number, inserted: readonly FacetHit[]): FacetHit[] {
  const hits: FacetHit[] = [];
  const worse = (a: FacetHit, b: FacetHit) => a.count - b.count || compareBytes(a.value, b.value);
  for (const hit of inserted) {
    if (hits.length < max) hits.push(hit);
    else if (max > 0) {
      const worst = hits.reduce((low, candidate, i) => (worse(candidate, hits[low]!) < 0 ? i : low), 0);
      if (hits[worst]!.count <= hit.count) hits[worst] = hit;
    }
  }
  return hits.sort((a, b) => worse(b, a));
}

/** `n` hits with few distinct counts (many ties) and spellings that order differently from their keys. */
function randomHits(random: () => number, n: number): { key: string; first: number; count: number; value: string }[] {
  return Array.from({ length: n }, (_, i) => {
    const value = `${'aAbB'[Math.floor(random() * 4)]}${Math.floor(random() * 50)}-${i}`;
    return { key: value.toLowerCase(), first: i, count: 1 + Math.floor(random() * 4), value };
  });
}

describe('facetHitCollector', () => {
  it('keeps and orders in count order what the linear scan kept, on random hits full of ties', () => {
    const random = mulberry32(20261207);
    for (let round = 0; round < 300; round++) {
      const hits = randomHits(random, Math.floor(random() * 200));
      const max = Math.floor(random() * 40);
      const collector = facetHitCollector(max, true, (_key, first) => hits[first]!.value);
      for (const hit of hits) expect(collector.insert(hit.key, hit.first, hit.count)).toBe(true);
      expect(collector.result()).toEqual(scanned(max, hits.map(({ value, count }) => ({ value, count }))));
    }
  });

  it('keeps the first hits in alpha order and says when it is full', () => {
    const spelled: number[] = [];
    const collector = facetHitCollector(2, false, (key, first) => (spelled.push(first), key.toUpperCase()));
    expect(collector.insert('a', 0, 5)).toBe(true);
    expect(collector.insert('b', 1, 1)).toBe(false);
    expect(collector.result()).toEqual([{ value: 'A', count: 5 }, { value: 'B', count: 1 }]);
    expect(spelled).toEqual([0, 1]);
  });

  it('never spells a hit whose count is below every kept one', () => {
    const spelled = new Set<number>();
    const collector = facetHitCollector(3, true, (key, first) => (spelled.add(first), key));
    [9, 8, 7].forEach((count, i) => collector.insert(`k${i}`, i, count));
    for (let i = 3; i < 1000; i++) collector.insert(`k${i}`, i, 1 + (i % 6));
    expect(collector.result().map((hit) => hit.count)).toEqual([9, 8, 7]);
    expect([...spelled].sort((a, b) => a - b)).toEqual([0, 1, 2]);
  });

  it('keeps nothing when the maximum is 0', () => {
    const collector = facetHitCollector(0, true, () => 'x');
    collector.insert('a', 0, 3);
    expect(collector.result()).toEqual([]);
  });
});
