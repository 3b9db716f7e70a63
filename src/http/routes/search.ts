/**
 * `POST` and `GET /indexes/{indexUid}/search` (search.md §1–§8): validation with Meilisearch's
 * per-parameter codes and messages, then one keyword search on the index's current snapshot
 * (engine/search/search.ts) and the response in v1.50's key order.
 *
 * Order of checks, as Meilisearch: the body or query string (deserr), the search kind (`media`,
 * `vector`, `hybrid`), the index, then what needs the index (embedder, filter syntax and
 * experimental gates, sort syntax and sortability, attributesToSearchOn, filter attributes);
 * errors raised inside the index carry the ``Index `uid`: `` prefix, and filter evaluation errors
 * point into the filter's canonical text (filter.md §4), which is what gets evaluated.
 * Highlighting, cropping and match positions are computed per page by engine/search/format.ts.
 * The index's `searchCutoffMs` budget counts from the start of each index search, but for the
 * time spent in the dictionary segmenters (engine/search/time-budget.ts); `/search` counts the
 * searches it cut short for /metrics.
 * `locales` (else the searched fields' `localizedAttributes` locales) restrict the language
 * detection of the query, and of each highlighted field's text (else its own rule's locales).
 * `Meili-Include-Metadata: true` adds `metadata` to the result (multi-search: to each result).
 * Parameters that are validated and accepted but not applied yet: semantic search
 * (`hybrid`, `vector`, `media`), `personalize`, `useNetwork`, `showPerformanceDetails`.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { projectDocument } from '../../engine/documents/project.js';
import { vectorsView } from '../../engine/documents/vectors.js';
import { DocumentStore } from '../../engine/documents/store.js';
import type { DocSet } from '../../engine/docset.js';
import { evaluateFilter } from '../../engine/filter/evaluate.js';
import { filterablePatterns, isFilterable } from '../../engine/filter/filterable.js';
import { matchingRule } from '../../types/attribute-patterns.js';
import { assertFilterFeatures, rejectForeignFilter } from '../../engine/filter/gates.js';
import { canonicalFilter, parseFilter, type FilterAst } from '../../engine/filter-parser/index.js';
import { checkFacets, computeFacets } from '../../engine/facets/distribution.js';
import { geoDistanceOf, geoDistanceOrigin } from '../../engine/facets/geo.js';
import { assertSortable, parseSortCriterion, type SortCriterion } from '../../engine/facets/sort.js';
import { rustFloat } from '../../engine/facets/values.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { searchSettings } from '../../engine/index-settings.js';
import { rankOf, type MatchingStrategy, type StepDetail } from '../../engine/search/ranking.js';
import { formatHits } from '../../engine/search/format.js';
import { searchClock } from '../../engine/search/time-budget.js';
import { executeSearch, searchablePaths, searchesOn, type SearchHit, type SearchOutcome } from '../../engine/search/search.js';
import { LOCALES, storedLocale } from '../../settings/locales.js';
import { validateIndexUid } from '../validation/index-uid.js';
import { uuidV7 } from '../../types/uuid-v7.js';
import { DEFAULT_SEARCH_CUTOFF_MS, displayedList, type IndexSettings } from '../../types/settings.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';
import type { Caller } from '../../auth/caller.js';
import {
  compileBody,
  compileQuery,
  parseBoolean,
  parseEnum,
  parsePositiveInteger,
  parseString,
  QueryValueError,
  type FieldCodes,
  type FieldValidator,
  type ValueParser,
} from '../validation/index.js';
import { indexNotFound } from './indexes.js';
import { countDegradedSearch } from './metrics.js';

/** A search request after validation, POST and GET alike. */
export interface SearchQuery {
  q?: string | null;
  offset?: number;
  limit?: number;
  page?: number | null;
  hitsPerPage?: number | null;
  attributesToRetrieve?: string[] | null;
  attributesToCrop?: string[] | null;
  cropLength?: number;
  cropMarker?: string;
  attributesToHighlight?: string[] | null;
  highlightPreTag?: string;
  highlightPostTag?: string;
  showMatchesPosition?: boolean;
  filter?: unknown;
  sort?: string[] | null;
  distinct?: string | null;
  facets?: string[] | null;
  matchingStrategy?: MatchingStrategy;
  attributesToSearchOn?: string[] | null;
  rankingScoreThreshold?: number | null;
  locales?: string[] | null;
  hybrid?: { embedder: string; semanticRatio?: number } | null;
  vector?: number[] | null;
  retrieveVectors?: boolean;
  media?: unknown;
  personalize?: { userContext: string } | null;
  useNetwork?: boolean | null;
  showRankingScore?: boolean;
  showRankingScoreDetails?: boolean;
  showPerformanceDetails?: boolean;
}

