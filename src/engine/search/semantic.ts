/**
 * Semantic search over one index (vectors.md §8): the documents matching the filters ranked by
 * the ranking rules in which one vector step replaces the relevancy rules (ranking.ts
 * `rankingSteps` in vector mode), as milli's `execute_vector_search`. The nearest neighbours come
 * from the caller's `nearest` (the index's vector store for one embedder and query vector), asked
 * for as many documents of a group as the sort may still emit, again for the rest when those run
 * out (milli's `VectorSort` refills its buffer the same way); documents
 * at the same distance form one bucket, and those without a vector come last, in one bucket
 * whose similarity is null (score 0).
 *
 * Every document matching the filters is a candidate (with or without a vector), which is what
 * the hit count and the facets cover, minus what distinct and `rankingScoreThreshold` drop; ties
 * go by ascending docid. The time budget is checked before each bucket, as in the keyword sort.
 */
import type { IndexSettings } from '../../types/settings.js';
import { difference, fromUnsorted, intersect, unionAll, type DocSet } from '../docset.js';
import type { SortCriterion } from '../facets/sort.js';
import { FacetReader } from '../facets/store.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { rankedPage, rankingNeed } from './ranked-page.js';
import { AbsentSortRuns, rankingSteps, StackedDetails, stackScore, sortStepBuckets, type DetailStack, type Accept, type RankedDoc, type RankStep, type StepDetail } from './ranking.js';
import { distinctFilter } from './distinct.js';
import type { SearchOutcome } from './search.js';

/** One nearest neighbour: its distance to the query and its ranking score (similarity, distribution-shifted). */
export interface Neighbour {
  readonly docid: number;
  readonly distance: number;
  readonly score: number;
}

/** The `limit` documents of `candidates` nearest to the query vector, nearest first. */
export type NearestVectors = (candidates: DocSet, limit: number) => readonly Neighbour[];

export interface SemanticRequest {
  /** documents to rank before skipping `offset`: min(offset + limit, maxTotalHits) */
  readonly need: number;
  readonly nearest: NearestVectors;
  readonly filters: readonly DocSet[];
  readonly sort: readonly SortCriterion[];
  readonly rankingScoreThreshold: number | null;
  readonly distinct: string | null;
  readonly exhaustive: boolean;
  readonly timeUp?: () => boolean;
}

/** Runs one semantic search on the current snapshot of `env`. */
export function executeSemanticSearch(env: IndexReadEnv, settings: IndexSettings, request: SemanticRequest): SearchOutcome {
  const facets = new FacetReader(env);
  let candidates = facets.allDocids();
  for (const filter of request.filters) candidates = intersect(candidates, filter);
  const steps = rankingSteps(settings.rankingRules, request.sort, 'last', true, true);
  const distinct = request.distinct === null ? null : distinctFilter(env, facets, request.distinct);
  const need = rankingNeed(request, settings);

  const sorter = new SemanticSorter(facets, request, need, distinct?.accept ?? null);
  sorter.sort(steps, 0, candidates, []);
  // v1.50's vector search counts its hits without the pass of distinct over every candidate a
  // keyword search makes in page mode: what the ranking excluded is all that leaves the count
  const sorted = { docs: sorter.out, dropped: unionAll(sorter.dropped) };
  return { ...rankedPage(sorted, { ...request, exhaustive: false }, need, distinct, candidates), matchingWords: [], degraded: sorter.degraded };
}

/** The depth-first bucket sort of a semantic search, over docid sets. */
class SemanticSorter {
  readonly out: RankedDoc[] = [];
  /** what the score threshold took out of the ranking (ranking.ts's rule) */
  readonly dropped: DocSet[] = [];
  degraded = false;
  private timedOut = false;

  constructor(
    private readonly facets: FacetReader,
    private readonly request: SemanticRequest,
    private readonly need: number,
    private readonly accept: Accept | null,
  ) {}

