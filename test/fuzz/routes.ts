/**
 * What the fuzzer aims at: every route of the route → action table (auth/route-actions.ts, so a
 * new route is fuzzed without editing this file), with the query parameters and body fields each
 * one reads, so generated requests put wrong values in the fields the server actually parses.
 */
import { ROUTE_ACTIONS, type KnownRoute } from '../../src/auth/route-actions.js';
import { SETTINGS } from '../../src/settings/catalogue.js';
import { SETTING_KEYS } from '../../src/types/settings.js';

/** The shape of a route's body: none, an object of named fields, or a list of such objects (or of scalars). */
export type BodyShape = { kind: 'none' } | { kind: 'object'; fields: readonly string[] } | { kind: 'list'; fields: readonly string[] };

export interface FuzzRoute {
  key: KnownRoute;
  method: string;
  /** The path template, with `:param` segments. */
  template: string;
  query: readonly string[];
  body: BodyShape;
  /** Routes that change data aim at the scratch index rather than the movies fixture. */
  mutates: boolean;
}

const SEARCH = [
  'q', 'vector', 'offset', 'limit', 'page', 'hitsPerPage', 'attributesToRetrieve', 'retrieveVectors', 'attributesToCrop',
  'cropLength', 'attributesToHighlight', 'showMatchesPosition', 'showRankingScore', 'showRankingScoreDetails',
  'showPerformanceDetails', 'filter', 'sort', 'distinct', 'facets', 'highlightPreTag', 'highlightPostTag', 'cropMarker',
  'matchingStrategy', 'attributesToSearchOn', 'hybrid', 'rankingScoreThreshold', 'locales', 'media', 'personalize', 'useNetwork',
];
const TASK_FILTERS = [
  'uids', 'batchUids', 'statuses', 'types', 'indexUids', 'canceledBy', 'beforeEnqueuedAt', 'afterEnqueuedAt',
  'beforeStartedAt', 'afterStartedAt', 'beforeFinishedAt', 'afterFinishedAt',
];
const TASK_LIST = [...TASK_FILTERS, 'limit', 'from', 'reverse'];
const PAGE = ['offset', 'limit'];
const DOCUMENTS_READ = ['offset', 'limit', 'fields', 'filter', 'retrieveVectors', 'ids', 'sort', 'useNetwork'];
const DOCUMENTS_ADD = ['primaryKey', 'csvDelimiter', 'customMetadata', 'skipCreation'];
const FEATURES = [
  'metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'network', 'getTaskDocumentsRoute',
  'compositeEmbedders', 'chatCompletions', 'multimodal', 'vectorStoreSetting',
];
const KEY_FIELDS = ['name', 'description', 'uid', 'actions', 'indexes', 'expiresAt'];

const object = (...fields: string[]): BodyShape => ({ kind: 'object', fields });
const list = (...fields: string[]): BodyShape => ({ kind: 'list', fields });
const NONE: BodyShape = { kind: 'none' };

