// performanceDetails: step paths, sums over repeats in first-close order, open steps counted up to
// the reading, and Rust's `{:.2?}` durations.
import { describe, expect, it } from 'vitest';
import { NO_STEPS, PerformanceSteps, rustDuration } from '../../../src/search/performance-details.js';

describe('rustDuration', () => {
  it('picks the unit by magnitude and prints two decimals', () => {
    expect(rustDuration(0)).toBe('0.00ns');
    expect(rustDuration(0.00015)).toBe('150.00ns');
    expect(rustDuration(0.0015)).toBe('1.50µs');
    expect(rustDuration(1.234)).toBe('1.23ms');
    expect(rustDuration(75_000)).toBe('75.00s');
    expect(rustDuration(200_000)).toBe('200.00s');
  });

  it('rounds after choosing the unit, so 999.999µs prints as 1000.00µs', () => {
    expect(rustDuration(0.999999)).toBe('1000.00µs');
  });
});

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
