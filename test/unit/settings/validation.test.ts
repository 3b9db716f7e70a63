// Settings bodies through the real compiled schemas: every expected text is Meilisearch's
// (crates/meilisearch/tests/settings/errors.rs and settings.md), for the global PATCH body
// (locations prefixed by the setting) and the sub-route bodies (the value itself).
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { compileBody } from '../../../src/validation/index.js';
import { SETTINGS, SETTING_KEYS, type SettingKey } from '../../../src/settings/catalogue.js';
import { canonicalPatch } from '../../../src/settings/patch.js';
import { settingSchema, settingsBodySchema } from '../../../src/settings/schemas.js';
import { checkPatch } from '../../../src/settings/validate.js';
import { ExperimentalFeatures } from '../../../src/features/experimental-features.js';
import type { FeatureName } from '../../../src/types/features.js';
import type { InstanceStore } from '../../../src/store/env.js';

const globalBody = (() => {
  const { schema, codes, checks } = settingsBodySchema();
  return compileBody<Record<string, unknown>>(schema, codes, { validators: checks });
})();

const subRoute = (key: SettingKey) => {
  const { schema, checks } = settingSchema(key);
  return compileBody<unknown>(schema, { '': SETTINGS[key].code }, { validators: checks });
};

function errorOf(run: () => unknown): { code: string; message: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
}

const patchError = (body: Record<string, unknown>) => errorOf(() => globalBody(body));
const putError = (key: SettingKey, value: unknown) => errorOf(() => subRoute(key)(value));

/** Experimental features backed by an in-memory store, with `on` enabled. */
function features(...on: FeatureName[]): ExperimentalFeatures {
  const store = { main: { get: () => undefined, putSync: () => undefined } } as unknown as InstanceStore;
  return new ExperimentalFeatures(store, on);
}

const check = (body: Record<string, unknown>, enabled: FeatureName[] = []) =>
  errorOf(() => checkPatch(canonicalPatch(globalBody(body)), features(...enabled)));

describe('settings body types', () => {
  it('reports a wrong type with the setting path on PATCH /settings and without it on the sub-route', () => {
    expect(patchError({ displayedAttributes: 'doggo' })).toEqual({
      code: 'invalid_settings_displayed_attributes',
      message: 'Invalid value type at `.displayedAttributes`: expected an array, but found a string: `"doggo"`',
    });
    expect(putError('displayedAttributes', 'doggo')).toEqual({
      code: 'invalid_settings_displayed_attributes',
      message: 'Invalid value type: expected an array, but found a string: `"doggo"`',
    });
  });

  it('gives each setting its own error code for a type error', () => {
    const wrong: Record<SettingKey, unknown> = {
      displayedAttributes: 'doggo', searchableAttributes: 'doggo', filterableAttributes: 'doggo', sortableAttributes: 'doggo',
      foreignKeys: 'doggo', rankingRules: 'doggo', stopWords: 'doggo', nonSeparatorTokens: 'doggo', separatorTokens: 'doggo',
      dictionary: 'doggo', synonyms: 'doggo', distinctAttribute: ['doggo'], proximityPrecision: 1, typoTolerance: 'doggo',
      faceting: 'doggo', pagination: 'doggo', embedders: 'doggo', searchCutoffMs: 'doggo', localizedAttributes: 'doggo',
      facetSearch: 'doggo', prefixSearch: 1, chat: 'doggo',
    };
    for (const key of SETTING_KEYS) {
      expect(patchError({ [key]: wrong[key] }).code).toBe(SETTINGS[key].code);
      expect(putError(key, wrong[key]).code).toBe(SETTINGS[key].code);
    }
    expect(patchError({ distinctAttribute: ['doggo'] }).message).toBe(
      'Invalid value type at `.distinctAttribute`: expected a string, but found an array: `["doggo"]`',
    );
    expect(patchError({ synonyms: 'doggo' }).message).toBe('Invalid value type at `.synonyms`: expected an object, but found a string: `"doggo"`');
    expect(putError('searchCutoffMs', 'doggo').message).toBe('Invalid value type: expected a positive integer, but found a string: `"doggo"`');
    expect(putError('proximityPrecision', 1).message).toBe('Invalid value type: expected a string, but found a positive integer: `1`');
  });

  it('accepts null everywhere a setting can be reset, and an empty PATCH body', () => {
    for (const key of SETTING_KEYS) {
      expect(globalBody({ [key]: null })).toEqual({ [key]: null });
      expect(subRoute(key)(null)).toBeNull();
    }
    expect(globalBody({})).toEqual({});
  });

  it('rejects an unknown top-level key with bad_request and the full list of settings', () => {
    expect(patchError({ foo: 12 })).toEqual({
      code: 'bad_request',
      message:
        'Unknown field `foo`: expected one of `displayedAttributes`, `searchableAttributes`, `filterableAttributes`, `sortableAttributes`, ' +
        '`foreignKeys`, `rankingRules`, `stopWords`, `nonSeparatorTokens`, `separatorTokens`, `dictionary`, `synonyms`, `distinctAttribute`, ' +
        '`proximityPrecision`, `typoTolerance`, `faceting`, `pagination`, `embedders`, `searchCutoffMs`, `localizedAttributes`, `facetSearch`, ' +
        '`prefixSearch`, `chat`',
    });
  });
});