  /**
   * Depth-first from step `s`: the levels are an explicit stack, not recursion (a level per
   * ranking rule, and 10,000 rules overflowed the call stack); `details` holds one detail per
   * level above (and one entry per run of steps on absent fields passed), pushed and popped,
   * copied for a group that emits and flattened when a hit's details are read (`StackedDetails`).
   */
  sort(steps: readonly RankStep[], s: number, group: DocSet, details: DetailStack): void {
    const levels: { step: number; group: DocSet; buckets: Generator<{ docids: DocSet; detail: StepDetail }>; done: DocSet[]; consumed: number; passed: boolean }[] = [];
    const absent = AbsentSortRuns.of(steps, this.facets);
    const descend = (first: number, at: DocSet): boolean => {
      if (this.out.length >= this.need || at.length === 0) return false;
      // a run of sort steps on absent fields passes the group on whole (ranking.ts AbsentSortRuns)
      const step = absent.end(first);
      const passed = step > first;
      if (step === steps.length) {
        this.emit(at, passed ? [...details, absent.run(first)] : details);
        return false;
      }
      if (passed) details.push(absent.run(first));
      levels.push({ step, group: at, buckets: this.buckets(steps[step]!, at), done: [], consumed: 0, passed });
      return true;
    };
    // a level left before its last bucket holds its step's reads open (a sort step's LMDB cursor
    // pins the read transaction it was opened in, and its reader slot): returned when popped
    const ascend = () => {
      const level = levels.pop()!;
      level.buckets.return(undefined);
      if (level.passed) details.pop();
      if (levels.length > 0) details.pop();
    };
    descend(s, group);
    try {
      while (levels.length > 0) {
        const level = levels[levels.length - 1]!;
        if (this.out.length >= this.need || level.consumed === level.group.length) {
          ascend();
          continue;
        }
        const next = level.buckets.next();
        if (next.done === true) {
          ascend();
          continue;
        }
        if (this.timedOut || (this.request.timeUp?.() ?? false)) {
          this.timedOut = true;
          const skipped: DetailStack = [...details, { kind: 'skipped' }];
          const rest = difference(level.group, unionAll(level.done));
          if (this.below(skipped)) this.dropped.push(rest);
          else this.emit(rest, skipped);
          if (level.step === 0) this.degraded = true;
          ascend();
          continue;
        }
        const { docids, detail } = next.value;
        level.done.push(docids);
        level.consumed += docids.length;
        details.push(detail);
        if (this.below(details)) {
          // the bucket and what its step had not reached yet, as the keyword sort
          this.dropped.push(docids, difference(level.group, unionAll(level.done)));
          level.consumed = level.group.length;
          details.pop();
          continue;
        }
        if (!descend(level.step + 1, docids)) details.pop();
      }
    } finally {
      for (const level of levels) level.buckets.return(undefined);
    }
  }

  private *buckets(step: RankStep, group: DocSet): Generator<{ docids: DocSet; detail: StepDetail }> {
    if (step.kind === 'sort') {
      yield* sortStepBuckets(this.facets, step.criterion, group);
    } else if (step.kind === 'vector') {
      yield* this.vectorBuckets(group);
    }
  }

  /** Nearest first, one bucket per distance; what has no vector last, with a null similarity. */
  private *vectorBuckets(group: DocSet): Generator<{ docids: DocSet; detail: StepDetail }> {
    let rest = group;
    while (rest.length > 0) {
      // as many as the sort may still emit (more than the page under a threshold)
      const found = this.request.nearest(rest, Math.min(this.need - this.out.length, rest.length));
      const seen = new Set<number>();
      for (let i = 0; i < found.length; ) {
        let j = i + 1;
        while (j < found.length && found[j]!.distance === found[i]!.distance) j++;
        const bucket = fromUnsorted(found.slice(i, j).flatMap(({ docid }) => (seen.has(docid) ? [] : (seen.add(docid), [docid]))));
        if (bucket.length > 0) yield { docids: bucket, detail: { kind: 'vector', similarity: Math.fround(found[i]!.score) } };
        i = j;
      }
      // nothing more has a vector among the rest
      if (seen.size === 0) break;
      rest = difference(rest, fromUnsorted(seen));
    }
    if (rest.length > 0) yield { docids: rest, detail: { kind: 'vector', similarity: null } };
  }

  /** Whether a bucket with `details` scores under the threshold (a NaN threshold drops nothing). */
  private below(details: DetailStack): boolean {
    const threshold = this.request.rankingScoreThreshold;
    return threshold !== null && stackScore(details) < threshold;
  }

  /** As the keyword sort's: distinct sees the whole bucket, the page takes what it needs. */
  private emit(group: DocSet, details: DetailStack): void {
    let stacked: StackedDetails | undefined;
    for (const docid of group) {
      if (this.out.length >= this.need) {
        if (this.accept === null) return;
        this.accept(docid);
      } else if (this.accept === null || this.accept(docid)) {
        this.out.push((stacked ??= new StackedDetails(details.slice())).doc(docid));
      }
    }
  }
}