const STRATEGIES = ['last', 'all', 'frequency'] as const;
const THRESHOLD_REASON = 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.';
const RATIO_REASON = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';

const stringList = { type: ['array', 'null'], items: { type: 'string' } };
const count = { type: 'integer', minimum: 0 };
const optionalCount = { type: ['integer', 'null'], minimum: 0 };

/** The POST body's fields, shared with each query of `POST /multi-search`. */
export const SEARCH_QUERY_PROPERTIES = {
  q: { type: ['string', 'null'] },
  vector: { type: ['array', 'null'], items: { type: 'number' } },
  offset: count,
  limit: count,
  page: optionalCount,
  hitsPerPage: optionalCount,
  attributesToRetrieve: stringList,
  retrieveVectors: { type: 'boolean' },
  attributesToCrop: stringList,
  cropLength: count,
  attributesToHighlight: stringList,
  showMatchesPosition: { type: 'boolean' },
  showRankingScore: { type: 'boolean' },
  showRankingScoreDetails: { type: 'boolean' },
  showPerformanceDetails: { type: 'boolean' },
  filter: {},
  sort: stringList,
  distinct: { type: ['string', 'null'] },
  facets: stringList,
  highlightPreTag: { type: 'string' },
  highlightPostTag: { type: 'string' },
  cropMarker: { type: 'string' },
  matchingStrategy: { enum: [...STRATEGIES] },
  attributesToSearchOn: stringList,
  hybrid: {
    type: ['object', 'null'],
    properties: { embedder: { type: 'string' }, semanticRatio: { type: 'number' } },
    required: ['embedder'],
    additionalProperties: false,
  },
  rankingScoreThreshold: { type: ['number', 'null'] },
  locales: { type: ['array', 'null'], items: { enum: [...LOCALES] } },
  media: {},
  personalize: {
    type: ['object', 'null'],
    properties: { userContext: { type: 'string' } },
    required: ['userContext'],
    additionalProperties: false,
  },
  useNetwork: { type: ['boolean', 'null'] },
};

