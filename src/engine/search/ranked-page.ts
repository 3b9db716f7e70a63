/**
 * What keyword and semantic rankings share around their bucket sort: how many documents to rank
 * (all up to `maxTotalHits` under a score threshold, every candidate for distinct in page mode,
 * so counts are exact), and how the ranked documents become hits (the threshold applied, `need`
 * kept) with the candidates that still match once distinct and the threshold dropped theirs.
 */
import type { IndexSettings } from '../../types/settings.js';
import { difference, fromSorted, fromUnsorted, union, type DocSet } from '../docset.js';
import { scoreOf, type StepDetail } from './ranking.js';

interface PageRequest {
  readonly need: number;
  readonly rankingScoreThreshold: number | null;
  readonly exhaustive: boolean;
}

/** The distinct filter as the page sees it: the documents it excluded while ranking. */
interface Distinct {
  excluded(everyRanked: boolean): DocSet;
}

export function rankingNeed(request: PageRequest, settings: IndexSettings, distinct: Distinct | null, candidates: DocSet): number {
  if (distinct !== null && request.exhaustive) return candidates.length;
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
    hits = hits.filter((hit) => hit.score >= threshold);
  }
  // more than `need` were ranked for exact counts (threshold, distinct in page mode)
  hits = hits.slice(0, request.need);
  const matching = dropped.length === 0 ? candidates : difference(candidates, dropped);
  return { hits, totalHits: matching.length, candidates: matching };
}
