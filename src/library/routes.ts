/**
 * The library's transport: the routes the library calls, run in process (http/in-process.ts)
 * over the instance's services, their failures thrown as QuarryApiError. Calls after `close()`
 * are refused, and `close()` waits for those under way, so none reaches a closed environment.
 */
import type { KnownRoute } from '../auth/route-actions.js';
import type { AppDeps } from '../http/deps.js';
import { InProcessRoutes, type RouteInput } from '../http/in-process.js';
import { documentAdditionRoutes } from '../http/routes/document-additions.js';
import { documentDeletionRoutes } from '../http/routes/document-deletions.js';
import { documentReadRoutes } from '../http/routes/documents.js';
import { dumpRoutes } from '../http/routes/dumps.js';
import { facetSearchRoutes } from '../http/routes/facet-search.js';
import { indexRoutes } from '../http/routes/indexes.js';
import { multiSearchRoutes } from '../http/routes/multi-search.js';
import { searchRoutes } from '../http/routes/search.js';
import { settingsRoutes } from '../http/routes/settings.js';
import { snapshotRoutes } from '../http/routes/snapshots.js';
import { statsRoutes } from '../http/routes/stats.js';
import { swapIndexesRoutes } from '../http/routes/swap-indexes.js';
import { taskRoutes } from '../http/routes/tasks.js';
import { versionRoutes } from '../http/routes/version.js';
import { asQuarryError, QuarryError } from './errors.js';

export class LibraryRoutes {
  private readonly routes: InProcessRoutes;
  private closed = false;
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(deps: AppDeps) {
    this.routes = new InProcessRoutes(deps, [
      ...versionRoutes,
      ...indexRoutes,
      ...swapIndexesRoutes,
      ...statsRoutes,
      ...taskRoutes,
      ...documentAdditionRoutes,
      ...documentReadRoutes,
      ...documentDeletionRoutes,
      ...searchRoutes,
      ...multiSearchRoutes,
      ...facetSearchRoutes,
      ...settingsRoutes,
      ...dumpRoutes,
      ...snapshotRoutes,
    ]);
  }

  async call(route: KnownRoute, input?: RouteInput): Promise<unknown> {
    if (this.closed) throw new QuarryError('This Quarry instance is closed.');
    const answer = this.routes.call(route, input);
    this.inFlight.add(answer);
    try {
      return await answer;
    } catch (err) {
      throw asQuarryError(err);
    } finally {
      this.inFlight.delete(answer);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([...this.inFlight]);
  }
}
