/**
 * The experimental feature flags' names (misc-routes.md §4), in Meilisearch's response order.
 * Their state lives in features/experimental-features.ts.
 */

/** Flag names in Meilisearch's response order. */
export const FEATURE_NAMES = [
  'metrics', 'logsRoute', 'editDocumentsByFunction', 'containsFilter', 'dynamicSearchRules', 'network',
  'getTaskDocumentsRoute', 'taskQueueCompactionRoute', 'compositeEmbedders', 'chatCompletions', 'multimodal',
  'foreignKeys', 'disableDocumentsFetchQueue', 'legacySearch', 'renderRoute',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];