/** Query parameters and body per route; routes absent here read neither. */
const SHAPES: Partial<Record<KnownRoute, { query?: readonly string[]; body?: BodyShape }>> = {
  'GET /indexes': { query: PAGE },
  'POST /indexes': { body: object('uid', 'primaryKey') },
  'PATCH /indexes/:indexUid': { body: object('primaryKey', 'uid') },
  'GET /indexes/:indexUid/search': { query: SEARCH },
  'POST /indexes/:indexUid/search': { body: object(...SEARCH) },
  'GET /indexes/:indexUid/similar': { query: ['id', 'embedder', 'offset', 'limit', 'filter'] },
  'POST /indexes/:indexUid/similar': { body: object('id', 'embedder', 'offset', 'limit', 'filter', 'attributesToRetrieve') },
  'POST /indexes/:indexUid/facet-search': {
    body: object('facetName', 'facetQuery', 'q', 'filter', 'matchingStrategy', 'attributesToSearchOn', 'exhaustiveFacetCount'),
  },
  'POST /multi-search': { body: object('queries', 'federation') },
  'POST /indexes/:indexUid/fields': { body: object('offset', 'limit', 'filter') },
  'GET /indexes/:indexUid/documents': { query: DOCUMENTS_READ },
  'POST /indexes/:indexUid/documents/fetch': { body: object(...DOCUMENTS_READ) },
  'GET /indexes/:indexUid/documents/:documentId': { query: ['fields', 'retrieveVectors', 'useNetwork'] },
  'POST /indexes/:indexUid/documents': { query: DOCUMENTS_ADD, body: list('id', 'title', 'overview', 'genres', 'year') },
  'PUT /indexes/:indexUid/documents': { query: DOCUMENTS_ADD, body: list('id', 'title', 'overview', 'genres', 'year') },
  'DELETE /indexes/:indexUid/documents': { query: ['customMetadata'] },
  'POST /indexes/:indexUid/documents/delete-batch': { body: list() },
  'POST /indexes/:indexUid/documents/delete': { body: object('filter') },
  'POST /indexes/:indexUid/documents/edit': { body: object('function', 'filter', 'context') },
  'PATCH /indexes/:indexUid/settings': { body: object(...SETTING_KEYS) },
  'PUT /indexes/:indexUid/settings/:setting': { body: list() },
  'PATCH /indexes/:indexUid/settings/:setting': { body: object('enabled', 'minWordSizeForTypos', 'disableOnWords', 'maxValuesPerFacet', 'sortFacetValuesBy', 'maxTotalHits', 'default') },
  'POST /swap-indexes': { body: list('indexes', 'rename') },
  'GET /keys': { query: PAGE },
  'POST /keys': { body: object(...KEY_FIELDS) },
  'PATCH /keys/:key': { body: object(...KEY_FIELDS) },
  'GET /tasks': { query: TASK_LIST },
  'GET /batches': { query: TASK_LIST },
  'POST /tasks/cancel': { query: TASK_FILTERS },
  'DELETE /tasks': { query: TASK_FILTERS },
  'PATCH /experimental-features': { body: object(...FEATURES) },
  'PATCH /network': { body: object('remotes', 'shards', 'self', 'leader', 'previousShards', 'previousRemotes') },
  'POST /network/control': { body: object('action', 'remotes') },
  'POST /logs/stream': { body: object('target', 'mode', 'profileMemory') },
  'POST /logs/stderr': { body: object('target') },
  'POST /webhooks': { body: object('url', 'headers') },
  'PATCH /webhooks/:uuid': { body: object('url', 'headers') },
  'POST /export': { body: object('url', 'apiKey', 'payloadSize', 'indexes') },
  'POST /render-template': { body: object('template', 'input') },
  'POST /dynamic-search-rules': { body: object('offset', 'limit', 'filter') },
  'PATCH /dynamic-search-rules/:ruleUid': { body: object('description', 'precedence', 'active', 'conditions', 'actions') },
  'PATCH /chats/:workspace/settings': { body: object('source', 'orgId', 'projectId', 'apiVersion', 'deploymentId', 'baseUrl', 'apiKey', 'prompts') },
  'POST /chats/:workspace/chat/completions': { body: object('model', 'messages', 'stream') },
};

/** POST routes that only read. */
const READ_POSTS: ReadonlySet<KnownRoute> = new Set<KnownRoute>([
  'POST /indexes/:indexUid/search', 'POST /indexes/:indexUid/facet-search', 'POST /indexes/:indexUid/similar',
  'POST /multi-search', 'POST /indexes/:indexUid/fields', 'POST /indexes/:indexUid/documents/fetch',
]);

/** The setting sub-routes (`/settings/{setting}`), as spelled in paths. */
export const SETTING_ROUTES: readonly string[] = SETTING_KEYS.map((key) => SETTINGS[key].route);

export const FUZZ_ROUTES: readonly FuzzRoute[] = (Object.keys(ROUTE_ACTIONS) as KnownRoute[]).map((key) => {
  const [method, template] = key.split(' ') as [string, string];
  const shape = SHAPES[key] ?? {};
  return { key, method, template, query: shape.query ?? [], body: shape.body ?? NONE, mutates: method !== 'GET' && !READ_POSTS.has(key) };
});
