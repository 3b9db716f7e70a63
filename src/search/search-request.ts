/**
 * `POST`/`GET /indexes/{uid}/search`: one search under a search-queue permit (queued.ts), on this
 * instance's index (single.ts) or, with `useNetwork: true`, over the network (network-search.ts).
 */
import type { Caller } from '../auth/caller.js';
import { uuidV7 } from '../types/uuid-v7.js';
import type { SearchContext } from './context.js';
import { networkSearchResponse } from './network-search.js';
import { usesNetwork } from './network-use.js';
import { PerformanceSteps } from './performance-details.js';
import type { SearchQuery } from './query.js';
import { queued } from './queued.js';
import { searchResponse } from './single.js';
import { withAnswerFloats } from './answer-floats.js';

export function searchRequest(ctx: SearchContext, caller: Caller, uid: string, query: SearchQuery, metadata: boolean): Promise<{ body: Record<string, unknown>; degraded: boolean }> {
  const timer = query.showPerformanceDetails === true ? new PerformanceSteps() : undefined;
  return queued(ctx, timer, () =>
    usesNetwork(ctx, query.useNetwork) ? networkSearchResponse(ctx, caller, uid, query, metadata, timer) : searchResponse(ctx, caller, uid, query, uuidV7(), metadata, timer),
  ).then(({ body, degraded }) => ({ body: withAnswerFloats(body), degraded }));
}