describe('typoTolerance', () => {
  it('reports nested type errors and unknown keys with the typo tolerance code', () => {
    expect(patchError({ typoTolerance: { minWordSizeForTypos: 'doggo' } })).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message: 'Invalid value type at `.typoTolerance.minWordSizeForTypos`: expected an object, but found a string: `"doggo"`',
    });
    expect(putError('typoTolerance', { typoTolerance: { minWordSizeForTypos: 'doggo' } })).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message: 'Unknown field `typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`',
    });
  });

  it('refuses oneTypo above twoTypos when both are given, with the location before the sentence', () => {
    expect(patchError({ typoTolerance: { minWordSizeForTypos: { oneTypo: 10, twoTypos: 9 } } })).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message:
        'Invalid value at `.typoTolerance.minWordSizeForTypos`: `minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields ' +
        'should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 9`.',
    });
    expect(globalBody({ typoTolerance: { minWordSizeForTypos: { oneTypo: 10 } } })).toBeDefined();
  });

  it('bounds the sizes to a byte and refuses negative ones as a type error', () => {
    expect(putError('typoTolerance', { minWordSizeForTypos: { oneTypo: 1000 } })).toEqual({
      code: 'invalid_settings_typo_tolerance',
      message: 'Invalid value at `.minWordSizeForTypos.oneTypo`: value: `1000` is too large to be deserialized, maximum value authorized is `255`',
    });
    expect(putError('typoTolerance', { minWordSizeForTypos: { twoTypos: -1 } }).message).toBe(
      'Invalid value type at `.minWordSizeForTypos.twoTypos`: expected a positive integer, but found a negative integer: `-1`',
    );
  });
});

describe('pagination and faceting', () => {
  it('reports maxTotalHits type errors and refuses zero', () => {
    expect(patchError({ pagination: { maxTotalHits: 'doggo' } }).message).toBe(
      'Invalid value type at `.pagination.maxTotalHits`: expected a positive integer, but found a string: `"doggo"`',
    );
    expect(putError('pagination', { maxTotalHits: 'doggo' }).message).toBe(
      'Invalid value type at `.maxTotalHits`: expected a positive integer, but found a string: `"doggo"`',
    );
    expect(putError('pagination', { maxTotalHits: 0 })).toEqual({
      code: 'invalid_settings_pagination',
      message: 'Invalid value at `.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero',
    });
  });

  it('names the accepted facet orders for an unknown one', () => {
    expect(patchError({ faceting: { sortFacetValuesBy: { genre: 'x' } } })).toEqual({
      code: 'invalid_settings_faceting',
      message: 'Unknown value `x` at `.faceting.sortFacetValuesBy.genre`: expected one of `alpha`, `count`',
    });
  });
});

