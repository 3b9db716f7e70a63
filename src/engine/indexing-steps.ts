/**
 * The steps of an index write, as Meilisearch's indexer names them (milli `IndexingStep`, in its
 * order: a step's position is the `finished` count a batch's progress shows for it). Quarry goes
 * through the ones its pipeline has, chunk after chunk: preparing payloads (validating an
 * addition), extracting documents (the document store), extracting facets, extracting words
 * (the word index), finalizing (the commit). Each index updater names the step its work is
 * reported as (updater.ts).
 *
 * The writer thread reports its current step through memory shared with the HTTP thread, which
 * shows it in `GET /batches` while the batch runs, and times every step for `progressTrace`.
 */
export const INDEXING_STEPS = [
  'preparing payloads',
  'extracting documents',
  'extracting facets',
  'extracting words',
  'extracting word proximity',
  'extracting embeddings',
  'merging facet caches',
  'merging word caches',
  'merging word proximity',
  'writing geo points',
  'writing geo json',
  'waiting for database writes',
  'waiting for extractors',
  'writing embeddings to database',
  'post processing facets',
  'post processing words',
  'building geo json',
  'finalizing',
] as const;

export type IndexingStep = (typeof INDEXING_STEPS)[number];

/** Nanoseconds spent in each step entered, in order of first entry. */
export type StepDurations = readonly (readonly [IndexingStep, number])[];

export class StepReporter {
  private current: IndexingStep | null = null;
  private startedAt = 0n;
  private readonly durations = new Map<IndexingStep, bigint>();

  /** `shared[0]`, when given, holds the current step's position + 1 (0: none yet). */
  constructor(private readonly shared?: Int32Array) {}

  enter(step: IndexingStep): void {
    if (step === this.current) return;
    this.stop();
    this.current = step;
    this.startedAt = process.hrtime.bigint();
    if (this.shared !== undefined) Atomics.store(this.shared, 0, INDEXING_STEPS.indexOf(step) + 1);
  }

  /** Ends the current step; the time spent in every step. */
  finish(): StepDurations {
    this.stop();
    this.current = null;
    return [...this.durations].map(([step, ns]) => [step, Number(ns)] as const);
  }

  private stop(): void {
    if (this.current === null) return;
    this.durations.set(this.current, (this.durations.get(this.current) ?? 0n) + process.hrtime.bigint() - this.startedAt);
  }
}
