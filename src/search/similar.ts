/**
 * Similar documents (`/indexes/{uid}/similar`, vectors.md §9, search.md §12): the documents
 * nearest to a target document's own embeddings for one embedder, without ranking rules.
 *
 * Each stored embedding of the target is one nearest-neighbour query over the candidates (the
 * documents matching the filter and the tenant token's filter, never the target itself); the
 * answers are merged by distance, each document once at its best place, as milli's
 * `nns_by_item`. Its score is the similarity (`1 − distance`, distribution-shifted);
 * `rankingScoreThreshold` stops the list at the first hit below it, and the hit count then keeps
 * only the documents seen so far.
 *
 * Order of checks, as Meilisearch: the index, the embedder, the filters' syntax, the id, the
 * target's existence (also within the tenant token's filter), then the filter's evaluation (whose
 * errors carry no index prefix here). `showPerformanceDetails` times the filters' evaluation and
 * the formatting (performance-details.ts).
 */
import type { Caller } from '../auth/caller.js';
import { difference, fromSorted, has, intersect, type DocSet } from '../engine/docset.js';
import { externalIdOf } from '../engine/document-id.js';
import { DocumentStore } from '../engine/documents/store.js';
import { evaluateFilter } from '../engine/filter/evaluate.js';
import type { FilterAst } from '../engine/filter-parser/index.js';
import { FacetReader } from '../engine/facets/store.js';
import { searchSettings } from '../engine/index-settings.js';
import type { SearchHit } from '../engine/search/search.js';
import { markupBudget } from '../engine/search/format.js';
import { documentEmbeddings, searchVectors, vectorFilter } from '../engine/vectors/index.js';
import { orderedDistance } from '../engine/vectors/search.js';
import { ApiError, inIndex } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { stringifyJson } from '../types/json-text.js';
import type { SearchContext } from './context.js';
import { checkedFilter, fuseFilters } from './filter.js';
import { resolveForeignFilters } from './foreign.js';
import { hitViewer } from './hits.js';
import { NO_STEPS, requestTimer, type StepTimer } from './performance-details.js';
import { checkEmbedder } from './vector-query.js';
import { withAnswerFloats } from './answer-floats.js';

/** A similar-documents request after validation, POST and GET alike. */
export interface SimilarQuery {
  id: unknown;
  embedder: string;
  offset?: number;
  limit?: number;
  filter?: unknown;
  attributesToRetrieve?: string[] | null;
  retrieveVectors?: boolean;
  showRankingScore?: boolean;
  showRankingScoreDetails?: boolean;
  showPerformanceDetails?: boolean;
  rankingScoreThreshold?: number | null;
}

/** The neighbour lists of each target embedding merged by distance, each document once. */
export function mergeByDistance(lists: readonly (readonly { docid: number; distance: number; score: number }[])[]): { docid: number; distance: number; score: number }[] {
  const best = new Map<number, { docid: number; distance: number; score: number }>();
  for (const list of lists) {
    for (const neighbour of list) {
      const known = best.get(neighbour.docid);
      if (known === undefined || orderedDistance(neighbour.distance) < orderedDistance(known.distance)) best.set(neighbour.docid, neighbour);
    }
  }
  return [...best.values()].sort((a, b) => orderedDistance(a.distance) - orderedDistance(b.distance) || a.docid - b.docid);
}

