/**
 * The hybrid merge of a keyword and a semantic search (vectors.md §7.1, milli's `hybrid.rs`):
 * pure functions over the two ranked lists, so that single search, multi-search and federation
 * share them.
 *
 * - `goodEnough`: the keyword list alone answers when it holds every hit asked for and each of
 *   them scores at least 0.45 once weighted by `1 − semanticRatio`;
 * - `compareHybrid`: two hits compared by their score sequences (ranks collapsed into one score,
 *   a similarity, sort values), keyword scores weighted by `1 − ratio` and semantic ones by
 *   `ratio`, as f32 ratios like Meilisearch's; scores within f64 epsilon go on to the next value;
 * - `mergeHybrid`: a merge sort of the two lists where the semantic side wins ties, each document
 *   once at its first place, distinct applied on the fly; the hit count covers the union of both
 *   candidate sets, minus what distinct took out.
 */
import { difference, fromSorted, union, type DocSet } from '../engine/docset.js';
import type { SearchHit, SearchOutcome } from '../engine/search/search.js';
import { scoreOf } from '../engine/search/ranking.js';
import { compareSortValues, weightedScoreValues, type ScoreValue } from './score-values.js';

/** Meilisearch's threshold for a keyword hit to be good enough alone (0.9 at semanticRatio 0.5). */
const GOOD_ENOUGH_SCORE = 0.45;

/** The two weights of a hybrid search: `semanticRatio` and `1 − semanticRatio`, in f32 as milli computes them. */
export function hybridWeights(semanticRatio: number): { semantic: number; keyword: number } {
  const semantic = Math.fround(semanticRatio);
  return { semantic, keyword: Math.fround(1 - semantic) };
}

/** Whether the keyword hits alone answer: `need` of them, each weighted global score ≥ 0.45. */
export function goodEnough(keyword: readonly SearchHit[], need: number, semanticRatio: number): boolean {
  if (keyword.length < need) return false;
  const weight = hybridWeights(semanticRatio).keyword;
  return keyword.every((hit) => scoreOf(hit.details) * weight >= GOOD_ENOUGH_SCORE);
}

/** A score (relevancy or similarity) of a sequence, or null for a sort value. */
const scoreOfValue = (value: ScoreValue): number | null => ('weightedScore' in value ? value.weightedScore : 'vectorSort' in value ? value.vectorSort : null);

/** A sort value of a sequence: a field's value or a geo distance. */
const sortOfValue = (value: ScoreValue): { descending: boolean; value: number | string | null } =>
  'sort' in value ? { descending: !value.sort.asc, value: value.sort.value } : 'geoSort' in value ? { descending: !value.geoSort.asc, value: value.geoSort.distance } : { descending: false, value: null };

/** Positive when `a` ranks before `b`, negative when after, 0 when they tie (milli's `compare_scores`). */
export function compareHybrid(a: readonly ScoreValue[], b: readonly ScoreValue[]): number {
  for (let i = 0; ; i++) {
    const x = a[i];
    const y = b[i];
    if (x === undefined) return y === undefined ? 0 : -1;
    if (y === undefined) return 1;
    const [scoreX, scoreY] = [scoreOfValue(x), scoreOfValue(y)];
    if (scoreX !== null && scoreY !== null) {
      if (Math.abs(scoreX - scoreY) <= Number.EPSILON) continue;
      return scoreX > scoreY ? 1 : -1;
    }
    if (scoreX === null && scoreY === null) {
      const [sortX, sortY] = [sortOfValue(x), sortOfValue(y)];
      const order = compareSortValues(sortX.value, sortY.value, sortX.descending);
      if (order !== 0) return -order;
      continue;
    }
    // a score facing a sort value: a zero score loses, any other wins
    if (scoreX !== null) return scoreX === 0 ? -1 : 1;
    return scoreY === 0 ? 1 : -1;
  }
}

/** Distinct for the merge: whether a document may still be a hit, and the documents it took out of the count. */
export interface MergeDistinct {
  readonly accept: (docid: number) => boolean;
  readonly excluded: (everyRanked: boolean) => DocSet;
}

export interface HybridMerge {
  /** the first `need` merged hits (the page is what follows `offset`); a semantic one has a vector detail */
  readonly hits: SearchHit[];
  readonly candidates: DocSet;
}

/**
 * The first `need` hits of the two lists merged (vectors.md §7.1 steps 5–7). Each hit keeps its
 * own list's score and details.
 */
export function mergeHybrid(semantic: SearchOutcome, keyword: SearchOutcome, semanticRatio: number, need: number, distinct: MergeDistinct | null): HybridMerge {
  const weights = hybridWeights(semanticRatio);
  const semanticSequences = semantic.hits.map((hit) => weightedScoreValues(hit.details, weights.semantic));
  const keywordSequences = keyword.hits.map((hit) => weightedScoreValues(hit.details, weights.keyword));
  const hits: SearchHit[] = [];
  const seen = new Set<number>();
  let i = 0;
  let j = 0;
  while (hits.length < need && (i < semantic.hits.length || j < keyword.hits.length)) {
    const takeSemantic = j >= keyword.hits.length || (i < semantic.hits.length && compareHybrid(semanticSequences[i]!, keywordSequences[j]!) >= 0);
    const hit = takeSemantic ? semantic.hits[i++]! : keyword.hits[j++]!;
    if (seen.has(hit.docid)) continue;
    seen.add(hit.docid);
    if (distinct !== null && !distinct.accept(hit.docid)) continue;
    hits.push(hit);
  }
  const both = union(semantic.candidates, keyword.candidates);
  const excluded = distinct?.excluded(false) ?? fromSorted([]);
  return { hits, candidates: excluded.length === 0 ? both : difference(both, excluded) };
}
