/**
 * `_formatted` and `_matchesPosition` (search.md §8.2–§8.6): highlighting, cropping and match
 * positions of one page of hits, computed by engine/search/format.ts with one tokenizer call.
 */
import { projectDocument } from '../engine/documents/project.js';
import { DocumentStore } from '../engine/documents/store.js';
import { formatHits, type MarkupBudget } from '../engine/search/format.js';
import type { SearchHit } from '../engine/search/search.js';
import type { IndexSearch } from './hits.js';
import { storedLocales, type SearchQuery } from './query.js';

/**
 * `views` (one per hit of a page) with `_formatted` and `_matchesPosition` added when asked,
 * placed after the document fields and before the ranking fields. `markup`: what the request's
 * tags and crop markers may still take (format.ts).
 */
export function withFormatting(search: IndexSearch, query: SearchQuery, hits: readonly SearchHit[], views: Record<string, unknown>[], markup: MarkupBudget): Record<string, unknown>[] {
  const highlight = query.attributesToHighlight ?? null;
  const crop = query.attributesToCrop ?? null;
  if ((highlight === null || highlight.length === 0) && (crop === null || crop.length === 0) && query.showMatchesPosition !== true) return views;
  const store = new DocumentStore(search.env);
  const formatted = formatHits(
    hits.map((hit) => projectDocument(store.byDocid(hit.docid) ?? {}, null)),
    search.outcome.matchingWords,
    {
      fields: store.fieldIds(),
      displayed: search.settings.displayedAttributes,
      retrieve: query.attributesToRetrieve ?? null,
      attributesToHighlight: highlight,
      attributesToCrop: crop,
      cropLength: query.cropLength ?? 10,
      cropMarker: query.cropMarker ?? '…',
      highlightPreTag: query.highlightPreTag ?? '<em>',
      highlightPostTag: query.highlightPostTag ?? '</em>',
      showMatchesPosition: query.showMatchesPosition === true,
      tokenizer: search.settings,
      locales: storedLocales(query.locales),
      localizedAttributes: search.settings.localizedAttributes,
      markup,
    },
  );
  return views.map((view, i) => {
    const { _rankingScore, _rankingScoreDetails, ...fields } = view;
    const out: Record<string, unknown> = fields;
    const { formatted: f, matchesPosition } = formatted[i]!;
    if (f !== undefined) out._formatted = f;
    if (matchesPosition !== undefined) out._matchesPosition = matchesPosition;
    if (_rankingScore !== undefined) out._rankingScore = _rankingScore;
    if (_rankingScoreDetails !== undefined) out._rankingScoreDetails = _rankingScoreDetails;
    return out;
  });
}
