/**
 * Searches served from an index bundle (engine/bundle/): a `SearchContext` whose one index is
 * the bundle's, so `/search`'s own service code (single.ts: checks, ranking, facets, formatting)
 * and its siblings (multi-search, facet search, the document reads) answer from the bundle as
 * they answer from LMDB. The features the bundle recorded apply; nothing is queued (a bundle is
 * searched in-process, one caller at a time); no network is known (a `useNetwork: true` search
 * is refused), and no dynamic search rule (those belong to an instance).
 */
import type { IndexBundle } from '../engine/bundle/reader.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { ApiError } from '../errors/api-error.js';
import { indexNotFound } from '../indexes/reader.js';
import { validateIndexUid } from '../indexes/uid.js';
import type { FeatureName } from '../types/features.js';
import type { SearchContext, SearchedIndex, SearchIndexes } from './context.js';
import type { SearchQuery } from './query.js';
import { DEFAULT_RULE_LIMITS } from '../search-rules/limits.js';
import { NIL_UUID, uuidV7 } from '../types/uuid-v7.js';
import { PerformanceSteps } from './performance-details.js';
import { queued } from './queued.js';
import { searchResponse, type SearchCaller } from './single.js';
import { usesNetwork } from './network-use.js';

/** The bundle's index, under the uid it was exported with; any other uid is `index_not_found`. */
class BundleIndexes implements SearchIndexes {
  private readonly index: SearchedIndex;

  constructor(private readonly bundle: IndexBundle) {
    const { uid, primaryKey } = bundle.toc.index;
    this.index = { uid, uuid: bundle.env.uuid, primaryKey };
  }

  get(uid: string): SearchedIndex | undefined {
    return uid === this.index.uid ? this.index : undefined;
  }

  record(rawUid: string): SearchedIndex {
    const uid = validateIndexUid(rawUid);
    if (uid !== this.index.uid) throw indexNotFound(uid);
    return this.index;
  }

  envOf(): IndexReadEnv {
    return this.bundle.env;
  }

  open(rawUid: string): IndexReadEnv {
    this.record(rawUid);
    return this.bundle.env;
  }

  lease(rawUid: string): { env: IndexReadEnv; release(): void } {
    return { env: this.open(rawUid), release: () => {} };
  }
}

/** The context searches over `bundle` run in. */
export function bundleSearchContext(bundle: IndexBundle): SearchContext {
  const features = bundle.toc.features;
  return soloSearchContext(new BundleIndexes(bundle), (name) => features[name] === true);
}

/**
 * A context of `indexReader`'s indexes alone, searched in-process (a bundle's, the startup
 * warm-up's): no network, no search queue, no dynamic search rule (those belong to an instance).
 */
export function soloSearchContext(indexReader: SearchIndexes, enabled: (name: FeatureName) => boolean): SearchContext {
  return {
    indexReader,
    features: { enabled },
    network: {
      names: () => ({ self: null, remotes: [] }),
      remoteAddress: () => null,
      sharding: () => false,
      current: () => ({ self: null, remotes: {}, shards: {}, version: NIL_UUID }),
      availability: { status: () => 'available', markFailed: () => {} },
    },
    remoteSearch: { send: () => Promise.reject(new Error('an in-process search knows no remote')) },
    searchQueue: { permit: () => Promise.resolve({ release: () => {} }) },
    searchRules: { all: () => [], limits: DEFAULT_RULE_LIMITS },
  };
}

/** A bundle has no API keys: no tenant token's filter (and no import of auth/, which a browser cannot load). */
const NO_TOKEN: SearchCaller = { searchFilter: () => null };

/**
 * `POST /indexes/{uid}/search` on the bundle's index (`query` as the route validates it): the
 * response body the server would answer for the same index.
 */
export async function searchBundle(ctx: SearchContext, uid: string, query: SearchQuery): Promise<Record<string, unknown>> {
  // refused, not served locally (a `useNetwork` search answered from the bundle alone): the
  // feature's error as a server without it answers, else this one
  if (usesNetwork(ctx, query.useNetwork)) {
    throw new ApiError('invalid_search_use_network', 'An index bundle is searched alone: `useNetwork: true` needs a Quarry server in a network.');
  }
  const timer = query.showPerformanceDetails === true ? new PerformanceSteps() : undefined;
  // search-request.ts without its network branch: a bundle knows no network
  const { body } = await queued(ctx, timer, () => searchResponse(ctx, NO_TOKEN, uid, query, uuidV7(), false, timer));
  return body;
}
