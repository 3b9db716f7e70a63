/**
 * The batch progress: the steps and percentage `GET /batches` shows (Meilisearch's own progress
 * snapshots), and the durations of `stats.progressTrace`, on a fake clock.
 */
import { describe, expect, it } from 'vitest';
import { INDEXING_STEPS } from '../../../src/engine/indexing-steps.js';
import { Progress } from '../../../src/tasks/progress.js';

function clocked(): { progress: Progress; tick: (ns: bigint) => void } {
  let now = 0n;
  return { progress: new Progress(() => now), tick: (ns) => void (now += ns) };
}

describe('view', () => {
  it('shows the batch step, then the next one of its family in its place', () => {
    const { progress } = clocked();
    progress.enter('batch', 'processing tasks');
    expect(progress.view()).toEqual({ steps: [{ currentStep: 'processing tasks', finished: 0, total: 2 }], percentage: 0 });
    progress.enter('batch', 'writing tasks to disk');
    expect(progress.view()).toEqual({ steps: [{ currentStep: 'writing tasks to disk', finished: 1, total: 2 }], percentage: 50 });
  });

  it('nests another family and weighs it by the totals above it, in f32 as Meilisearch prints it', () => {
    const { progress } = clocked();
    progress.enter('batch', 'processing tasks');
    const done = progress.count('task', 10);
    for (let i = 0; i < 6; i++) done();
    expect(progress.view()).toEqual({
      steps: [
        { currentStep: 'processing tasks', finished: 0, total: 2 },
        { currentStep: 'task', finished: 6, total: 10 },
      ],
      percentage: 30.000002,
    });
    progress.enter('batch', 'writing tasks to disk');
    const written = progress.count('task', 5);
    for (let i = 0; i < 4; i++) written();
    expect(progress.view().percentage).toBe(90);
    expect(progress.view().steps).toHaveLength(2);
  });
});

describe('trace', () => {
  it('records every step path, innermost first when a step closes, open steps up to now', () => {
    const { progress, tick } = clocked();
    progress.enter('batch', 'processing tasks');
    tick(1_000n);
    progress.enter('createIndex', 'creating the index');
    tick(2_000n);
    progress.enter('updateIndex', 'updating the index');
    tick(3_000n);
    progress.enter('batch', 'writing tasks to disk');
    tick(4_000_000n);
    expect(progress.trace()).toEqual({
      'processing tasks > creating the index > updating the index': '3.00µs',
      'processing tasks > creating the index': '5.00µs',
      'processing tasks': '6.00µs',
      'writing tasks to disk': '4.00ms',
    });
    expect(Object.keys(progress.trace())[0]).toBe('processing tasks > creating the index > updating the index');
  });

  it('adds up the durations of a path entered twice', () => {
    const { progress, tick } = clocked();
    progress.enter('batch', 'processing tasks');
    progress.count('task', 2);
    tick(500n);
    progress.count('task', 2);
    tick(700n);
    expect(progress.trace()).toEqual({ 'processing tasks > task': '1.20µs', 'processing tasks': '1.20µs' });
  });
});

describe('an index write followed from its thread', () => {
  it('shows the write’s current step under indexing once it reported one, and adds its step times to the trace', () => {
    const { progress, tick } = clocked();
    progress.enter('batch', 'processing tasks');
    progress.enter('indexing', 'retrieving config');
    tick(1_000n);
    progress.enter('indexing', 'indexing');
    const watcher = progress.watchIndexWrite();
    const current = new Int32Array(new SharedArrayBuffer(4));
    watcher.started(current);
    expect(progress.view().steps.map((step) => step.currentStep)).toEqual(['processing tasks', 'indexing']);
    Atomics.store(current, 0, INDEXING_STEPS.indexOf('extracting words') + 1);
    expect(progress.view()).toEqual({
      steps: [
        { currentStep: 'processing tasks', finished: 0, total: 2 },
        { currentStep: 'indexing', finished: 2, total: 3 },
        { currentStep: 'extracting words', finished: 3, total: 18 },
      ],
      percentage: 36.111115,
    });
    tick(5_000_000n);
    watcher.ended([
      ['extracting documents', 1_000_000],
      ['extracting words', 3_000_000],
    ]);
    expect(progress.view().steps.map((step) => step.currentStep)).toEqual(['processing tasks', 'indexing']);
    progress.enter('batch', 'writing tasks to disk');
    expect(progress.trace()).toEqual({
      'processing tasks > retrieving config': '1.00µs',
      'processing tasks > indexing > extracting documents': '1.00ms',
      'processing tasks > indexing > extracting words': '3.00ms',
      'processing tasks > indexing': '5.00ms',
      'processing tasks': '5.00ms',
      'writing tasks to disk': '0.00ns',
    });
  });
});
