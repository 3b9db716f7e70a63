/**
 * The progress of the running batch (Meilisearch's `Progress`): a stack of steps from which the
 * batch shows `progress`, and its `stats.progressTrace` so far, while it runs, and records
 * `stats.progressTrace` once finished (tasks-batches.md §7, §9.5).
 *
 * Every step belongs to a family (Meilisearch's step type). Entering a step of a family already on
 * the stack closes that step and everything nested in it, then opens the new one; a step of
 * another family nests inside the current one. Closing a step records its duration under its full
 * path (`processing tasks > creating the index`); durations of a path seen twice add up.
 *
 * An index write runs in the index writer thread: its own steps (engine/indexing-steps.ts) nest in
 * the current step, read live from memory the thread writes, and its times join the trace when it
 * ends (`watchIndexWrite`), with its requests to embedding servers (`stats.embedderRequests`,
 * read live from the write's counter while it runs)
 * and, for the writes that index documents, how its extraction workers waited for it (`stats.writeChannelCongestion`).
 *
 * Used on the main thread only: the scheduler creates one per batch, processors enter their steps.
 */
import { EmbedderRequestStats } from '../embedders/request-stats.js';
import { INDEXING_STEPS } from '../engine/indexing-steps.js';
import { formatStepDuration } from '../types/dates.js';
import { shortestF32 } from '../types/ryu.js';
import type { ArchiveProgress, CounterUnit } from '../types/archive-progress.js';
import type { BatchProgress, BatchStats } from '../types/task.js';
import type { ChannelCongestion } from '../workers/ahead-ports.js';
import type { StepWatcher } from '../workers/index-writer.js';

/** Step families and their steps, in Meilisearch's enum order (`finished` is the step's position). */
export const STEPS = {
  batch: ['processing tasks', 'writing tasks to disk'],
  indexing: ['retrieving config', 'computing document changes', 'indexing'],
  createIndex: ['creating the index'],
  updateIndex: ['updating the index'],
  deleteIndex: ['deleting the index'],
  swap: ['ensuring correctness of the swap', 'swapping the indexes'],
  taskCancelation: ['retrieving tasks', 'updating tasks'],
  indexCompaction: ['retrieve the index', 'create temporary file', 'copy and compact the index'],
  taskDeletion: ['deleting tasks date time', 'deleting tasks metadata', 'deleting tasks', 'deleting batches'],
  dumpCreation: [
    'start the dump creation',
    'dump the api keys',
    'dump the chat completion settings',
    'dump the tasks',
    'dump the batches',
    'dump the indexes',
    'dump the experimental features',
    'dump the webhooks',
    'compress the dump',
  ],
  // keys live in the instance environment here: its copy snapshots them, and `snapshot the api
  // keys` only holds its place (snapshots/writer.ts)
  snapshotCreation: ['start the snapshot creation', 'snapshot the index scheduler', 'snapshot the update files', 'snapshot the indexes', 'snapshot the api keys', 'create the tarball'],
  upgradeIndexes: ['upgrading user indexes', 'upgrading dsr index'],
} as const;

export type StepFamily = keyof typeof STEPS;

interface OpenStep {
  family: string;
  name: string;
  finished: () => number;
  total: number;
  startedAt: bigint;
  /** an index write's step, read live: its position in INDEXING_STEPS + 1 (0: not started) */
  live?: Int32Array;
}

function nameOf(step: OpenStep): string {
  return step.live === undefined ? step.name : (INDEXING_STEPS[Atomics.load(step.live, 0) - 1] ?? '');
}

export class Progress {
  private readonly steps: OpenStep[] = [];
  private readonly durations: [string, bigint][] = [];
  /** the batch's requests to embedding servers, over its ended index writes (`stats.embedderRequests`) */
  readonly embedderRequests = new EmbedderRequestStats();
  /** the running index write's, counted as they are made */
  private liveRequests: EmbedderRequestStats | undefined;
  /** its document additions' extraction parts, and those that waited for the write, over its index writes */
  private congestion: ChannelCongestion | undefined;

  constructor(private readonly clock: () => bigint = process.hrtime.bigint) {}

  /** Enters a named step of a family (its position in `STEPS` is its `finished` count). */
  enter<F extends StepFamily>(family: F, name: (typeof STEPS)[F][number]): void {
    const names = STEPS[family] as readonly string[];
    const position = names.indexOf(name);
    this.push({ family, name, finished: () => position, total: names.length });
  }

  /** Enters a step named at run time (``Exporting index `movies` ``, 2 of 5). */
  enterNamed(family: string, name: string, finished: number, total: number): void {
    this.push({ family, name, finished: () => finished, total });
  }

  /** Enters a counted step (`task` 3 of 10); the returned function counts one more. */
  count(unit: CounterUnit, total: number): () => void {
    let done = 0;
    this.push({ family: `counter:${unit}`, name: unit, finished: () => done, total });
    return () => {
      done += 1;
    };
  }

