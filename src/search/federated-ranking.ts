/**
 * How federated search orders and thins the hits of all its queries (search.md §10.2). Hits are
 * compared by their weighted score sequences (consecutive relevancy rules collapse into one
 * score × weight, sort rules compare their values); when two sequences do not line up,
 * `_rankingScore × weight` decides; ties keep the earlier query first. `federation.distinct`
 * keeps the first hit of each value, per index and then across indexes.
 */
import { scoreOf, type StepDetail } from '../engine/search/ranking.js';
import { distinctValues, type SearchHit } from '../engine/search/search.js';
import type { IndexSearch } from './hits.js';
import type { QueryWithIndex, SearchQuery } from './query.js';

/** One element of a weighted score sequence. */
export type Weighted = { readonly kind: 'score'; readonly value: number } | { readonly kind: 'sort'; readonly descending: boolean; readonly value: number | string | null };

/**
 * Collapses consecutive relevancy rules into one weighted score; a semantic hit's similarity is a
 * weighted score of its own (0 without a vector); sort rules keep their values (milli's
 * `weighted_score_values`).
 */
export function weightedSequence(details: readonly StepDetail[], weight: number): Weighted[] {
  const out: Weighted[] = [];
  let group: StepDetail[] = [];
  const flush = () => {
    if (group.length > 0) out.push({ kind: 'score', value: scoreOf(group) * weight });
    group = [];
  };
  for (const detail of details) {
    if (detail.kind === 'sort') {
      flush();
      out.push({ kind: 'sort', descending: detail.criterion.descending, value: detail.value });
    } else if (detail.kind === 'vector') {
      flush();
      out.push({ kind: 'score', value: (detail.similarity ?? 0) * weight });
    } else {
      group.push(detail);
    }
  }
  flush();
  return out;
}

/** Sort values ordered as Meilisearch sorts a field: numbers before strings, missing last; negative when `a` comes first. */
export function compareSortValues(a: number | string | null, b: number | string | null, descending: boolean): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a !== typeof b) return typeof a === 'number' ? -1 : 1;
  const order = a < b ? -1 : 1;
  return descending ? -order : order;
}

export interface Candidate {
  readonly position: number;
  readonly query: SearchQuery;
  readonly search: IndexSearch;
  readonly hit: SearchHit;
  readonly weight: number;
  readonly sequence: Weighted[];
}

/** Negative when `a` ranks before `b`. */
export function compareCandidates(a: Candidate, b: Candidate): number {
  const length = Math.min(a.sequence.length, b.sequence.length);
  for (let i = 0; i < length; i++) {
    const x = a.sequence[i]!;
    const y = b.sequence[i]!;
    let order: number;
    // scores within f64 epsilon tie, as Meilisearch's `WeightedScoreValue` compares them
    if (x.kind === 'score' && y.kind === 'score') order = Math.abs(x.value - y.value) <= Number.EPSILON ? 0 : y.value - x.value;
    else if (x.kind === 'sort' && y.kind === 'sort' && x.descending === y.descending) order = compareSortValues(x.value, y.value, x.descending);
    else {
      // Sequences that do not line up: the global weighted score decides.
      order = b.hit.score * b.weight - a.hit.score * a.weight;
      return order !== 0 ? order : a.position - b.position;
    }
    if (order !== 0) return order;
  }
  return a.position - b.position;
}

/** Query positions in the order Meilisearch runs them: by index uid, then in request order. */
export function searchOrder(queries: readonly QueryWithIndex[]): number[] {
  return queries.map((_, position) => position).sort((a, b) => {
    const [x, y] = [queries[a]!.indexUid, queries[b]!.indexUid];
    return x < y ? -1 : x > y ? 1 : a - b;
  });
}

/**
 * `federation.distinct` over the merged hits, in two passes as Meilisearch makes them: first each
 * index keeps its first `need` hits whose values were not seen in that index, then the survivors
 * of every index go through one more pass across indexes. `dropped` lists, per index, the hits
 * either pass removed: they leave that index's hit count and facets.
 */
export function distinctHits(
  ranked: readonly Candidate[],
  queries: readonly QueryWithIndex[],
  attribute: string,
  need: number,
): { merged: Candidate[]; dropped: Map<string, number[]> } {
  const dropped = new Map<string, number[]>();
  const drop = (uid: string, docid: number) => {
    const list = dropped.get(uid);
    if (list === undefined) dropped.set(uid, [docid]);
    else list.push(docid);
  };
  const valuesOf = ({ search, hit }: Candidate) => distinctValues(search.env.documents.get(hit.docid) ?? {}, attribute).map(([kind, value]) => `${kind}:${value}`);
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
    const uid = queries[candidate.position]!.indexUid;
    const kept = keptByIndex.get(uid) ?? 0;
    if (kept >= Math.min(need, candidate.search.settings.pagination.maxTotalHits)) continue;
    const seen = seenByIndex.get(uid) ?? new Set<string>();
    seenByIndex.set(uid, seen);
    const values = valuesOf(candidate);
    if (!firstSeen(seen, values)) {
      drop(uid, candidate.hit.docid);
      continue;
    }
    keptByIndex.set(uid, kept + 1);
    perIndex.push({ candidate, values });
  }

  const seen = new Set<string>();
  const merged: Candidate[] = [];
  for (const { candidate, values } of perIndex) {
    if (firstSeen(seen, values)) merged.push(candidate);
    else drop(queries[candidate.position]!.indexUid, candidate.hit.docid);
  }
  return { merged, dropped };
}
