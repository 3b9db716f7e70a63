/**
 * The worker-thread pools of indexing work (piscina), sized by `--max-indexing-threads`
 * (default: half the cores, at least one). Pools start lazily, so an instance that never needs
 * one never spawns a thread, and idle threads exit after a while.
 */
import os from 'node:os';
import { Piscina } from 'piscina';

/** Stack for 1000 nested Rhai script calls, with room to spare. */
const EDITION_STACK_MB = 64;

export class WorkerPools {
  private edition: Piscina | null = null;
  private writer: Piscina | null = null;
  private extraction: Piscina | null = null;
  readonly threads: number;

  constructor(maxThreads: number | null) {
    this.threads = maxThreads ?? Math.max(1, Math.floor(os.availableParallelism() / 2));
  }

  /** Runs `engine/rhai/thread.js` tasks. */
  editionPool(): Piscina {
    this.edition ??= new Piscina({
      filename: new URL('../engine/rhai/thread.js', import.meta.url).href,
      maxThreads: this.threads,
      minThreads: 0,
      idleTimeout: 30_000,
      resourceLimits: { stackSizeMb: EDITION_STACK_MB },
    });
    return this.edition;
  }

  /** Runs `index-writer-thread.js` tasks: one thread, kept a while between batches. */
  writerPool(): Piscina {
    this.writer ??= new Piscina({
      filename: new URL('./index-writer-thread.js', import.meta.url).href,
      maxThreads: 1,
      minThreads: 0,
      idleTimeout: 60_000,
    });
    return this.writer;
  }

  /** Runs `extraction-thread.js` tasks: words extracted ahead of an index write. */
  extractionPool(): Piscina {
    this.extraction ??= new Piscina({
      filename: new URL('./extraction-thread.js', import.meta.url).href,
      maxThreads: this.threads,
      minThreads: 0,
      idleTimeout: 60_000,
    });
    return this.extraction;
  }

  async close(): Promise<void> {
    await Promise.all([this.edition?.destroy(), this.writer?.destroy(), this.extraction?.destroy()]);
    this.edition = null;
    this.writer = null;
    this.extraction = null;
  }
}
