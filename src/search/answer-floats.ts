/**
 * The members of a search answer v1.50 writes as floats (serde's f64, types/wire-floats.ts): a
 * hit's `_rankingScore`, its `_federation.weightedRankingScore`, each ranking rule's scores in
 * `_rankingScoreDetails` (a sort's number value, a `_geoPoint` sort's distance and point too,
 * `vectorSort`'s similarity), each `facetStats` minimum and maximum, and the query vectors echoed back (`queryVector`,
 * `queryVectors`; hits' `_vectors` are marked where they are made), in a search, a multi-search's results,
 * a federated answer (`facetsByIndex` too) and a similar-documents answer. Marked on the finished
 * answer, whose objects are the request's own.
 */
import { isJsonObject } from '../types/json-text.js';
import { withFloatItems, withFloatMembers } from '../types/wire-floats.js';

/** members of a rule's details v1.50 holds as f64: a sort rule's number `value` among them (milli's sort.rs reads its facet as one) */
const DETAIL_FLOATS = ['score', 'attributeRankingOrderScore', 'queryWordDistanceScore', 'distance', 'similarity', 'value'];

function markStats(stats: unknown): void {
  if (!isJsonObject(stats)) return;
  for (const range of Object.values(stats)) if (isJsonObject(range)) withFloatMembers(range, ['min', 'max']);
}

function markHit(hit: unknown): void {
  if (!isJsonObject(hit)) return;
  if (typeof hit._rankingScore === 'number') withFloatMembers(hit, ['_rankingScore']);
  if (isJsonObject(hit._federation)) withFloatMembers(hit._federation, ['weightedRankingScore']);
  if (!isJsonObject(hit._rankingScoreDetails)) return;
  for (const [rule, detail] of Object.entries(hit._rankingScoreDetails)) {
    if (!isJsonObject(detail)) continue;
    withFloatMembers(detail, DETAIL_FLOATS);
    if (rule.startsWith('_geoPoint(') && isJsonObject(detail.value)) withFloatMembers(detail.value, ['lat', 'lng']);
  }
}

/** `answer`, its float members marked. */
export function withAnswerFloats<T>(answer: T): T {
  if (!isJsonObject(answer)) return answer;
  if (Array.isArray(answer.results)) for (const result of answer.results) withAnswerFloats(result);
  if (Array.isArray(answer.hits)) for (const hit of answer.hits) markHit(hit);
  markStats(answer.facetStats);
  if (Array.isArray(answer.queryVector)) withFloatItems(answer.queryVector as number[]);
  if (isJsonObject(answer.queryVectors)) for (const vector of Object.values(answer.queryVectors)) if (Array.isArray(vector)) withFloatItems(vector as number[]);
  if (isJsonObject(answer.facetsByIndex)) for (const facets of Object.values(answer.facetsByIndex)) if (isJsonObject(facets)) markStats(facets.stats);
  return answer;
}
