/**
 * A search request run under a search-queue permit (search-queue.ts), as v1.50's search and
 * multi-search routes: the wait is the `wait in queue` step of its performanceDetails, what follows
 * its `search` step. The permit is released however the work ends.
 */
import type { SearchContext } from './context.js';
import { NO_STEPS, type PerformanceSteps } from './performance-details.js';

export async function queued<T>(ctx: SearchContext, timer: PerformanceSteps | undefined, work: () => Promise<T>): Promise<T> {
  const permit = await (timer ?? NO_STEPS).stepAsync('wait in queue', () => ctx.searchQueue.permit());
  try {
    timer?.start('search');
    return await work();
  } finally {
    permit.release();
  }
}
