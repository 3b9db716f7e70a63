// milli's typo-then-proximity tests (crates/milli/src/search/new/tests/typo_proximity.rs at
// v1.50.0) over Quarry's engine: after a typo rule, proximity pairs only the derivations of the
// typo bucket's combination each document matches, not every derivation of its terms.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

function openIndex(): TestIndex {
  const traps = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words', 'typo', 'proximity'] });
  traps.write({
    0: { id: 0, text: 'beautigul summer. beautiful x y z summer' },
    1: { id: 1, text: 'beautiful summer' },
    2: { id: 2, text: 'beautigul sommer. beautigul x summer' },
    3: { id: 3, text: 'beautiful sommer' },
    4: { id: 4, text: 'delicitous. sweet. dessert. delicitous sweet desgert' },
    5: { id: 5, text: 'delicious. sweet desgert. delicious sweet desgert' },
  });
  return traps;
}

/** Ids (numbers) and [typo count/max, proximity rank/max] of a search matching every term. */
function ranked(q: string): { ids: number[]; details: string[][] } {
  const store = new DocumentStore(index.env);
  const hits = index.search(q, { matchingStrategy: 'all' }).hits;
  return {
    ids: hits.map((hit) => Number(store.byDocid(hit.docid)!.id)),
    details: hits.map((hit) =>
      hit.details.map((d) => (d.kind === 'typo' ? `typo ${d.count}/${d.max}` : d.kind === 'proximity' ? `proximity ${d.rank}/${d.max}` : d.kind)),
    ),
  };
}

describe('milli typo_proximity.rs', () => {
  it('test_trap_basic_and_complex1: proximity after typo pairs only the words of the typo bucket each document is in', () => {
    index = openIndex();
    expect(ranked('beautiful summer')).toEqual({
      ids: [1, 0, 3, 2],
      details: [
        ['typo 0/3', 'proximity 4/4'],
        ['typo 0/3', 'proximity 1/4'],
        ['typo 1/3', 'proximity 4/4'],
        ['typo 1/3', 'proximity 3/4'],
      ],
    });
  });

  it('test_trap_complex2: with three terms, each pair uses the derivations of the one typo combination the document matches', () => {
    index = openIndex();
    const { ids, details } = ranked('delicious sweet dessert');
    expect(ids).toEqual([5, 4]);
    // the typo maximum (5) is that of the costliest cut of the query into words and n-grams
    expect(details).toEqual([
      ['typo 1/5', 'proximity 7/7'],
      ['typo 1/5', 'proximity 4/7'],
    ]);
  });
});
