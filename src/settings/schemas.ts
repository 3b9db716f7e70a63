/**
 * The JSON schemas of every setting (settings.md §3–§8) as plain data, plus the checks deserr runs
 * on values that have the right shape (ranking rule names, integer bounds, typo sizes). The HTTP
 * layer compiles them with `compileBody`, which renders deserr's messages; this module only says
 * what is valid.
 *
 * Each setting's schema describes its value with `null` allowed (reset). Check locations are
 * relative to the setting's value (`[]`, `.minWordSizeForTypos`): the global `PATCH /settings`
 * body prefixes them with `.<key>`, a sub-route uses them as they are.
 */
import type { ErrorCode } from '../errors/codes.js';
import { SETTINGS, SETTING_KEYS, type SettingKey } from './catalogue.js';
import { LOCALES } from './locales.js';
import {
  distributionProblem,
  nonZeroProblem,
  rankingRuleProblem,
  rankingScoreThresholdProblem,
  semanticRatioProblem,
  typoSizesProblem,
  u8Problem,
} from './messages.js';

export type Schema = Record<string, unknown>;
/** Same contract as validation/'s FieldValidator: the reason a value is invalid, or undefined. */
export type ValueCheck = (value: unknown) => string | undefined;

export interface SettingSchema {
  schema: Schema;
  /** checks by location relative to the setting's value */
  checks: Readonly<Record<string, ValueCheck>>;
}

const STRING: Schema = { type: 'string' };
const STRINGS: Schema = { type: 'array', items: STRING };
const BOOLEAN: Schema = { type: 'boolean' };
const UNSIGNED: Schema = { type: 'integer', minimum: 0 };
const NUMBER: Schema = { type: 'number' };
const ANY: Schema = {};

/** The schema with `null` accepted too (an `Option`/`Setting` in Meilisearch). */
function orNull(schema: Schema): Schema {
  return { ...schema, type: [schema.type, 'null'] };
}

/**
 * An enum that also accepts `null`: `null` in the enum list would show up in "expected one of",
 * so null is let through before the enum is checked.
 */
export function enumOrNull(values: readonly string[]): Schema {
  return { if: { type: 'null' }, else: { enum: values } };
}

function object(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}

const FILTERABLE_RULE = object(
  {
    attributePatterns: STRINGS,
    features: object({ facetSearch: BOOLEAN, filter: object({ equality: BOOLEAN, comparison: BOOLEAN }) }),
  },
  ['attributePatterns'],
);

/** A legacy string, or (when an object is given) a granular rule: deserr looks at the kind first. */
const FILTERABLE_ENTRY: Schema = { if: { type: 'object' }, then: FILTERABLE_RULE, else: STRING };

export const EMBEDDER_SOURCES = ['openAi', 'huggingFace', 'ollama', 'userProvided', 'rest', 'composite'] as const;

/** Fields of a composite's sub-embedders, in Meilisearch's order. */
function subEmbedderProperties(): Record<string, Schema> {
  return {
    source: enumOrNull(EMBEDDER_SOURCES),
    model: orNull(STRING),
    revision: orNull(STRING),
    pooling: enumOrNull(['useModel', 'forceMean', 'forceCls']),
    apiKey: orNull(STRING),
    dimensions: orNull(UNSIGNED),
    documentTemplate: orNull(STRING),
    documentTemplateMaxBytes: orNull(UNSIGNED),
    url: orNull(STRING),
    indexingFragments: orNull({ type: 'object', additionalProperties: orNull(object({ value: ANY }, ['value'])) }),
    searchFragments: orNull({ type: 'object', additionalProperties: orNull(object({ value: ANY }, ['value'])) }),
    request: ANY,
    response: ANY,
    headers: orNull({ type: 'object', additionalProperties: STRING }),
  };
}

/** Every embedder field, in the key order of GET and of `Unknown field` messages (vectors.md §3.4). */
export const EMBEDDER_FIELDS = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'binaryQuantized', 'documentTemplate',
  'documentTemplateMaxBytes', 'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers',
  'searchEmbedder', 'indexingEmbedder', 'distribution',
] as const;

const DISTRIBUTION = orNull(object({ mean: NUMBER, sigma: NUMBER }, ['mean', 'sigma']));

function embedderSchema(): Schema {
  // v1.50's `SubEmbeddingSettings` also reads the fields no sub-embedder may have, so that its
  // checks name them (`Field \`distribution\` unavailable … for the search embedder`)
  const sub = orNull({
    type: 'object',
    properties: { ...subEmbedderProperties(), distribution: DISTRIBUTION, binaryQuantized: orNull(BOOLEAN), searchEmbedder: ANY, indexingEmbedder: ANY },
    additionalProperties: false,
  });
  const { source, model, revision, pooling, apiKey, dimensions, documentTemplate, documentTemplateMaxBytes, url, ...rest } =
    subEmbedderProperties();
  return orNull(
    object({
      source, model, revision, pooling, apiKey, dimensions,
      binaryQuantized: orNull(BOOLEAN),
      documentTemplate, documentTemplateMaxBytes, url,
      ...rest,
      searchEmbedder: sub,
      indexingEmbedder: sub,
      distribution: DISTRIBUTION,
    }),
  );
}