/** Error code per body field (relative locations, `.q`), shared with multi-search. */
export const SEARCH_QUERY_CODES = {
  '.q': 'invalid_search_q',
  '.vector': 'invalid_search_vector',
  '.offset': 'invalid_search_offset',
  '.limit': 'invalid_search_limit',
  '.page': 'invalid_search_page',
  '.hitsPerPage': 'invalid_search_hits_per_page',
  '.attributesToRetrieve': 'invalid_search_attributes_to_retrieve',
  '.retrieveVectors': 'invalid_search_retrieve_vectors',
  '.attributesToCrop': 'invalid_search_attributes_to_crop',
  '.cropLength': 'invalid_search_crop_length',
  '.attributesToHighlight': 'invalid_search_attributes_to_highlight',
  '.showMatchesPosition': 'invalid_search_show_matches_position',
  '.showRankingScore': 'invalid_search_show_ranking_score',
  '.showRankingScoreDetails': 'invalid_search_show_ranking_score_details',
  '.showPerformanceDetails': 'invalid_search_show_performance_details',
  '.filter': 'invalid_search_filter',
  '.sort': 'invalid_search_sort',
  '.distinct': 'invalid_search_distinct',
  '.facets': 'invalid_search_facets',
  '.highlightPreTag': 'invalid_search_highlight_pre_tag',
  '.highlightPostTag': 'invalid_search_highlight_post_tag',
  '.cropMarker': 'invalid_search_crop_marker',
  '.matchingStrategy': 'invalid_search_matching_strategy',
  '.attributesToSearchOn': 'invalid_search_attributes_to_search_on',
  '.hybrid': 'invalid_search_hybrid_query',
  '.hybrid.embedder': 'invalid_search_embedder',
  '.hybrid.semanticRatio': 'invalid_search_semantic_ratio',
  '.rankingScoreThreshold': 'invalid_search_ranking_score_threshold',
  '.locales': 'invalid_search_locales',
  '.media': 'invalid_search_media',
  '.personalize': 'invalid_search_personalize',
  '.personalize.userContext': 'invalid_search_personalize_user_context',
  '.useNetwork': 'invalid_search_use_network',
} as const satisfies FieldCodes;

/** Value checks per body field (relative locations), shared with multi-search. */
export const SEARCH_QUERY_VALIDATORS: Readonly<Record<string, FieldValidator>> = {
  '.rankingScoreThreshold': (value) => (value === null || ((value as number) >= 0 && (value as number) <= 1) ? undefined : THRESHOLD_REASON),
  '.hybrid.semanticRatio': (value) => ((value as number) >= 0 && (value as number) <= 1 ? undefined : RATIO_REASON),
};

const parseBody = compileBody<SearchQuery>(
  { type: 'object', properties: SEARCH_QUERY_PROPERTIES, additionalProperties: false },
  SEARCH_QUERY_CODES,
  { validators: SEARCH_QUERY_VALIDATORS },
);

/** GET lists: split on `,`, empty items dropped, no trimming. */
const parseList: ValueParser<string[]> = (raw) => raw.split(',').filter((item) => item !== '');

const parseLocales: ValueParser<string[]> = (raw) =>
  parseList(raw).map((locale) => {
    if (!LOCALES.includes(locale)) throw new QueryValueError(`Unsupported locale \`${locale}\`, expected one of ${LOCALES.join(', ')}`);
    return locale;
  });

/** The search's `locales` as the engine takes them (ISO-639-3 codes); null or empty: none. */
function storedLocales(locales: readonly string[] | null | undefined): string[] | null {
  return locales === null || locales === undefined || locales.length === 0 ? null : locales.map(storedLocale);
}

const parseThreshold: ValueParser<number> = (raw) => {
  const value = Number(raw.trim() === '' ? Number.NaN : raw);
  if (!(value >= 0 && value <= 1)) throw new QueryValueError(THRESHOLD_REASON);
  return value;
};

const parseRatio: ValueParser<number> = (raw) => {
  const value = Number(raw.trim() === '' ? Number.NaN : raw);
  if (!(value >= 0 && value <= 1)) throw new QueryValueError(RATIO_REASON);
  return value;
};

const parseVector: ValueParser<number[]> = (raw) =>
  parseList(raw).map((item) => {
    const value = Number(item);
    if (!Number.isFinite(value)) throw new QueryValueError(`could not parse \`${item}\` as a number`);
    return value;
  });

/** GET `sort`: comma-separated, re-joining the pieces of `_geoPoint(lat, lng):asc`. */
const parseSortList: ValueParser<string[]> = (raw) => {
  const criteria: string[] = [];
  let joining = false;
  for (const piece of raw.replace(/^"+|"+$/g, '').split(',').map((part) => part.trim())) {
    if (piece.startsWith('_geoPoint(')) {
      criteria.push(piece);
      joining = !(piece.endsWith('):asc') || piece.endsWith('):desc'));
    } else if (joining && criteria.length > 0) {
      criteria[criteria.length - 1] += `,${piece}`;
      if (piece.endsWith('):asc') || piece.endsWith('):desc')) joining = false;
    } else {
      criteria.push(piece);
    }
  }
  return criteria;
};

