// How federated search compares hits of different queries: weighted score sequences, sort values.
import { describe, expect, it } from 'vitest';
import type { StepDetail } from '../../../src/engine/search/ranking.js';
import { compareCandidates, type Candidate } from '../../../src/search/federated-ranking.js';
import { weightedScoreValues } from '../../../src/search/score-values.js';

const words = (matching: number, max: number): StepDetail => ({ kind: 'words', matching, max });
const year = (value: number | null, descending = false): StepDetail => ({ kind: 'sort', criterion: { kind: 'field', field: 'year', descending }, value });

/** A candidate as the comparison reads it: its query position, score, weight and details. */
function candidate(position: number, details: StepDetail[], score: number, weight = 1): Candidate {
  return { kind: 'local', position, query: position, hit: { docid: position, score, details }, weightedScore: score * weight, sequence: weightedScoreValues(details, weight) } as unknown as Candidate;
}

describe('compareCandidates', () => {
  it('ranks the higher weighted score first, the earlier query on ties', () => {
    const strong = candidate(1, [words(2, 2)], 1);
    const weak = candidate(0, [words(1, 2)], 0.5);
    expect(compareCandidates(strong, weak)).toBeLessThan(0);
    expect(compareCandidates(candidate(0, [words(2, 2)], 1, 0.4), candidate(1, [words(1, 2)], 0.5))).toBeGreaterThan(0);
    expect(compareCandidates(candidate(0, [words(2, 2)], 1), candidate(1, [words(2, 2)], 1))).toBeLessThan(0);
  });

  it('compares sort values in their direction, missing values last', () => {
    expect(compareCandidates(candidate(1, [year(1990)], 1), candidate(0, [year(2000)], 1))).toBeLessThan(0);
    expect(compareCandidates(candidate(1, [year(1990, true)], 1), candidate(0, [year(2000, true)], 1))).toBeGreaterThan(0);
    expect(compareCandidates(candidate(0, [year(null)], 1), candidate(1, [year(2000)], 1))).toBeGreaterThan(0);
  });

  it('compares a semantic similarity with a keyword score, a tie within f64 epsilon going to the next value', () => {
    const vector = (similarity: number): StepDetail => ({ kind: 'vector', similarity });
    expect(compareCandidates(candidate(1, [vector(0.8)], 0.8), candidate(0, [words(1, 2)], 0.5))).toBeLessThan(0);
    // 0.1 × 3 and 0.3 differ by one f64 unit: the year decides
    expect(compareCandidates(candidate(0, [vector(0.1), year(2000)], 0.1, 3), candidate(1, [vector(0.3), year(1990)], 0.3))).toBeGreaterThan(0);
  });

  it('falls back to the weighted ranking score when the sequences do not line up', () => {
    expect(compareCandidates(candidate(0, [year(1990)], 0.2), candidate(1, [words(1, 2)], 0.5))).toBeGreaterThan(0);
  });

  it('ranks first, when the sequences do not line up, the side with more groups of rules left', () => {
    // a sort value facing a score, then one more group on the first side only
    expect(compareCandidates(candidate(1, [year(1990), words(1, 2)], 0.1), candidate(0, [words(2, 2)], 0.9))).toBeLessThan(0);
  });

  it('ranks a hit whose sequence goes on after an equal prefix first', () => {
    expect(compareCandidates(candidate(1, [words(2, 2), year(1990)], 1), candidate(0, [words(2, 2)], 1))).toBeLessThan(0);
  });

  it('compares a remote hit by the values it was sent with', () => {
    const remote = { kind: 'remote', position: 0, weightedScore: 0.9, sequence: [{ weightedScore: 0.9 }] } as unknown as Candidate;
    expect(compareCandidates(remote, candidate(1, [words(1, 2)], 0.5))).toBeLessThan(0);
  });
});
