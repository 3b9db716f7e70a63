// Ranking steps whose cost is the same for every document of a group, which ranking.ts answers
// as one bucket without a pass over the group: a typo step whose kept terms each have one typo
// level, an exactWords step whose kept terms every document holds exactly, a proximity step
// without a pair to price. Each must give the details the passes would: the documents' own level,
// every exact word, and the maximum of the query's cuts. Where levels differ, the passes still
// split the group.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import type { StepDetail } from '../../../../src/engine/search/ranking.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

function openWars(): TestIndex {
  const wars = openTestIndex({ rankingRules: ['words', 'typo', 'proximity', 'attribute', 'exactness'] });
  wars.write({
    a: { id: 'a', text: 'world war' },
    b: { id: 'b', text: 'the world at war' },
    c: { id: 'c', text: 'war of the world' },
    d: { id: 'd', text: 'world' },
  });
  return wars;
}

/** Each hit's id and its detail of step `kind`. */
function detailsOf(q: string, kind: StepDetail['kind']): [unknown, StepDetail | undefined][] {
  const store = new DocumentStore(index.env);
  return index.search(q).hits.map((hit) => [store.byDocid(hit.docid)!.id, hit.details.find((detail) => detail.kind === kind)]);
}

describe('steps with one cost for a whole group', () => {
  it('counts the one typo level of a term matched only with a typo for every document', () => {
    index = openWars();
    // `wordl` holds no document as is: only `world`, at one typo
    const typos = detailsOf('wordl war ', 'typo');
    expect(typos.map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']);
    for (const [id, detail] of typos.slice(0, 3)) expect([id, detail]).toEqual([id, { kind: 'typo', count: 1, max: 2 }]);
    // `d` holds `world` alone: the typo step sees only `wordl`
    expect(typos[3]![1]).toEqual({ kind: 'typo', count: 1, max: 1 });
  });

  it('still splits a group whose term has documents at several typo levels', () => {
    index = openWars();
    index.write({ e: { id: 'e', text: 'word war' } });
    const typos = detailsOf('world war ', 'typo');
    expect(typos.filter(([, detail]) => detail?.kind === 'typo' && detail.count === 1).map(([id]) => id)).toEqual(['e']);
    expect(typos.filter(([, detail]) => detail?.kind === 'typo' && detail.count === 0).map(([id]) => id)).toEqual(['a', 'b', 'c', 'd']);
  });

  it('counts every kept word of an always-exact query as matched exactly', () => {
    index = openWars();
    const exact = detailsOf('world war ', 'exactWords');
    expect(exact.slice(0, 3).map(([, detail]) => detail)).toEqual(Array(3).fill({ kind: 'exactWords', matching: 2, max: 2 }));
    expect(exact[3]).toEqual(['d', { kind: 'exactWords', matching: 1, max: 1 }]);
  });

  it('ranks a group left with one term at the cuts\' proximity maximum', () => {
    index = openWars();
    // `worldwar`, the query's 2-gram, matches nothing: the cut of the words alone is every document's
    const proximity = detailsOf('world war ', 'proximity');
    expect(proximity[0]).toEqual(['a', { kind: 'proximity', rank: 4, max: 4 }]);
    expect(proximity[3]).toEqual(['d', { kind: 'proximity', rank: 1, max: 1 }]);
  });
});
