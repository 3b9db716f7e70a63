// Weighted score values: built from ranking details, exchanged between instances, compared as milli compares them.
import { describe, expect, it } from 'vitest';
import type { StepDetail } from '../../../src/engine/search/ranking.js';
import { compareScoreValues, isSemantic, parseScoreValues, weightedScoreValues } from '../../../src/search/score-values.js';

const words = (matching: number, max: number): StepDetail => ({ kind: 'words', matching, max });
const typo = (count: number, max: number): StepDetail => ({ kind: 'typo', count, max });
const year = (value: number | null, descending = false): StepDetail => ({ kind: 'sort', criterion: { kind: 'field', field: 'year', descending }, value });

describe('weightedScoreValues', () => {
  it('collapses consecutive relevancy rules into one weighted score and keeps sort values apart', () => {
    expect(weightedScoreValues([words(2, 2), typo(0, 2), year(1999), words(1, 2)], 0.5)).toEqual([
      { weightedScore: 0.5 },
      { sort: { asc: true, value: 1999 } },
      { weightedScore: 0.25 },
    ]);
  });

  it('writes a similarity as a weighted vectorSort and a geo sort as its distance', () => {
    const geo: StepDetail = { kind: 'sort', criterion: { kind: 'geo', point: [0, 0], descending: true }, value: 1200 };
    const values = weightedScoreValues([{ kind: 'vector', similarity: 0.5 }, geo], 2);
    expect(values).toEqual([{ vectorSort: 1 }, { geoSort: { asc: false, distance: 1200 } }]);
    expect(isSemantic(values)).toBe(true);
    expect(isSemantic(weightedScoreValues([words(1, 1)], 1))).toBe(false);
  });
});

describe('parseScoreValues', () => {
  it('reads back what weightedScoreValues writes, through JSON', () => {
    const values = weightedScoreValues([words(1, 2), year(null, true)], 1);
    expect(parseScoreValues(JSON.parse(JSON.stringify(values)))).toEqual(values);
  });

  it('refuses values of another shape', () => {
    expect(parseScoreValues({ weightedScore: 1 })).toBeNull();
    expect(parseScoreValues([{ weightedScore: '1' }])).toBeNull();
    expect(parseScoreValues([{ sort: { asc: 'yes', value: 1 } }])).toBeNull();
    expect(parseScoreValues([{ weightedScore: 1, vectorSort: 1 }])).toBeNull();
  });
});

describe('compareScoreValues', () => {
  it('ties scores within f64 epsilon and goes on to the next value', () => {
    expect(compareScoreValues([{ weightedScore: 0.1 * 3 }, { sort: { asc: true, value: 1 } }], 0.3, [{ weightedScore: 0.3 }, { sort: { asc: true, value: 2 } }], 0.3)).toBeGreaterThan(0);
  });

  it('lets the global score decide when values of as many groups do not line up', () => {
    expect(compareScoreValues([{ sort: { asc: true, value: 1 } }], 0.2, [{ sort: { asc: false, value: 1 } }], 0.7)).toBeLessThan(0);
  });

  it('ranks the greater geo distance better whatever asc, and a hit without a point last, as milli does', () => {
    const geo = (distance: number | null, asc = true) => [{ geoSort: { asc, distance } }];
    expect(compareScoreValues(geo(9000), 0, geo(600), 0)).toBeGreaterThan(0);
    expect(compareScoreValues(geo(9000, false), 0, geo(600, false), 0)).toBeGreaterThan(0);
    expect(compareScoreValues(geo(null), 0, geo(600), 0)).toBeLessThan(0);
    expect(compareScoreValues(geo(null), 0, geo(null), 0)).toBe(0);
  });
});