  /** Enters a step named at run time (Meilisearch's `VariableNameStep`: ``Upgrading index `movies` ``), the `finished`th of `total` of its family. */
  variable(family: string, name: string, finished: number, total: number): void {
    this.push({ family: `variable:${family}`, name, finished: () => finished, total });
  }

  /** A dump's or snapshot's view of this progress (`ArchiveProgress`). */
  archive<F extends 'dumpCreation' | 'snapshotCreation'>(family: F): ArchiveProgress<(typeof STEPS)[F][number]> {
    return {
      step: (name) => this.enter(family, name),
      count: (unit, total) => this.count(unit, total),
      index: (uid, position, total) => this.variable(family, uid, position, total),
    };
  }

  /** Follows an index write's own steps, nested in the current step. */
  watchIndexWrite(): StepWatcher {
    let live: Int32Array | undefined;
    return {
      started: (current, requests) => {
        live = current;
        this.liveRequests = requests;
        this.steps.push({ family: 'indexer', name: '', finished: () => Atomics.load(current, 0) - 1, total: INDEXING_STEPS.length, startedAt: this.clock(), live });
      },
      ended: (durations) => {
        const at = this.steps.findIndex((step) => step.live !== undefined && step.live === live);
        if (at !== -1) this.steps.length = at;
        const path = this.steps.map(nameOf).join(' > ');
        for (const [step, ns] of durations) this.durations.push([`${path} > ${step}`, BigInt(ns)]);
      },
      embedded: (requests) => {
        this.liveRequests = undefined;
        this.embedderRequests.add(requests);
      },
      congestion: ({ attempts, blocking }) => {
        this.congestion = { attempts: (this.congestion?.attempts ?? 0) + attempts, blocking: (this.congestion?.blocking ?? 0) + blocking };
      },
    };
  }

  /**
   * `stats.writeChannelCongestion`, as v1.50 shows it for a batch that indexed documents (added,
   * deleted, edited, or reindexed by settings): its ratio is blocking ÷ attempts, null (v1.50's
   * NaN) when no part went through the workers; undefined for any other batch, or a failed one.
   */
  congestionView(): BatchStats['writeChannelCongestion'] {
    if (this.congestion === undefined) return undefined;
    const { attempts, blocking } = this.congestion;
    return { attempts, blocking_attempts: blocking, blocking_ratio: attempts === 0 ? null : blocking / attempts };
  }

  /** `stats.embedderRequests` so far: the ended writes' and the running one's, as v1.50 shows a running batch's. */
  requestsView(): BatchStats['embedderRequests'] {
    if (this.liveRequests === undefined) return this.embedderRequests.view();
    const sum = new EmbedderRequestStats();
    sum.add(this.embedderRequests);
    const live = this.liveRequests.view();
    if (live !== undefined) sum.add(live);
    return sum.view();
  }

  /** What `GET /batches` shows while the batch runs. */
  view(): BatchProgress {
    // an index write that has not reported its first step yet shows nothing for it
    const shown = this.steps.filter((step) => step.live === undefined || Atomics.load(step.live, 0) > 0);
    // Meilisearch computes the percentage in f32: Σ finished_i / (total_1 × … × total_i), × 100.
    let percentage = 0;
    let factors = 1;
    for (const step of shown) {
      factors = Math.fround(factors * step.total);
      percentage = Math.fround(percentage + Math.fround(step.finished() / factors));
    }
    return {
      steps: shown.map((step) => ({ currentStep: nameOf(step), finished: step.finished(), total: step.total })),
      percentage: shortestF32(Math.fround(percentage * 100)),
    };
  }

  /** `stats.progressTrace`: every step path with the time spent in it, open steps counted until now. */
  trace(): Record<string, string> {
    const durations = [...this.durations];
    this.close(0, durations);
    const summed = new Map<string, bigint>();
    for (const [path, ns] of durations) summed.set(path, (summed.get(path) ?? 0n) + ns);
    return Object.fromEntries([...summed].map(([path, ns]) => [path, formatStepDuration(ns)]));
  }

  private push(step: Omit<OpenStep, 'startedAt'>): void {
    const existing = this.steps.findIndex((open) => open.family === step.family);
    if (existing !== -1) {
      this.close(existing, this.durations);
      this.steps.length = existing;
    }
    this.steps.push({ ...step, startedAt: this.clock() });
  }

  /** Records the durations of the steps from `from` up, innermost first, as Meilisearch does. */
  private close(from: number, into: [string, bigint][]): void {
    const now = this.clock();
    for (let i = this.steps.length - 1; i >= from; i--) {
      const path = this.steps.slice(0, i + 1).map(nameOf).join(' > ');
      into.push([path, now - this.steps[i]!.startedAt]);
    }
  }
}
