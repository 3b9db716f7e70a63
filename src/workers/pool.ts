/**
 * The worker-thread pools of indexing work (piscina), sized by `--max-indexing-threads`
 * (default: half the cores, at least one). Pools start lazily, so an instance that never needs
 * one never spawns a thread, and idle threads exit after a while.
 */
import os from 'node:os';
import { Piscina } from 'piscina';

/** Stack for 1000 nested Rhai script calls, with room to spare. */
const EDITION_STACK_MB = 64;

/** A pool of the task module at `file` (relative to this module) whose threads start on demand and exit after `idleTimeout` ms idle. */
function lazyPool(file: string, maxThreads: number, idleTimeout: number, options: { resourceLimits?: { stackSizeMb: number } } = {}): Piscina {
  return new Piscina({ filename: new URL(file, import.meta.url).href, maxThreads, minThreads: 0, idleTimeout, ...options });
}

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
    this.edition ??= lazyPool('../engine/rhai/thread.js', this.threads, 30_000, { resourceLimits: { stackSizeMb: EDITION_STACK_MB } });
    return this.edition;
  }

  /** Runs `index-writer-thread.js` tasks: one thread, kept a while between batches. */
  writerPool(): Piscina {
    this.writer ??= lazyPool('./index-writer-thread.js', 1, 60_000);
    return this.writer;
  }

  /** Runs `extraction-thread.js` tasks: words extracted ahead of an index write. */
  extractionPool(): Piscina {
    this.extraction ??= lazyPool('./extraction-thread.js', this.threads, 60_000);
    return this.extraction;
  }

  async close(): Promise<void> {
    await Promise.all([this.edition?.destroy(), this.writer?.destroy(), this.extraction?.destroy()]);
    this.edition = null;
    this.writer = null;
    this.extraction = null;
  }
}
