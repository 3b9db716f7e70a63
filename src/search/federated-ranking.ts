/**
 * How federated search orders and thins the hits of all its queries (search.md §10.2), local or
 * answered by a remote instance (network.md §7.3). Hits are compared by their weighted score
 * values (score-values.ts); ties keep the earlier query first. `federation.distinct` keeps the
 * first hit of each value, per index and then across indexes.
 */
import { distinctValues } from '../engine/search/distinct.js';
import type { SearchHit } from '../engine/search/search.js';
import type { IndexSearch } from './hits.js';
import type { QueryWithIndex, SearchQuery } from './query.js';
import type { LocalQuery } from './network-use.js';
import { compareScoreValues, type ScoreValue } from './score-values.js';

interface Ranked {
  /** the query's position in the request (its `queryPosition` when given): ties go to the lower */
  readonly position: number;
  readonly sequence: readonly ScoreValue[];
  /** `_rankingScore × weight` */
  readonly weightedScore: number;
}

/** A hit of a query this instance ran. */
export interface LocalCandidate extends Ranked {
  readonly kind: 'local';
  /** the query's index in the request */
  readonly query: number;
  /** the query as searched (its highlight and crop options format the hit) */
  readonly searched: SearchQuery;
  readonly search: IndexSearch;
  readonly hit: SearchHit;
}

/** A hit another instance answered (network.md §7.3), as it sent it but for its `_federation`. */
export interface RemoteCandidate extends Ranked {
  readonly kind: 'remote';
  readonly remote: string;
  readonly indexUid: string;
  readonly view: Record<string, unknown>;
  /** the fields its `distinct` needs that the hit does not show (`extra_document`) */
  readonly extra: Record<string, unknown>;
  /** the position a dynamic search rule of the remote pins it at (`pinnedPosition`), or null */
  readonly pinnedPosition: number | null;
}

export type Candidate = LocalCandidate | RemoteCandidate;

/** Negative when `a` ranks before `b`; ties go to the lower query position. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  const order = compareScoreValues(b.sequence, b.weightedScore, a.sequence, a.weightedScore);
  return order !== 0 ? order : a.position - b.position;
}

/** Local queries in the order Meilisearch runs them: by index uid, then in request order. */
export function searchOrder(queries: readonly LocalQuery[]): LocalQuery[] {
  return [...queries].sort((a, b) => {
    const [x, y] = [a.query.indexUid, b.query.indexUid];
    return x < y ? -1 : x > y ? 1 : a.index - b.index;
  });
}

/**
 * `federation.distinct` over the merged hits, in two passes as Meilisearch makes them: first each
 * index keeps its first `need` hits whose values were not seen in that index, then the survivors
 * of every index go through one more pass across indexes. `dropped` lists, per index, the local
 * hits either pass removed: they leave that index's hit count and facets. A remote hit was
 * thinned by its own instance; it takes part in the pass across indexes only, with the values of
 * its document and `extra_document`.
 */
export function distinctHits(
  ranked: readonly Candidate[],
  queries: readonly QueryWithIndex[],
  attribute: string,
  need: number,
): { merged: Candidate[]; dropped: Map<string, number[]> } {
  const dropped = new Map<string, number[]>();
  const drop = (candidate: Candidate) => {
    if (candidate.kind === 'remote') return;
    const uid = queries[candidate.query]!.indexUid;
    const list = dropped.get(uid);
    if (list === undefined) dropped.set(uid, [candidate.hit.docid]);
    else list.push(candidate.hit.docid);
  };
  const valuesOf = (candidate: Candidate) => {
    const values =
      candidate.kind === 'local'
        ? distinctValues(candidate.search.env.documents.get(candidate.hit.docid) ?? {}, attribute)
        : [...distinctValues(candidate.view, attribute), ...distinctValues(candidate.extra, attribute)];
    return values.map(([kind, value]) => `${kind}:${value}`);
  };
  const firstSeen = (seen: Set<string>, values: readonly string[]) => {
    if (values.some((value) => seen.has(value))) return false;
    for (const value of values) seen.add(value);
    return true;
  };

  const seenByIndex = new Map<string, Set<string>>();
  const keptByIndex = new Map<string, number>();
  // the survivors with their values, read once for both passes
  const perIndex: { candidate: Candidate; values: string[] }[] = [];
  for (const candidate of ranked) {
    if (candidate.kind === 'remote') {
      perIndex.push({ candidate, values: valuesOf(candidate) });
      continue;
    }
    const uid = queries[candidate.query]!.indexUid;
    const kept = keptByIndex.get(uid) ?? 0;
    if (kept >= Math.min(need, candidate.search.settings.pagination.maxTotalHits)) continue;
    const seen = seenByIndex.get(uid) ?? new Set<string>();
    seenByIndex.set(uid, seen);
    const values = valuesOf(candidate);
    if (!firstSeen(seen, values)) {
      drop(candidate);
      continue;
    }
    keptByIndex.set(uid, kept + 1);
    perIndex.push({ candidate, values });
  }

  const seen = new Set<string>();
  const merged: Candidate[] = [];
  for (const { candidate, values } of perIndex) {
    if (firstSeen(seen, values)) merged.push(candidate);
    else drop(candidate);
  }
  return { merged, dropped };
}
