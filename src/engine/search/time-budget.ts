/**
 * The clock of a search's time budget (`searchCutoffMs`, Meilisearch's `TimeBudget`), which
 * the `timeUp` of a SearchRequest reads.
 * The time the thread spends in the dictionary segmenters (kernels/run-segmenter.ts) is left
 * out: a query's few words take them microseconds, but the first Chinese, Japanese or Korean
 * query of a process waits for its dictionary to load (about 3 ms from the build's compiled copy,
 * 70 to 140 ms from its package without one, more on a busy machine), and any query may wait for
 * the segmenter thread to finish another thread's request, an indexing batch's runs included.
 * Counted, that wait skipped the ranking of such a query (hits in docid order) depending on the
 * machine's load rather than on the search's work.
 */
import { segmentationMs } from '../../kernels/run-segmenter.js';

/** The milliseconds of the search's own time since this call. */
export function searchClock(): () => number {
  const started = performance.now();
  const segmented = segmentationMs();
  return () => performance.now() - started - (segmentationMs() - segmented);
}

/**
 * One `searchCutoffMs` budget for searches run one after another: v1.50 gives all the queries of
 * a federated search on one index one deadline, so a request of a hundred queries on an index
 * ranks for one budget, not a hundred. Only the searches' own time counts, not the turns other
 * requests get between them.
 */
export class SharedSearchClock {
  private spentBefore = 0;

  /** Runs `search` with a clock that starts where the previous searches' time left off. */
  async run<T>(search: (spent: () => number) => Promise<T>): Promise<T> {
    const own = searchClock();
    const spent = () => this.spentBefore + own();
    try {
      return await search(spent);
    } finally {
      this.spentBefore = spent();
    }
  }
}