const parseQueryString = compileQuery({
  q: { parse: parseString, code: 'invalid_search_q' },
  vector: { parse: parseVector, code: 'invalid_search_vector' },
  offset: { parse: parsePositiveInteger, code: 'invalid_search_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_search_limit' },
  page: { parse: parsePositiveInteger, code: 'invalid_search_page' },
  hitsPerPage: { parse: parsePositiveInteger, code: 'invalid_search_hits_per_page' },
  attributesToRetrieve: { parse: parseList, code: 'invalid_search_attributes_to_retrieve' },
  retrieveVectors: { parse: parseBoolean, code: 'invalid_search_retrieve_vectors' },
  attributesToCrop: { parse: parseList, code: 'invalid_search_attributes_to_crop' },
  cropLength: { parse: parsePositiveInteger, code: 'invalid_search_crop_length' },
  attributesToHighlight: { parse: parseList, code: 'invalid_search_attributes_to_highlight' },
  filter: { parse: parseString, code: 'invalid_search_filter' },
  sort: { parse: parseSortList, code: 'invalid_search_sort' },
  distinct: { parse: parseString, code: 'invalid_search_distinct' },
  showMatchesPosition: { parse: parseBoolean, code: 'invalid_search_show_matches_position' },
  showRankingScore: { parse: parseBoolean, code: 'invalid_search_show_ranking_score' },
  showRankingScoreDetails: { parse: parseBoolean, code: 'invalid_search_show_ranking_score_details' },
  showPerformanceDetails: { parse: parseBoolean, code: 'invalid_search_show_performance_details' },
  facets: { parse: parseList, code: 'invalid_search_facets' },
  highlightPreTag: { parse: parseString, code: 'invalid_search_highlight_pre_tag' },
  highlightPostTag: { parse: parseString, code: 'invalid_search_highlight_post_tag' },
  cropMarker: { parse: parseString, code: 'invalid_search_crop_marker' },
  matchingStrategy: { parse: parseEnum(STRATEGIES), code: 'invalid_search_matching_strategy' },
  attributesToSearchOn: { parse: parseList, code: 'invalid_search_attributes_to_search_on' },
  hybridEmbedder: { parse: parseString, code: 'invalid_search_embedder' },
  hybridSemanticRatio: { parse: parseRatio, code: 'invalid_search_semantic_ratio' },
  rankingScoreThreshold: { parse: parseThreshold, code: 'invalid_search_ranking_score_threshold' },
  locales: { parse: parseLocales, code: 'invalid_search_locales' },
  personalizeUserContext: { parse: parseString, code: 'invalid_search_personalize_user_context' },
  useNetwork: { parse: parseBoolean, code: 'invalid_search_use_network' },
});

type GetQuery = ReturnType<typeof parseQueryString>;

/** The GET parameters as the POST body they stand for. */
function fromQueryString(query: GetQuery): SearchQuery {
  const { hybridEmbedder, hybridSemanticRatio, personalizeUserContext, filter, ...rest } = query;
  if (hybridSemanticRatio !== undefined && hybridEmbedder === undefined) {
    throw new ApiError('invalid_search_hybrid_query', '`hybridEmbedder` is mandatory when `hybridSemanticRatio` is present');
  }
  if (rest.vector !== undefined && hybridEmbedder === undefined) {
    throw new ApiError('missing_search_hybrid', '`hybridEmbedder` is mandatory when `vector` is present');
  }
  const out: SearchQuery = { ...rest };
  if (filter !== undefined) {
    try {
      out.filter = JSON.parse(filter) as unknown;
    } catch {
      out.filter = filter;
    }
  }
  if (hybridEmbedder !== undefined) out.hybrid = { embedder: hybridEmbedder, ...(hybridSemanticRatio === undefined ? {} : { semanticRatio: hybridSemanticRatio }) };
  if (personalizeUserContext !== undefined) out.personalize = { userContext: personalizeUserContext };
  return out;
}

