// The worker pools (src/workers/pool.ts and the built thread modules): the extraction threads
// start ahead of the documents to come, one per indexing thread, each with its young generation
// limit.
import { describe, expect, it } from 'vitest';
import type * as PoolModule from '../../../src/workers/pool.js';

/** The built module: piscina loads the thread modules from dist/. */
const { WorkerPools } = (await import(new URL('../../../dist/src/workers/pool.js', import.meta.url).href)) as typeof PoolModule;

describe('indexing threads', () => {
  it('starts one extraction thread per indexing thread before any documents write', async () => {
    const pools = new WorkerPools(2);
    try {
      expect(pools.extractAheadPool().threads.length).toBe(0);
      await pools.startIndexingThreads();
      expect(pools.extractAheadPool().threads.length).toBe(2);
      // threads already up: nothing more to start
      await pools.startIndexingThreads();
      expect(pools.extractAheadPool().threads.length).toBe(2);
    } finally {
      await pools.close();
    }
  });

  // each indexing thread grows its young generation to the limit during a large write, and the
  // limits add up in a load's peak RSS (pool.ts YOUNG_GENERATION_MB)
  it('runs an extraction thread with an 8 MiB young generation and the index writer with 16 MiB', async () => {
    const pools = new WorkerPools(1);
    try {
      await pools.startIndexingThreads();
      // the limit the running thread's V8 heap was created with
      expect(pools.extractAheadPool().threads.map((thread) => thread.resourceLimits?.maxYoungGenerationSizeMb)).toEqual([8]);
      expect(pools.writerPool().options.resourceLimits?.maxYoungGenerationSizeMb).toBe(16);
    } finally {
      await pools.close();
    }
  });

  it('starts none once the pools are closed', async () => {
    const pools = new WorkerPools(1);
    await pools.close();
    await pools.startIndexingThreads();
    const pool = pools.extractAheadPool();
    expect(pool.threads.length).toBe(0);
    await pool.destroy();
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