export function similarDocuments(ctx: SearchContext, caller: Caller, uid: string, query: SimilarQuery): Record<string, unknown> {
  const started = performance.now();
  const timer = query.showPerformanceDetails === true ? requestTimer() : undefined;
  const steps: StepTimer = timer ?? NO_STEPS;
  const env = ctx.indexReader.open(uid);
  const settings = searchSettings(env);
  checkEmbedder(env, settings, query.embedder, null, 'invalid_similar_embedder');
  // v1.50 parses the tenant token's filter alone (the target must match it; its errors name the
  // index but for an array's string element), then the query's fused with it (the candidates)
  const rule = caller.searchFilter(uid);
  let tenantSent: FilterAst | null;
  try {
    tenantSent = checkedFilter(ctx.features, rule, 'invalid_similar_filter', { foreign: true });
  } catch (err) {
    const element = Array.isArray(rule) && err instanceof ApiError && err.code === 'invalid_similar_filter' && !err.message.startsWith('Invalid syntax for the filter parameter');
    throw err instanceof ApiError && !element ? inIndex(uid, err) : err;
  }
  const sent = [tenantSent, checkedFilter(ctx.features, fuseFilters(query.filter, rule), 'invalid_similar_filter', { foreign: true })];
  const [tenantAst, filterAst] = sent.map((ast) => (ast === null ? null : resolveForeignFilters(ctx, uid, settings, [ast])[0]!));
  const id = externalIdOf(query.id);
  if (id === null) {
    throw new ApiError(
      'invalid_similar_id',
      `Invalid value at \`.id\`: Document identifier \`${stringifyJson(query.id)}\` is invalid. A document identifier can be of type integer or string, only composed of alphanumeric characters (a-z A-Z 0-9), hyphens (-) and underscores (_), and can not be more than 511 bytes.`,
    );
  }
  const target = new DocumentStore(env).docidOf(id);
  const evaluate = (ast: FilterAst, code: ErrorCode) => steps.step('evaluate filter', () => evaluateFilter(env, settings, ast, { code, vectors: vectorFilter(env, settings), columns: true }));
  const notFound = () => new ApiError('not_found_similar_id', `Document \`${id}\` not found.`);
  if (target === undefined) throw notFound();
  // the token's filter is evaluated as a search's (`filtered_universe`), the candidates' as the similar search's
  if (tenantAst !== null && !has(evaluate(tenantAst, 'invalid_search_filter'), target)) throw notFound();

  let universe: DocSet = new FacetReader(env).allDocids();
  if (filterAst !== null) universe = intersect(universe, evaluate(filterAst, 'invalid_similar_filter'));
  let candidates = difference(universe, fromSorted([target]));

  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  const embeddings = documentEmbeddings(env, settings, query.embedder, target)?.embeddings ?? [];
  const neighbours = mergeByDistance(embeddings.map((vector) => searchVectors(env, settings, query.embedder, vector, offset + limit + 1, candidates)));
  const threshold = query.rankingScoreThreshold ?? null;
  const hits: SearchHit[] = [];
  const seen: number[] = [];
  // the target is no candidate: it is never among its neighbours
  for (const { docid, score } of neighbours) {
    if (hits.length >= limit) break;
    seen.push(docid);
    if (seen.length <= offset) continue;
    const similarity = Math.fround(score);
    if (threshold !== null && similarity < threshold) {
      // this hit and every later one are no longer candidates
      candidates = intersect(candidates, fromSorted(seen.slice(0, -1).sort((a, b) => a - b)));
      break;
    }
    hits.push({ docid, score: similarity, details: [{ kind: 'vector', similarity }] });
  }

  // the request's budget of retrieved vectors
  const budget = markupBudget();
  const view = hitViewer(env, settings, {
    attributesToRetrieve: query.attributesToRetrieve ?? null,
    retrieveVectors: query.retrieveVectors ?? false,
    showRankingScore: query.showRankingScore ?? false,
    showRankingScoreDetails: query.showRankingScoreDetails ?? false,
  });
  const body: Record<string, unknown> = { hits: steps.step('format', () => hits.map((hit) => view(hit, budget))), id, processingTimeMs: 0, limit, offset };
  body.estimatedTotalHits = Math.min(candidates.length, settings.pagination.maxTotalHits);
  // truncated, as v1.50's `as_millis`
  body.processingTimeMs = Math.floor(performance.now() - started);
  if (timer !== undefined) body.performanceDetails = timer.details();
  return withAnswerFloats(body);
}
