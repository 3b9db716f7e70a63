/**
 * Weighted score values: how federated search compares hits of different queries, indexes and
 * instances (search.md §10.2, network.md §7.3). A hit's ranking details become a sequence where
 * consecutive relevancy rules collapse into one weighted score, a semantic similarity is a
 * weighted `vectorSort`, and sort rules keep their values (milli's `weighted_score_values`). The
 * sequences are exchanged between instances in `_federation.weightedScoreValues`, in this JSON
 * shape, and compared the way milli's `WeightedScoreValue` compares them: scores within f64
 * epsilon tie; values that do not line up make the side with more groups left win, and when both
 * have as many, the global weighted score decides. Geo distances compare as milli compares them:
 * the greater distance ranks better, `asc` or not.
 */
import { scoreOf, type StepDetail } from '../engine/search/ranking.js';
import { isJsonObject } from '../types/json-text.js';

export type ScoreValue =
  | { readonly weightedScore: number }
  | { readonly vectorSort: number }
  | { readonly sort: { readonly asc: boolean; readonly value: number | string | null } }
  | { readonly geoSort: { readonly asc: boolean; readonly distance: number | null } };

/** The weighted score values of a hit ranked with `details`, its query weighing `weight`. */
export function weightedScoreValues(details: readonly StepDetail[], weight: number): ScoreValue[] {
  const out: ScoreValue[] = [];
  let group: StepDetail[] = [];
  const flush = () => {
    if (group.length > 0) out.push({ weightedScore: scoreOf(group) * weight });
    group = [];
  };
  for (const detail of details) {
    if (detail.kind === 'sort') {
      flush();
      const asc = !detail.criterion.descending;
      if (detail.criterion.kind === 'geo') out.push({ geoSort: { asc, distance: typeof detail.value === 'number' ? detail.value : null } });
      else out.push({ sort: { asc, value: detail.value } });
    } else if (detail.kind === 'vector') {
      flush();
      out.push({ vectorSort: (detail.similarity ?? 0) * weight });
    } else if (detail.kind !== 'skipped') {
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

/** Whether a sequence holds a semantic similarity (the hit counts in `semanticHitCount`). */
export function isSemantic(values: readonly ScoreValue[]): boolean {
  return values.some((value) => 'vectorSort' in value);
}

const scoreOfValue = (value: ScoreValue): number | null => ('weightedScore' in value ? value.weightedScore : 'vectorSort' in value ? value.vectorSort : null);

/** Positive when `a` ranks better, negative when worse, 0 when equal; null when the two do not line up. */
function compareValue(a: ScoreValue, b: ScoreValue): number | null {
  const [x, y] = [scoreOfValue(a), scoreOfValue(b)];
  if (x !== null && y !== null) return Math.abs(x - y) <= Number.EPSILON ? 0 : x - y;
  if ('sort' in a && 'sort' in b) {
    if (a.sort.asc !== b.sort.asc) return null;
    return -compareSortValues(a.sort.value, b.sort.value, !a.sort.asc);
  }
  if ('geoSort' in a && 'geoSort' in b) {
    if (a.geoSort.asc !== b.geoSort.asc) return null;
    // as milli's `WeightedScoreValue::GeoSort`: the greater distance ranks better whatever `asc`,
    // and a hit without a point worse than one with (so a merge of `:asc` lists takes the
    // farthest head first, as v1.50's federated search and network document fetch do)
    const [l, r] = [a.geoSort.distance, b.geoSort.distance];
    if (l === null || r === null) return l === r ? 0 : l === null ? -1 : 1;
    return Math.abs(l - r) <= Number.EPSILON ? 0 : l - r;
  }
  return null;
}

/**
 * Positive when the hit with values `a` (global weighted score `aGlobal`) ranks before the one
 * with `b`, negative when after, 0 when they tie (milli's `weighted_scores::compare`).
 */
export function compareScoreValues(a: readonly ScoreValue[], aGlobal: number, b: readonly ScoreValue[], bGlobal: number): number {
  for (let i = 0; ; i++) {
    const [x, y] = [a[i], b[i]];
    if (x === undefined) return y === undefined ? 0 : -1;
    if (y === undefined) return 1;
    const order = compareValue(x, y);
    if (order === 0) continue;
    if (order !== null) return order;
    // not comparable: the side with more groups of rules left wins, else the global score decides
    const left = a.length - i - 1;
    const right = b.length - i - 1;
    if (left !== right) return left - right;
    return aGlobal - bGlobal;
  }
}

/** The values of a remote hit's `_federation.weightedScoreValues`, or null when they are not well-formed. */
export function parseScoreValues(json: unknown): ScoreValue[] | null {
  if (!Array.isArray(json)) return null;
  const out: ScoreValue[] = [];
  const sortValue = (value: unknown): value is number | string | null => value === null || typeof value === 'number' || typeof value === 'string';
  for (const item of json) {
    if (!isJsonObject(item) || Object.keys(item).length !== 1) return null;
    if (typeof item.weightedScore === 'number') out.push({ weightedScore: item.weightedScore });
    else if (typeof item.vectorSort === 'number') out.push({ vectorSort: item.vectorSort });
    else if (isJsonObject(item.sort) && typeof item.sort.asc === 'boolean' && sortValue(item.sort.value)) out.push({ sort: { asc: item.sort.asc, value: item.sort.value } });
    else if (isJsonObject(item.geoSort) && typeof item.geoSort.asc === 'boolean' && (item.geoSort.distance === null || typeof item.geoSort.distance === 'number')) {
      out.push({ geoSort: { asc: item.geoSort.asc, distance: item.geoSort.distance } });
    } else return null;
  }
  return out;
}
