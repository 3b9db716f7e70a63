// The steps an index write reports: the shared position the HTTP thread reads, and the time
// spent in each step, summed when a step comes back (every chunk of a batch goes through them).
import { describe, expect, it } from 'vitest';

import { INDEXING_STEPS, StepReporter } from '../../../src/engine/indexing-steps.js';

describe('StepReporter', () => {
  it('shares the current step’s position and sums the time of a step entered again', () => {
    const shared = new Int32Array(new SharedArrayBuffer(4));
    const steps = new StepReporter(shared);
    expect(shared[0]).toBe(0);
    steps.enter('extracting documents');
    expect(shared[0]).toBe(INDEXING_STEPS.indexOf('extracting documents') + 1);
    steps.enter('extracting words');
    steps.enter('extracting documents');
    steps.enter('finalizing');
    expect(shared[0]).toBe(INDEXING_STEPS.length);
    const durations = steps.finish();
    expect(durations.map(([step]) => step)).toEqual(['extracting documents', 'extracting words', 'finalizing']);
    for (const [, ns] of durations) expect(ns).toBeGreaterThanOrEqual(0);
  });

  it('names Meilisearch’s indexer steps in its order', () => {
    expect(INDEXING_STEPS.indexOf('extracting words')).toBe(3);
    expect(INDEXING_STEPS[INDEXING_STEPS.length - 1]).toBe('finalizing');
  });
});
