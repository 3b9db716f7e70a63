/**
 * `_rankingScoreDetails` (search.md §8.7): the engine's per-rule ranking steps in Meilisearch's
 * shape and order, sort rules on hidden attributes masked, a semantic hit's `vectorSort`.
 */
import { rustFloat } from '../engine/facets/values.js';
import { rankOf, type StepDetail } from '../engine/search/ranking.js';
import type { IndexSettings } from '../types/settings.js';

/** `_rankingScoreDetails` in Meilisearch's shape (search.md §8.7). */
export function detailsView(settings: IndexSettings, details: readonly StepDetail[]): Record<string, unknown> {
  const out: Record<string, Record<string, unknown>> = {};
  let order = 0;
  const score = (detail: StepDetail) => {
    const [r, m] = rankOf(detail)!;
    return r / m;
  };
  let fid: StepDetail | undefined;
  for (const detail of details) {
    switch (detail.kind) {
      case 'words':
        out.words = { order: order++, matchingWords: detail.matching, maxMatchingWords: detail.max, score: score(detail) };
        break;
      case 'typo':
        out.typo = { order: order++, typoCount: detail.count, maxTypoCount: detail.max, score: score(detail) };
        break;
      case 'proximity':
        out.proximity = { order: order++, score: score(detail) };
        break;
      case 'fid':
        if (detail.unified) {
          fid = detail;
          out.attribute = { order: order++, attributeRankingOrderScore: score(detail) };
        } else {
          out.attributeRank = { order: order++, score: score(detail) };
        }
        break;
      case 'position':
        if (detail.unified && fid !== undefined && out.attribute !== undefined) {
          const [fr, fm] = rankOf(fid)!;
          const [pr, pm] = rankOf(detail)!;
          out.attribute.queryWordDistanceScore = score(detail);
          out.attribute.score = ((fr - 1) * pm + pr) / (fm * pm);
        } else {
          out.wordPosition = { order: order++, score: score(detail) };
        }
        break;
      case 'exactAttribute':
        out.exactness = { order: order++, matchType: detail.match, score: score(detail) };
        break;
      case 'exactWords': {
        const exactness = out.exactness;
        if (exactness !== undefined && exactness.matchType === 'noExactMatch') {
          const [r, m] = rankOf(detail)!;
          delete exactness.score;
          exactness.matchingWords = detail.matching;
          exactness.maxMatchingWords = detail.max;
          exactness.score = r / (3 * m);
        }
        break;
      }
      case 'sort': {
        const { criterion } = detail;
        if (criterion.kind === 'geo') {
          const [lat, lng] = criterion.point;
          const point = detail.point ?? null;
          out[`_geoPoint(${rustFloat(lat)}, ${rustFloat(lng)}):${criterion.descending ? 'desc' : 'asc'}`] = {
            order: order++,
            value: point === null ? null : { lat: point[0], lng: point[1] },
            distance: detail.value,
          };
        } else if (settings.displayedAttributes.includes('*') || settings.displayedAttributes.includes(criterion.field)) {
          // milli's `must_redact`: the field itself displayed, a displayed parent not enough
          out[`${criterion.field}:${criterion.descending ? 'desc' : 'asc'}`] = { order: order++, value: detail.value };
        } else {
          out[`<hidden-rule-${order}>`] = { order: order++, value: '<hidden>' };
        }
        break;
      }
      case 'vector':
        out.vectorSort = { order: order++, similarity: detail.similarity };
        break;
      case 'skipped':
        out.skipped = { order: order++ };
        break;
      case 'pin':
        out.pin = { order: order++, position: detail.position };
        break;
    }
  }
  return out;
}