/** Search-kind errors (search.md §6), checked before the index is opened. */
function checkSearchKind(query: SearchQuery): void {
  const media = query.media !== undefined && query.media !== null;
  const vector = query.vector !== undefined && query.vector !== null;
  const hybrid = query.hybrid !== undefined && query.hybrid !== null;
  if (media && vector) throw new ApiError('invalid_search_media_and_vector', 'Invalid request: both `media` and `vector` parameters are present.');
  if ((media || vector) && !hybrid) throw new ApiError('missing_search_hybrid', 'Invalid request: missing `hybrid` parameter when `vector` or `media` are present.');
}

export function inIndex(uid: string, err: unknown): unknown {
  return err instanceof ApiError ? new ApiError(err.code as ErrorCode, `Index \`${uid}\`: ${err.message}`) : err;
}

/**
 * `attributesToSearchOn` must name searchable attributes when the setting is a list; a pattern
 * (`details.*`, `*.title`) passes when it matches a searchable field, as in Meilisearch.
 */
function checkSearchOn(uid: string, env: IndexEnv, settings: IndexSettings, attributes: readonly string[] | null | undefined): void {
  const searchable = settings.searchableAttributes;
  if (attributes === null || attributes === undefined || searchable.includes('*')) return;
  for (const attribute of attributes) {
    if (attribute === '*' || searchable.some((entry) => attribute === entry || attribute.startsWith(`${entry}.`))) continue;
    if (attribute.includes('*') && matchesSearchable(attribute, env, settings)) continue;
    throw new ApiError(
      'invalid_search_attributes_to_search_on',
      `Index \`${uid}\`: Attribute \`${attribute}\` is not searchable. Available searchable attributes are: \`${displayedList(searchable, settings.displayedAttributes)}\`.`,
    );
  }
}

/** A listed searchable attribute, or a field of the index under one, matches the pattern. */
function matchesSearchable(pattern: string, env: IndexEnv, settings: IndexSettings): boolean {
  return [...settings.searchableAttributes, ...searchablePaths(env, settings)].some((path) => searchesOn(pattern, path));
}

function checkSort(uid: string, settings: IndexSettings, sort: readonly string[]): SortCriterion[] {
  const criteria = sort.map((text) => parseSortCriterion(text, 'invalid_search_sort'));
  if (criteria.length === 0) return criteria;
  try {
    assertSortable(criteria, settings.sortableAttributes, 'invalid_search_sort', settings.displayedAttributes);
  } catch (err) {
    throw inIndex(uid, err);
  }
  if (!settings.rankingRules.includes('sort')) {
    throw new ApiError(
      'invalid_search_sort',
      `Index \`${uid}\`: You must specify where \`sort\` is listed in the rankingRules setting to use the sort parameter at search time.`,
    );
  }
  return criteria;
}

/** The `distinct` parameter must name a filterable attribute (search.md §2). */
function checkDistinct(uid: string, settings: IndexSettings, attribute: string): string {
  const rule = matchingRule(attribute, settings.filterableAttributes);
  if (rule !== null && isFilterable(rule.features)) return attribute;
  const patterns = filterablePatterns(settings.filterableAttributes);
  let message = `Index \`${uid}\`: Attribute \`${attribute}\` is not filterable and thus, cannot be used as distinct attribute. `;
  if (rule !== null) {
    const n = rule.index;
    message +=
      `Note: this attribute matches rule #${n} in filterableAttributes, but this rule does not enable filtering.\n` +
      `Hint: enable filtering in rule #${n} by adding appropriate filter features.\n` +
      `Hint: prepend another rule matching ${attribute} with filter features before rule #${n}`;
  } else {
    message += patterns.length === 0 ? 'This index does not have configured filterable attributes.' : `Available filterable attributes patterns are: \`${displayedList(patterns, settings.displayedAttributes)}\`.`;
  }
  throw new ApiError('invalid_search_distinct', message);
}

