/**
 * What keyword and semantic rankings share around their bucket sort: how many documents to rank
 * (all up to `maxTotalHits` under a score threshold, so counts are exact), and how the ranked
 * documents become hits (the threshold applied, `need` kept) with the candidates that still match
 * once distinct and the threshold dropped theirs. In page mode, distinct then runs over those
 * candidates in docid order for the exact count, as v1.50 does after its bucket sort: ranking
 * every candidate for it cost a search of "the" on movies 38 ms instead of 4.
 */
import type { IndexSettings } from '../../types/settings.js';
import { difference, fromSorted, fromUnsorted, union, type DocSet } from '../docset.js';
import { scoreOf, type StepDetail } from './ranking.js';

interface PageRequest {
  readonly need: number;
  readonly rankingScoreThreshold: number | null;
  readonly exhaustive: boolean;
}

/** The distinct filter as the page sees it: the documents it excluded while ranking, and what it keeps of a set in docid order. */
interface Distinct {
  excluded(everyRanked: boolean): DocSet;
  remaining(docids: DocSet): DocSet;
}

export function rankingNeed(request: PageRequest, settings: IndexSettings): number {
  return request.rankingScoreThreshold === null ? request.need : Math.max(request.need, settings.pagination.maxTotalHits);
}

export function rankedPage(
  ranked: readonly { readonly docid: number; readonly details: readonly StepDetail[] }[],
  request: PageRequest,
  need: number,
  distinct: Distinct | null,
  candidates: DocSet,
): { hits: { docid: number; score: number; details: readonly StepDetail[] }[]; totalHits: number; candidates: DocSet } {
  const threshold = request.rankingScoreThreshold;
  let hits = ranked.map((doc) => ({ docid: doc.docid, score: scoreOf(doc.details), details: doc.details }));
  let dropped: DocSet = distinct?.excluded(need >= candidates.length) ?? fromSorted([]);
  if (threshold !== null) {
    dropped = union(dropped, fromUnsorted(hits.filter((hit) => hit.score < threshold).map((hit) => hit.docid)));
    // `!(<)`: a NaN threshold (a GET search may send one) drops nothing, as v1.50 compares
    hits = hits.filter((hit) => !(hit.score < threshold));
  }
  // more than `need` were ranked for exact counts under a threshold
  hits = hits.slice(0, request.need);
  let matching = dropped.length === 0 ? candidates : difference(candidates, dropped);
  if (distinct !== null && request.exhaustive) matching = distinct.remaining(matching);
  return { hits, totalHits: matching.length, candidates: matching };
}
