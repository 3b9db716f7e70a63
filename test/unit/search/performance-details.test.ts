// performanceDetails: step paths, sums over repeats in first-close order, open steps counted up to
// the reading (the durations' format is tested with types/dates.ts).
import { describe, expect, it } from 'vitest';
import { NO_STEPS, PerformanceSteps } from '../../../src/search/performance-details.js';

describe('PerformanceSteps', () => {
  it('keys nested steps by their path, sums repeats and keeps the order of first closing', () => {
    const steps = new PerformanceSteps();
    steps.start('search');
    steps.step('execute local search', () => {
      steps.step('tokenize query', () => undefined);
      for (let hit = 0; hit < 3; hit++) steps.step('format', () => undefined);
    });
    steps.step('merge results', () => undefined);
    steps.end();
    expect(Object.keys(steps.details())).toEqual([
      'search > execute local search > tokenize query',
      'search > execute local search > format',
      'search > execute local search',
      'search > merge results',
      'search',
    ]);
  });

  it('counts a step still open up to the reading, without closing it', async () => {
    const steps = new PerformanceSteps();
    steps.start('search');
    await steps.stepAsync('wait', () => new Promise((resolve) => setTimeout(resolve, 5)));
    const first = steps.details();
    expect(Object.keys(first)).toEqual(['search > wait', 'search']);
    expect(first.search).toMatch(/^\d+\.\d{2}ms$/);
    steps.step('format', () => undefined);
    expect(Object.keys(steps.details())).toEqual(['search > wait', 'search > format', 'search']);
  });

  it('ends a step whose work throws, and rethrows', () => {
    const steps = new PerformanceSteps();
    expect(() =>
      steps.step('search', () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(Object.keys(steps.details())).toEqual(['search']);
  });
});

describe('NO_STEPS', () => {
  it('runs the work and gives back its result', async () => {
    expect(NO_STEPS.step('search', () => 42)).toBe(42);
    expect(await NO_STEPS.stepAsync('search', async () => 'ok')).toBe('ok');
  });
});
