// The worker pools (src/workers/pool.ts and the built thread modules): the extraction threads
// started ahead of a write, one per indexing thread; each pool's young generation limit; and the
// segmenter once the pools are closed.
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import type * as PoolModule from '../../../src/workers/pool.js';

/** The built module: piscina loads the thread modules from dist/. */
const { WorkerPools } = (await import(new URL('../../../dist/src/workers/pool.js', import.meta.url).href)) as typeof PoolModule;

describe('indexing threads', () => {
  it('starts one extraction thread per indexing thread ahead of the write that will use them, and none more', async () => {
    const pools = new WorkerPools(2);
    try {
      expect(pools.extractAheadPool().threads.length).toBe(0);
      await pools.startExtractionThreads();
      expect(pools.extractAheadPool().threads.length).toBe(2);
      await pools.startExtractionThreads();
      expect(pools.extractAheadPool().threads.length).toBe(2);
    } finally {
      await pools.close();
    }
  });

  // v1.50's rayon threads are cheap; a thread here is an isolate, and --max-indexing-threads 1000
  // started a thousand of them (~25 GB) with the first large write
  it('runs at most one indexing thread per core, whatever --max-indexing-threads asks', async () => {
    const cores = availableParallelism();
    const pools = new WorkerPools(cores + 3);
    try {
      expect(pools.threads).toBe(cores);
      await pools.startExtractionThreads();
      expect(pools.extractAheadPool().threads.length).toBe(cores);
    } finally {
      await pools.close();
    }
    const every = new WorkerPools(0);
    expect(every.threads).toBe(cores);
    await every.close();
  });

  it('starts no extraction thread once the pools are closed', async () => {
    const pools = new WorkerPools(1);
    await pools.close();
    await pools.startExtractionThreads();
    const pool = pools.extractAheadPool();
    expect(pool.threads.length).toBe(0);
    await pool.destroy();
  });

  // each indexing thread grows its young generation to the limit during a large write, and the
  // limits add up in a load's peak RSS (pool.ts YOUNG_GENERATION_MB)
  it('runs an extraction thread with an 8 MiB young generation and the index writer with 16 MiB', async () => {
    const pools = new WorkerPools(1);
    try {
      expect(pools.extractAheadPool().options.resourceLimits?.maxYoungGenerationSizeMb).toBe(8);
      expect(pools.writerPool().options.resourceLimits?.maxYoungGenerationSizeMb).toBe(16);
    } finally {
      await pools.close();
    }
  });

  // a segmenter thread asked after the close would never start (or answer): waiting for it took
  // the channel's 30 s start timeout, past this test's
  it('segment in the asking thread at once once the pools are closed, a segmenter thread started or not', async () => {
    for (const started of [false, true]) {
      const pools = new WorkerPools(1);
      const segment = pools.runSegmenter();
      if (started) expect(segment([{ text: '東京タワー', language: 'jpn' }])[0]!.length).toBeGreaterThan(0);
      await pools.close();
      expect(segment([{ text: '東京タワー', language: 'jpn' }])[0]!.length).toBeGreaterThan(0);
    }
  });
});