describe('enumerations', () => {
  it('names the accepted values of proximityPrecision and prefixSearch', () => {
    expect(patchError({ proximityPrecision: 'x' })).toEqual({
      code: 'invalid_settings_proximity_precision',
      message: 'Unknown value `x` at `.proximityPrecision`: expected one of `byWord`, `byAttribute`',
    });
    expect(putError('prefixSearch', 'x')).toEqual({
      code: 'invalid_settings_prefix_search',
      message: 'Unknown value `x`: expected one of `indexingTime`, `disabled`',
    });
  });

  it('lists the supported locales for an unknown one', () => {
    const error = patchError({ localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['japan'] }] });
    expect(error.code).toBe('invalid_settings_localized_attributes');
    expect(error.message).toMatch(/^Unknown value `japan` at `\.localizedAttributes\[0\]\.locales\[0\]`: expected one of `af`, `ak`, `am`, /);
    expect(error.message).toMatch(/`zu`, `afr`, `aka`, .*`zho`, `zul`, `cmn`$/);
    expect(error.message).not.toContain('`cy`');
  });

  it('requires both fields of a localized attributes rule', () => {
    expect(patchError({ localizedAttributes: [{ attributePatterns: ['*'] }] })).toEqual({
      code: 'invalid_settings_localized_attributes',
      message: 'Missing field `locales` inside `.localizedAttributes[0]`',
    });
  });
});

describe('filterableAttributes', () => {
  it('requires attributePatterns in a rule object and types a non-object entry as a string', () => {
    expect(patchError({ filterableAttributes: [{ features: {} }] })).toEqual({
      code: 'invalid_settings_filterable_attributes',
      message: 'Missing field `attributePatterns` inside `.filterableAttributes[0]`',
    });
    expect(putError('filterableAttributes', ['genre', 12]).message).toBe(
      'Invalid value type at `[1]`: expected a string, but found a positive integer: `12`',
    );
  });

  it('rejects unknown keys inside a rule and its features', () => {
    expect(putError('filterableAttributes', [{ attributePatterns: ['a'], features: { filter: { range: true } } }]).message).toBe(
      'Unknown field `range` inside `[0].features.filter`: expected one of `equality`, `comparison`',
    );
  });
});

describe('rankingRules', () => {
  it('explains an unknown rule at its index', () => {
    expect(patchError({ rankingRules: ['manyTheFish'] })).toEqual({
      code: 'invalid_settings_ranking_rules',
      message:
        'Invalid value at `.rankingRules[0]`: `manyTheFish` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.',
    });
    expect(putError('rankingRules', ['words', 'price:deesc']).message).toMatch(/^Invalid value at `\[1\]`: `price:deesc` ranking rule is invalid\./);
  });

  it('accepts built-in rules, custom rules split at the last colon, and duplicates', () => {
    const rules = ['words', 'typo', 'proximity', 'attribute', 'sort', 'exactness', 'price:asc', 'a:b:desc', 'words'];
    expect(subRoute('rankingRules')(rules)).toEqual(rules);
    expect(subRoute('rankingRules')(['attributeRank', 'wordPosition'])).toEqual(['attributeRank', 'wordPosition']);
  });

  it('reserves the geo keywords, pointing sorting and filtering constructs to their use', () => {
    const reason = (rule: string) => putError('rankingRules', [rule]).message.replace('Invalid value at `[0]`: ', '');
    expect(reason('_geoPoint(12, 13):asc')).toBe(
      "`_geoPoint` is a reserved keyword and thus can't be used as a ranking rule. `_geoPoint` can only be used for sorting at search time",
    );
    expect(reason('_geoRadius(1, 2, 3):desc')).toBe(
      "`_geoRadius` is a reserved keyword and thus can't be used as a ranking rule. `_geoRadius` can only be used for filtering at search time",
    );
    expect(reason('_geoBoundingBox:asc')).toBe(
      "`_geoBoundingBox` is a reserved keyword and thus can't be used as a ranking rule. `_geoBoundingBox` can only be used for filtering at search time",
    );
    expect(reason('_geo:asc')).toBe("`_geo` is a reserved keyword and thus can't be used as a ranking rule");
    expect(reason('_geoDistance:desc')).toBe("`_geoDistance` is a reserved keyword and thus can't be used as a ranking rule");
    expect(reason('_geoPolygon:asc')).toBe("`_geoPolygon` is a reserved keyword and thus can't be used as a ranking rule");
  });

  it('refuses attribute mixed with attributeRank or wordPosition without a location', () => {
    for (const rules of [['words', 'attribute', 'attributeRank'], ['attribute', 'wordPosition']]) {
      expect(check({ rankingRules: rules })).toEqual({
        code: 'invalid_settings_ranking_rules',
        message:
          'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.',
      });
    }
  });
});

