/**
 * A large synonym table built before a search looks it up, a slice at a time with turns for the
 * event loop between (time-slices.ts, engine/search/synonym-table.ts): the first search after a
 * settings change of 100,000 synonyms held the thread ~1 s. Done before the search's
 * `searchCutoffMs` clock starts: v1.50 builds the table when it applies the settings, so none of
 * its searches pays for it.
 */
import { searchSettings } from '../engine/index-settings.js';
import { synonymTableBuild } from '../engine/search/synonym-table.js';
import type { SearchContext } from './context.js';
import type { SearchQuery } from './query.js';
import { TimeSlices } from '../types/time-slices.js';

/** Steps through the synonym table's build of index `uid` when a query with words needs it. */
export async function synonymsBuilt(ctx: SearchContext, uid: string, query: Pick<SearchQuery, 'q'>): Promise<void> {
  if (query.q === undefined || query.q === null || query.q === '') return;
  const build = synonymTableBuild(searchSettings(ctx.indexReader.open(uid)));
  if (build === undefined) return;
  const slices = new TimeSlices();
  while (!build.step()) await slices.pause();
}