/** Whether `attribute` (a path) is displayed. */
function isDisplayed(settings: IndexSettings, attribute: string): boolean {
  const displayed = settings.displayedAttributes;
  return displayed.includes('*') || displayed.some((d) => attribute === d || attribute.startsWith(`${d}.`));
}

/** `_rankingScoreDetails` in Meilisearch's shape (search.md §8.7). */
function detailsView(settings: IndexSettings, details: readonly StepDetail[]): Record<string, unknown> {
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
        } else if (isDisplayed(settings, criterion.field)) {
          out[`${criterion.field}:${criterion.descending ? 'desc' : 'asc'}`] = { order: order++, value: detail.value };
        } else {
          out[`<hidden-rule-${order}>`] = { order: order++, value: '<hidden>' };
        }
        break;
      }
      case 'skipped':
        out.skipped = { order: order++ };
        break;
    }
  }
  return out;
}

/** The documents fields a hit shows: displayed ∩ attributesToRetrieve. */
function hitFields(settings: IndexSettings, attributesToRetrieve: readonly string[] | null | undefined) {
  const displayed = settings.displayedAttributes.includes('*') ? null : settings.displayedAttributes;
  const retrieve = attributesToRetrieve === null || attributesToRetrieve === undefined || attributesToRetrieve.includes('*') ? null : attributesToRetrieve;
  return (doc: Record<string, unknown>) => {
    const shown = projectDocument(doc, displayed);
    return retrieve === null ? shown : projectDocument(shown, retrieve);
  };
}

/** The window of ranked hits a query asks for: offset/limit, or page/hitsPerPage (search.md §4). */
function windowOf(query: SearchQuery) {
  const pageMode = (query.page !== undefined && query.page !== null) || (query.hitsPerPage !== undefined && query.hitsPerPage !== null);
  const hitsPerPage = query.hitsPerPage ?? 20;
  const page = query.page ?? 1;
  const offset = pageMode ? Math.max(page - 1, 0) * hitsPerPage : (query.offset ?? 0);
  const limit = pageMode ? (page === 0 ? 0 : hitsPerPage) : (query.limit ?? 20);
  return { pageMode, hitsPerPage, page, offset, limit };
}

/** One index's ranked hits before display: the part single search and multi-search share. */
export interface IndexSearch {
  /** the snapshot searched: facets are read from it */
  readonly env: IndexEnv;
  readonly settings: IndexSettings;
  readonly outcome: SearchOutcome;
  /** A hit as responses show it: displayed ∩ retrieved fields, plus the ranking score and details when asked. */
  readonly view: (hit: SearchHit) => Record<string, unknown>;
}

export interface SearchIndexOptions {
  /**
   * Federated search compares the queries' ranking rules here: Meilisearch does it once the index
   * is open and before the filter, sort and distinct are checked.
   */
  readonly checkRules?: (settings: IndexSettings) => void;
  /**
   * Evaluate the filter as sent (facet search) instead of its canonical text, which `/search` and
   * `/multi-search` re-parse inside the index, so that their evaluation errors point into it.
   */
  readonly filterAsSent?: boolean;
}

/**
 * Checks `query` against index `uid` (search kind, then everything that needs the index) and
 * ranks its hits. `window.offset + window.limit` (capped by `maxTotalHits`) hits are ranked;
 * `window.exhaustive` makes counts exact, as page mode needs.
 */