describe('experimental settings', () => {
  it('gates foreignKeys and chat behind their features, but never their reset', () => {
    expect(check({ foreignKeys: [{ foreignIndexUid: 'a', fieldName: 'b' }] })).toEqual({
      code: 'feature_not_enabled',
      message:
        'setting `foreignKeys` in the index settings requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873',
    });
    expect(check({ chat: { description: 'movies' } })).toEqual({
      code: 'feature_not_enabled',
      message:
        'setting `chat` in the index settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835',
    });
    expect(() => checkPatch(canonicalPatch({ foreignKeys: null, chat: null }), features())).not.toThrow();
    // v1.50's order: chat's gate, foreign keys', the ranking rules, the embedders
    expect(check({ chat: {}, foreignKeys: [] })?.message).toMatch(/^setting `chat` in the index settings requires/);
    expect(check({ rankingRules: ['attribute', 'wordPosition'], embedders: { x: { source: 'userProvided' } } })).toEqual({
      code: 'invalid_settings_ranking_rules',
      message: 'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.',
    });
    expect(() => checkPatch(canonicalPatch(globalBody({ chat: { description: 'x' } })), features('chatCompletions'))).not.toThrow();
  });
});

describe('embedders', () => {
  it('accepts an empty embedder (OpenAI with its defaults) and removal by null', () => {
    expect(() => checkPatch(canonicalPatch(globalBody({ embedders: { default: {}, old: null } })), features())).not.toThrow();
  });

  it('refuses a field the given source does not have, listing where it belongs', () => {
    expect(check({ embedders: { test: { source: 'userProvided', dimensions: 3, model: 'all-minilm' } } })).toEqual({
      code: 'invalid_settings_embedders',
      message:
        '`.embedders.test`: Field `model` unavailable for source `userProvided`.\n' +
        '  - note: `model` is available for sources: `openAi`, `huggingFace`, `ollama`\n' +
        '  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`',
    });
    expect(check({ embedders: { test: { source: 'huggingFace', dimensions: 768 } } }).message).toBe(
      '`.embedders.test`: Field `dimensions` unavailable for source `huggingFace`.\n' +
        '  - note: `dimensions` is available for sources: `openAi`, `ollama`, `userProvided`, `rest`\n' +
        '  - note: available fields for source `huggingFace`: `source`, `model`, `revision`, `pooling`, `documentTemplate`, `documentTemplateMaxBytes`, `distribution`, `binaryQuantized`',
    );
  });

  it('refuses zero sizes, relative URLs and unknown OpenAI models', () => {
    expect(check({ embedders: { x: { source: 'rest', dimensions: 0 } } }).message).toBe('`.embedders.x.dimensions`: `dimensions` cannot be zero');
    expect(check({ embedders: { x: { documentTemplate: '{{doc.a}}', documentTemplateMaxBytes: 0 } } }).message).toBe(
      '`.embedders.x.documentTemplateMaxBytes`: `documentTemplateMaxBytes` cannot be zero',
    );
    expect(check({ embedders: { rest: { source: 'rest', url: 'kefir' } } }).message).toBe(
      '`.embedders.rest.url`: could not parse `kefir`: relative URL without a base',
    );
    expect(check({ embedders: { x: { source: 'openAi', model: 'foo' } } }).message).toBe(
      '`.embedders.x.model`: Invalid model `foo` for OpenAI. Supported models: ["text-embedding-ada-002", "text-embedding-3-small", "text-embedding-3-large"]',
    );
  });

  it('reports type errors and unknown fields inside an embedder with the embedders code', () => {
    expect(patchError({ embedders: { x: { dimensions: 'a' } } })).toEqual({
      code: 'invalid_settings_embedders',
      message: 'Invalid value type at `.embedders.x.dimensions`: expected a positive integer, but found a string: `"a"`',
    });
    expect(putError('embedders', { x: { foo: 1 } }).message).toMatch(/^Unknown field `foo` inside `\.x`: expected one of `source`, `model`, /);
  });

  it('gates composite embedders and fragments behind their features', () => {
    expect(check({ embedders: { x: { source: 'composite' } } })).toEqual({
      code: 'feature_not_enabled',
      message:
        'using `"composite"` as source requires enabling the `composite embedders` experimental feature. See https://github.com/orgs/meilisearch/discussions/816',
    });
    expect(check({ embedders: { x: { source: 'rest', indexingFragments: {} } } }).message).toBe(
      'setting `indexingFragments` requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    );
  });
});
