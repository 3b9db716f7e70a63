// The hybrid merge (src/search/hybrid.ts) on hand-made ranked lists: the weighted comparison of
// score sequences, the 0.45 good-enough shortcut, the merge order with its tie rule, distinct, and
// the union of candidates. The scores of the first cases are those of Meilisearch's
// tests/search/hybrid.rs `simple_search` (query "Captain", vector [1, 1]).
import { describe, expect, it } from 'vitest';
import { fromSorted, fromUnsorted } from '../../../src/engine/docset.js';
import type { StepDetail } from '../../../src/engine/search/ranking.js';
import type { SearchHit, SearchOutcome } from '../../../src/engine/search/search.js';
import { weightedScoreValues } from '../../../src/search/score-values.js';
import { compareHybrid, goodEnough, hybridWeights, mergeHybrid } from '../../../src/search/hybrid.js';

/** A keyword hit whose details give `rank / max` as its global score. */
function keywordHit(docid: number, rank: number, max: number, extra: StepDetail[] = []): SearchHit {
  const details: StepDetail[] = [...extra, { kind: 'proximity', rank, max }];
  return { docid, score: rank / max, details };
}

function semanticHit(docid: number, similarity: number | null, extra: StepDetail[] = []): SearchHit {
  return { docid, score: similarity ?? 0, details: [...extra, { kind: 'vector', similarity }] };
}

function outcome(hits: SearchHit[], candidates: number[] = hits.map((hit) => hit.docid)): SearchOutcome {
  return { hits, totalHits: candidates.length, candidates: fromUnsorted(candidates), matchingWords: [], degraded: false };
}

// Captain Marvel (3), Captain Planet (2), Shazam! (1)
const semantic = outcome([semanticHit(3, 0.990290343761444), semanticHit(2, 0.974341630935669), semanticHit(1, 0.9472135901451112)]);
const keyword = outcome([keywordHit(2, 65, 66), keywordHit(3, 49, 50), keywordHit(1, 1, 2)]);

const fromVector = (hit: SearchHit) => hit.details.some((detail) => detail.kind === 'vector');

describe('mergeHybrid', () => {
  it('interleaves both lists by weighted score at semanticRatio 0.5, each document once', () => {
    const merged = mergeHybrid(semantic, keyword, 0.5, 20, null);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([3, 2, 1]);
    expect(merged.hits.map(fromVector)).toEqual([true, false, true]);
    // each hit keeps the score of the list it came from
    expect(merged.hits.map((hit) => hit.score)).toEqual([0.990290343761444, 65 / 66, 0.9472135901451112]);
  });

  it('takes the keyword order when the keyword side weighs more (semanticRatio 0.2)', () => {
    const merged = mergeHybrid(semantic, keyword, 0.2, 20, null);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([2, 3, 1]);
    expect(merged.hits.filter(fromVector)).toHaveLength(0);
  });

  it('takes the semantic order when the semantic side weighs more (semanticRatio 0.8)', () => {
    const merged = mergeHybrid(semantic, keyword, 0.8, 20, null);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([3, 2, 1]);
    expect(merged.hits.filter(fromVector)).toHaveLength(3);
  });

  it('stops at `need` hits, so that the page is what follows the offset', () => {
    const merged = mergeHybrid(semantic, keyword, 0.9, 2, null);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([3, 2]);
    expect(fromVector(merged.hits[1]!)).toBe(true);
  });

  it('puts the semantic hit first when both weigh the same', () => {
    const merged = mergeHybrid(outcome([semanticHit(1, 0.5)]), outcome([keywordHit(2, 1, 2)]), 0.5, 20, null);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([1, 2]);
  });

  it('counts the union of both candidate sets', () => {
    const merged = mergeHybrid(outcome([semanticHit(1, 0.9)], [1, 2, 3]), outcome([keywordHit(4, 1, 1)], [3, 4]), 0.5, 20, null);
    expect(Array.from(merged.candidates)).toEqual([1, 2, 3, 4]);
  });

  it('applies distinct on the fly and leaves what it excluded out of the candidates', () => {
    const groups = new Map([
      [3, 'a'],
      [2, 'a'],
      [1, 'b'],
    ]);
    const kept = new Set<string>();
    const distinct = {
      accept: (docid: number) => {
        const group = groups.get(docid)!;
        if (kept.has(group)) return false;
        kept.add(group);
        return true;
      },
      excluded: () => fromSorted([2]),
    };
    const merged = mergeHybrid(semantic, keyword, 0.5, 20, distinct);
    expect(merged.hits.map((hit) => hit.docid)).toEqual([3, 1]);
    expect(Array.from(merged.candidates)).toEqual([1, 3]);
  });
});

describe('compareHybrid', () => {
  const { semantic: s, keyword: k } = hybridWeights(0.5);
  it('orders by the weighted score, ties within f64 epsilon going to the next value', () => {
    expect(compareHybrid(weightedScoreValues(semanticHit(1, 0.8).details, s), weightedScoreValues(keywordHit(2, 7, 10).details, k))).toBeGreaterThan(0);
    expect(compareHybrid(weightedScoreValues(semanticHit(1, 0.5).details, s), weightedScoreValues(keywordHit(2, 1, 2).details, k))).toBe(0);
  });

  it('compares sort values before the scores that follow them', () => {
    const byPrice = (value: number): StepDetail => ({ kind: 'sort', criterion: { kind: 'field', field: 'price', descending: false }, value });
    const cheapFar = weightedScoreValues(semanticHit(1, 0.1, [byPrice(1)]).details, s);
    const dearNear = weightedScoreValues(keywordHit(2, 1, 1, [byPrice(5)]).details, k);
    expect(compareHybrid(cheapFar, dearNear)).toBeGreaterThan(0);
  });

  it('ranks a sequence that runs out of values after the other', () => {
    expect(compareHybrid([], weightedScoreValues(keywordHit(1, 0, 1).details, k))).toBeLessThan(0);
  });

  it('ranks a zero score below a sort value and any other score above it', () => {
    const sort = { sort: { asc: true, value: 3 } };
    expect(compareHybrid([{ weightedScore: 0 }], [sort])).toBeLessThan(0);
    expect(compareHybrid([{ vectorSort: 0.2 }], [sort])).toBeGreaterThan(0);
  });

  it('scores a semantic hit without a vector 0', () => {
    expect(weightedScoreValues(semanticHit(1, null).details, s)).toEqual([{ vectorSort: 0 }]);
  });
});

describe('goodEnough', () => {
  const hits = [keywordHit(1, 9, 10), keywordHit(2, 9, 10)];
  it('answers with the keyword hits alone when there are enough and each weighs at least 0.45', () => {
    expect(goodEnough(hits, 2, 0.5)).toBe(true);
  });

  it('needs every hit asked for', () => {
    expect(goodEnough(hits, 3, 0.5)).toBe(false);
  });

  it('needs each weighted score to reach 0.45', () => {
    expect(goodEnough(hits, 2, 0.6)).toBe(false);
    expect(goodEnough([...hits, keywordHit(3, 8, 10)], 3, 0.5)).toBe(false);
  });
});