export function searchIndex(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  query: SearchQuery,
  window: { offset: number; limit: number; exhaustive: boolean },
  { checkRules = () => {}, filterAsSent = false }: SearchIndexOptions = {},
): IndexSearch {
  // the `searchCutoffMs` budget counts from here, as Meilisearch's starts before the filter is evaluated
  const spent = searchClock();
  checkSearchKind(query);
  validateIndexUid(uid);
  const record = deps.indexes.get(uid);
  if (record === undefined) throw indexNotFound(uid);
  const env: IndexEnv = deps.indexEnvs.get(record.uuid);
  const settings = searchSettings(env);
  if (query.hybrid !== undefined && query.hybrid !== null && !Object.hasOwn(settings.embedders, query.hybrid.embedder)) {
    throw new ApiError('invalid_search_embedder', `Cannot find embedder with name \`${query.hybrid.embedder}\`.`);
  }
  checkRules(settings);

  const asts: FilterAst[] = [];
  for (const filter of [query.filter, caller.searchFilter(uid)]) {
    const ast = parseFilter(filter, { code: 'invalid_search_filter' });
    if (ast === null) continue;
    assertFilterFeatures(ast, (feature) => deps.features.enabled(feature));
    rejectForeignFilter(ast, 'invalid_search_filter');
    // the canonical text is parsed like a request's filter: what does not read back (a lone
    // surrogate, which Meilisearch's JSON parser refuses earlier) is a filter error, not a crash
    asts.push(filterAsSent ? ast : parseFilter(canonicalFilter(ast), { code: 'invalid_search_filter' })!);
  }
  const sort = checkSort(uid, settings, query.sort ?? []);
  checkSearchOn(uid, env, settings, query.attributesToSearchOn);
  const distinct = query.distinct === undefined || query.distinct === null ? settings.distinctAttribute : checkDistinct(uid, settings, query.distinct);
  checkFacets(settings, query.facets ?? []);
  let filters: DocSet[];
  try {
    filters = asts.map((ast) => evaluateFilter(env, settings, ast, { code: 'invalid_search_filter' }));
  } catch (err) {
    throw inIndex(uid, err);
  }

  const outcome = executeSearch(env, settings, {
    q: query.q ?? '',
    need: Math.min(window.offset + window.limit, settings.pagination.maxTotalHits),
    matchingStrategy: query.matchingStrategy ?? 'last',
    attributesToSearchOn: query.attributesToSearchOn ?? null,
    filters,
    sort,
    rankingScoreThreshold: query.rankingScoreThreshold ?? null,
    locales: storedLocales(query.locales),
    distinct,
    exhaustive: window.exhaustive,
    // `>=`: a budget of 0 ms lets no ranking step start
    timeUp: () => spent() >= (settings.searchCutoffMs ?? DEFAULT_SEARCH_CUTOFF_MS),
  });
  const store = new DocumentStore(env);
  const fields = hitFields(settings, query.attributesToRetrieve);
  const distanceFrom = geoDistanceOrigin(query.sort ?? []);
  // `_vectors` only when displayed, whatever attributesToRetrieve says (vectors.md §2.2)
  const vectors = query.retrieveVectors === true && isDisplayed(settings, '_vectors');
  const view = (hit: SearchHit) => {
    const doc = store.sharedByDocid(hit.docid) ?? {};
    const shown: Record<string, unknown> = fields(doc);
    if (vectors) shown._vectors = vectorsView(doc._vectors, settings.embedders);
    const geoDistance = distanceFrom === null ? undefined : geoDistanceOf(distanceFrom, shown);
    if (geoDistance !== undefined) shown._geoDistance = geoDistance;
    if (query.showRankingScore === true) shown._rankingScore = hit.score;
    if (query.showRankingScoreDetails === true) shown._rankingScoreDetails = detailsView(settings, hit.details);
    return shown;
  };
  return { env, settings, outcome, view };
}

