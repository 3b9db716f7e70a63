/**
 * A hit as search responses show it: the displayed ∩ retrieved fields of its document, then
 * `_vectors`, `_geoDistance`, `_rankingScore` and `_rankingScoreDetails` when asked. The viewer is
 * built once per search so that each hit costs only its own document's projection. The vectors a
 * hit retrieves are charged to the request's budget (`MarkupBudget.vectors`) before they are read:
 * past it the request is refused.
 */
import { withVectorsRemoved } from '../engine/documents/project.js';
import { DocumentStore } from '../engine/documents/store.js';
import { vectorsView, type StoredEmbeddingsOf } from '../engine/documents/vectors.js';
import { MAX_RETRIEVED_COMPONENTS, type MarkupBudget } from '../engine/search/format.js';
import { ApiError } from '../errors/api-error.js';
import { storedEmbeddingsOf } from '../engine/vectors/index.js';
import { geoDistanceOf, geoDistanceOrigin } from '../engine/facets/geo.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import type { SearchHit, SearchOutcome } from '../engine/search/search.js';
import type { IndexSettings } from '../types/settings.js';
import { hitFields, isDisplayed } from './displayed.js';
import type { SearchQuery } from './query.js';
import { detailsView } from './score-details.js';

/** A hit's view; the vectors it retrieves are charged to the request's `budget`. */
export type HitView = (hit: SearchHit, budget: MarkupBudget) => Record<string, unknown>;

/** One index's ranked hits before display: what single search, multi-search and federation share. */
export interface IndexSearch {
  /** the snapshot searched: documents and facets are read from it */
  readonly env: IndexReadEnv;
  readonly settings: IndexSettings;
  readonly outcome: SearchOutcome;
  readonly view: HitView;
  /** the search was semantic or hybrid: its response counts `semanticHitCount` */
  readonly semantic: boolean;
  /** the query vector a semantic ranking used, when the query asked for `retrieveVectors` */
  readonly queryVector?: Float32Array;
}

export function hitViewer(env: IndexReadEnv, settings: IndexSettings, query: SearchQuery): HitView {
  const store = new DocumentStore(env);
  const fields = hitFields(settings, query.attributesToRetrieve);
  const distanceFrom = geoDistanceOrigin(query.sort ?? []);
  // `_vectors` only when displayed, whatever attributesToRetrieve says (vectors.md §2.2)
  const vectors = query.retrieveVectors === true && isDisplayed(settings, '_vectors');
  return (hit, budget) => {
    const doc = store.sharedByDocid(hit.docid) ?? {};
    // v1.50 reads a retrieved `_vectors` with the fields, then takes it out to fill it
    const shown: Record<string, unknown> = vectors ? withVectorsRemoved(doc, fields(doc)) : fields(doc);
    if (vectors) shown._vectors = vectorsView(doc._vectors, settings.embedders, charged(storedEmbeddingsOf(env, settings, hit.docid), budget), 'retrieve');
    const geoDistance = distanceFrom === null ? undefined : geoDistanceOf(distanceFrom, shown);
    if (geoDistance !== undefined) shown._geoDistance = geoDistance;
    if (query.showRankingScore === true) shown._rankingScore = hit.score;
    if (query.showRankingScoreDetails === true) shown._rankingScoreDetails = detailsView(settings, hit.details);
    return shown;
  };
}

/** `fromStore`, each embedding it reads charged to the request's budget before any is shown. */
function charged(fromStore: StoredEmbeddingsOf, budget: MarkupBudget): StoredEmbeddingsOf {
  return (embedder) => {
    const stored = fromStore(embedder);
    for (const vector of stored?.embeddings ?? []) budget.vectors -= vector.length;
    if (budget.vectors < 0) {
      throw new ApiError(
        'invalid_search_retrieve_vectors',
        `Invalid value at \`.retrieveVectors\`: the hits of this request would retrieve more than ${MAX_RETRIEVED_COMPONENTS} vector components. Ask for fewer hits, or split the queries into several requests.`,
      );
    }
    return stored;
  };
}