const CHAT_SEARCH_PARAMETERS = object({
  hybrid: orNull(object({ semanticRatio: NUMBER, embedder: STRING }, ['embedder'])),
  limit: orNull(UNSIGNED),
  sort: orNull(STRINGS),
  distinct: orNull(STRING),
  matchingStrategy: enumOrNull(['last', 'all', 'frequency']),
  attributesToSearchOn: orNull(STRINGS),
  rankingScoreThreshold: orNull(NUMBER),
});

const SCHEMAS: Readonly<Record<SettingKey, SettingSchema>> = {
  displayedAttributes: { schema: orNull(STRINGS), checks: {} },
  searchableAttributes: { schema: orNull(STRINGS), checks: {} },
  filterableAttributes: { schema: orNull({ type: 'array', items: FILTERABLE_ENTRY }), checks: {} },
  sortableAttributes: { schema: orNull(STRINGS), checks: {} },
  foreignKeys: {
    schema: orNull({ type: 'array', items: object({ foreignIndexUid: STRING, fieldName: STRING }, ['foreignIndexUid', 'fieldName']) }),
    checks: {},
  },
  rankingRules: {
    schema: orNull(STRINGS),
    checks: { '[]': (rule) => rankingRuleProblem(rule as string) },
  },
  stopWords: { schema: orNull(STRINGS), checks: {} },
  nonSeparatorTokens: { schema: orNull(STRINGS), checks: {} },
  separatorTokens: { schema: orNull(STRINGS), checks: {} },
  dictionary: { schema: orNull(STRINGS), checks: {} },
  synonyms: { schema: orNull({ type: 'object', additionalProperties: STRINGS }), checks: {} },
  distinctAttribute: { schema: orNull(STRING), checks: {} },
  proximityPrecision: { schema: enumOrNull(['byWord', 'byAttribute']), checks: {} },
  typoTolerance: {
    schema: orNull(
      object({
        enabled: orNull(BOOLEAN),
        minWordSizeForTypos: orNull(object({ oneTypo: orNull(UNSIGNED), twoTypos: orNull(UNSIGNED) })),
        disableOnWords: orNull(STRINGS),
        disableOnAttributes: orNull(STRINGS),
        disableOnNumbers: orNull(BOOLEAN),
      }),
    ),
    checks: {
      '.minWordSizeForTypos.oneTypo': u8Problem,
      '.minWordSizeForTypos.twoTypos': u8Problem,
      '.minWordSizeForTypos': (sizes) => {
        const { oneTypo, twoTypos } = (sizes ?? {}) as { oneTypo?: unknown; twoTypos?: unknown };
        // Only a request giving both sizes can be judged here; the task checks against stored values.
        return typeof oneTypo === 'number' && typeof twoTypos === 'number' ? typoSizesProblem(oneTypo, twoTypos) : undefined;
      },
    },
  },
  faceting: {
    schema: orNull(
      object({
        maxValuesPerFacet: orNull(UNSIGNED),
        sortFacetValuesBy: orNull({ type: 'object', additionalProperties: { enum: ['alpha', 'count'] } }),
      }),
    ),
    checks: {},
  },
  pagination: {
    schema: orNull(object({ maxTotalHits: orNull(UNSIGNED) })),
    checks: { '.maxTotalHits': nonZeroProblem },
  },
  embedders: {
    schema: orNull({ type: 'object', additionalProperties: embedderSchema() }),
    checks: { '.*.distribution': distributionProblem, '.*.searchEmbedder.distribution': distributionProblem, '.*.indexingEmbedder.distribution': distributionProblem },
  },
  searchCutoffMs: { schema: orNull(UNSIGNED), checks: {} },
  localizedAttributes: {
    schema: orNull({
      type: 'array',
      items: object({ attributePatterns: STRINGS, locales: { type: 'array', items: { enum: LOCALES } } }, ['attributePatterns', 'locales']),
    }),
    checks: {},
  },
  facetSearch: { schema: orNull(BOOLEAN), checks: {} },
  prefixSearch: { schema: enumOrNull(['indexingTime', 'disabled']), checks: {} },
  chat: {
    schema: orNull(
      object({
        description: orNull(STRING),
        documentTemplate: orNull(STRING),
        documentTemplateMaxBytes: orNull(UNSIGNED),
        searchParameters: orNull(CHAT_SEARCH_PARAMETERS),
      }),
    ),
    checks: { '.searchParameters.hybrid.semanticRatio': semanticRatioProblem, '.searchParameters.rankingScoreThreshold': rankingScoreThresholdProblem },
  },
};

/** The body of `PUT|PATCH /settings/<route>`: the setting's value, `null` resetting it. */
export function settingSchema(key: SettingKey): SettingSchema {
  return SCHEMAS[key];
}

export interface SettingsBodySchema {
  schema: Schema;
  codes: Readonly<Record<string, ErrorCode>>;
  checks: Readonly<Record<string, ValueCheck>>;
}

/** The body of `PATCH /settings`: any subset of the settings, each with its own error code. */
export function settingsBodySchema(): SettingsBodySchema {
  const properties: Record<string, Schema> = {};
  const codes: Record<string, ErrorCode> = {};
  const checks: Record<string, ValueCheck> = {};
  for (const key of SETTING_KEYS) {
    properties[key] = SCHEMAS[key].schema;
    codes[`.${key}`] = SETTINGS[key].code;
    for (const [location, check] of Object.entries(SCHEMAS[key].checks)) checks[`.${key}${location}`] = check;
  }
  return { schema: { type: 'object', properties, additionalProperties: false }, codes, checks };
}