/**
 * `views` (one per hit of a page) with `_formatted` and `_matchesPosition` added when asked
 * (search.md §8.2–§8.6), placed after the document fields and before the ranking fields; the
 * whole page is formatted with one tokenizer call.
 */
export function withFormatting(search: IndexSearch, query: SearchQuery, hits: readonly SearchHit[], views: Record<string, unknown>[]): Record<string, unknown>[] {
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

/**
 * Whether the request carries `Meili-Include-Metadata: true` (or `1`, in any case), which adds
 * `metadata` to each search result (search.md §5); any other value, or none, leaves it out.
 */
export function wantsMetadata(request: FastifyRequest): boolean {
  const value = request.headers['meili-include-metadata'];
  return typeof value === 'string' && ['true', '1'].includes(value.toLowerCase());
}

/** A search result's `metadata`: a fresh uid for this query, the index searched and its primary key. */
function searchMetadata(deps: AppDeps, uid: string): Record<string, unknown> {
  return { queryUid: uuidV7(), indexUid: uid, primaryKey: deps.indexes.get(uid)?.primaryKey ?? null };
}

/** A single search's response on index `uid` (search.md §5); multi-search answers one per query. */
export function runSearch(deps: AppDeps, caller: Caller, uid: string, query: SearchQuery, requestUid: string, metadata: boolean): Record<string, unknown> {
  return searchResponse(deps, caller, uid, query, requestUid, metadata).body;
}

/** `/search` counts the searches the time budget cut short (multi-search does not, as in Meilisearch). */
function countedSearch(deps: AppDeps, request: FastifyRequest, caller: Caller, uid: string, query: SearchQuery): Record<string, unknown> {
  const { body, degraded } = searchResponse(deps, caller, uid, query, uuidV7(), wantsMetadata(request));
  if (degraded) countDegradedSearch(deps);
  return body;
}

function searchResponse(
  deps: AppDeps,
  caller: Caller,
  uid: string,
  query: SearchQuery,
  requestUid: string,
  metadata: boolean,
): { body: Record<string, unknown>; degraded: boolean } {
  const started = performance.now();
  const { pageMode, hitsPerPage, page, offset, limit } = windowOf(query);
  const search = searchIndex(deps, caller, uid, query, { offset, limit, exhaustive: pageMode });
  const { env, settings, outcome, view } = search;
  const pageHits = outcome.hits.slice(offset);
  const hits = withFormatting(search, query, pageHits, pageHits.map(view));

  const body: Record<string, unknown> = { hits, query: query.q ?? '', processingTimeMs: Math.round(performance.now() - started) };
  if (pageMode) {
    body.hitsPerPage = hitsPerPage;
    body.page = page;
    body.totalPages = hitsPerPage === 0 ? 0 : Math.ceil(outcome.totalHits / hitsPerPage);
    body.totalHits = outcome.totalHits;
  } else {
    body.limit = query.limit ?? 20;
    body.offset = query.offset ?? 0;
    body.estimatedTotalHits = outcome.totalHits;
  }
  if (query.facets !== undefined && query.facets !== null && query.facets.length > 0) {
    const { distribution, stats } = computeFacets(env, settings, outcome.candidates, query.facets);
    body.facetDistribution = distribution;
    body.facetStats = stats;
  }
  body.requestUid = requestUid;
  if (metadata) body.metadata = searchMetadata(deps, uid);
  return { body, degraded: outcome.degraded };
}

export const searchRoutes = [
  defineRoute({
    route: 'POST /indexes/:indexUid/search',
    body: parseBody,
    handler: (ctx, deps) => countedSearch(deps, ctx.request, ctx.caller, ctx.params.indexUid!, ctx.body),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/search',
    query: parseQueryString,
    handler: (ctx, deps) => countedSearch(deps, ctx.request, ctx.caller, ctx.params.indexUid!, fromQueryString(ctx.query)),
  }),
];
