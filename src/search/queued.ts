/**
 * A search request run under a search-queue permit (search-queue.ts), as v1.50's search,
 * multi-search, facet-search and document-fetch routes, started in a turn of the event loop of its
 * own (search-turns.ts): both waits are the `wait in queue` step of its performanceDetails, what
 * follows its `search` step. The permit is released however the work ends.
 */
import type { SearchContext } from './context.js';
import { NO_STEPS, type PerformanceSteps } from './performance-details.js';
import { searchTurn } from './search-turns.js';

export async function queued<T>(ctx: SearchContext, timer: PerformanceSteps | undefined, work: () => Promise<T>): Promise<T> {
  const permit = await (timer ?? NO_STEPS).stepAsync('wait in queue', async () => {
    await searchTurn();
    return ctx.searchQueue.permit();
  });
  try {
    timer?.start('search');
    return await work();
  } finally {
    permit.release();
  }
}
