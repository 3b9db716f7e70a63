// Every synchronous refusal of the settings routes, with Meilisearch's exact status and body
// (crates/meilisearch/tests/settings/errors.rs, settings.md): no task is created for any of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const error = (code: string, message: string, type = 'invalid_request') => ({
  message,
  code,
  type,
  link: `https://docs.meilisearch.com/errors#${code}`,
});

async function send(method: string, path: string, body?: unknown, raw?: string) {
  const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: payload === undefined ? {} : { 'content-type': 'application/json' },
    body: payload,
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

const bad = (code: string, message: string) => ({ status: 400, body: error(code, message) });

async function taskCount(): Promise<number> {
  return ((await send('GET', '/tasks?limit=0')).body as { total: number }).total;
}

describe('routing', () => {
  it('answers 404 with an empty body for an unknown setting, whatever the verb', async () => {
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      expect(await send(method, '/indexes/movies/settings/doggo', method === 'GET' || method === 'DELETE' ? undefined : [])).toEqual({
        status: 404,
        body: null,
      });
    }
  });

  it('answers 405 with an empty body when a setting is updated with the other verb', async () => {
    expect(await send('PUT', '/indexes/movies/settings/typo-tolerance', {})).toEqual({ status: 405, body: null });
    expect(await send('PATCH', '/indexes/movies/settings/displayed-attributes', ['a'])).toEqual({ status: 405, body: null });
    expect(await send('PUT', '/indexes/movies/settings', {})).toEqual({ status: 405, body: null });
    expect(await send('POST', '/indexes/movies/settings/stop-words', [])).toEqual({ status: 405, body: null });
  });

  it('refuses an invalid index uid in the path on every verb', async () => {
    const expected = bad(
      'invalid_index_uid',
      '`test##!  ` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    );
    const uid = encodeURIComponent('test##!  ');
    expect(await send('PATCH', `/indexes/${uid}/settings`, {})).toEqual(expected);
    expect(await send('GET', `/indexes/${uid}/settings`)).toEqual(expected);
    expect(await send('DELETE', `/indexes/${uid}/settings`)).toEqual(expected);
    expect(await send('PUT', `/indexes/${uid}/settings/stop-words`, ['a'])).toEqual(expected);
    expect(await send('GET', `/indexes/${uid}/settings/stop-words`)).toEqual(expected);
    expect(await send('DELETE', `/indexes/${uid}/settings/stop-words`)).toEqual(expected);
  });

  it('requires a JSON body on updates', async () => {
    expect(await send('PUT', '/indexes/movies/settings/stop-words', undefined, '')).toEqual(bad('missing_payload', 'A json payload is missing.'));
  });
});

describe('bodies', () => {
  it('reports a wrong type with the setting path on PATCH /settings and without it on the sub-route', async () => {
    const cases: [string, string, unknown, string][] = [
      ['displayedAttributes', 'displayed-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['searchableAttributes', 'searchable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['filterableAttributes', 'filterable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['sortableAttributes', 'sortable-attributes', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['rankingRules', 'ranking-rules', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['stopWords', 'stop-words', 'doggo', 'expected an array, but found a string: `"doggo"`'],
      ['synonyms', 'synonyms', 'doggo', 'expected an object, but found a string: `"doggo"`'],
      ['distinctAttribute', 'distinct-attribute', ['doggo'], 'expected a string, but found an array: `["doggo"]`'],
      ['typoTolerance', 'typo-tolerance', 'doggo', 'expected an object, but found a string: `"doggo"`'],
      ['faceting', 'faceting', 'doggo', 'expected an object, but found a string: `"doggo"`'],
      ['pagination', 'pagination', 'doggo', 'expected an object, but found a string: `"doggo"`'],
      ['searchCutoffMs', 'search-cutoff-ms', 'doggo', 'expected a positive integer, but found a string: `"doggo"`'],
    ];
    for (const [key, route, value, expectation] of cases) {
      const code = `invalid_settings_${key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`;
      expect(await send('PATCH', '/indexes/movies/settings', { [key]: value })).toEqual(bad(code, `Invalid value type at \`.${key}\`: ${expectation}`));
      const verb = ['typoTolerance', 'faceting', 'pagination'].includes(key) ? 'PATCH' : 'PUT';
      expect(await send(verb, `/indexes/movies/settings/${route}`, value)).toEqual(bad(code, `Invalid value type: ${expectation}`));
    }
  });

  it('rejects an unknown setting in PATCH /settings with bad_request', async () => {
    const res = await send('PATCH', '/indexes/movies/settings', { foo: 12 });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', type: 'invalid_request' });
    expect((res.body as { message: string }).message).toMatch(/^Unknown field `foo`: expected one of `displayedAttributes`, .*, `prefixSearch`, `chat`$/);
  });

  it('uses the typo tolerance code for nested errors and unknown keys', async () => {
    expect(await send('PATCH', '/indexes/movies/settings', { typoTolerance: { minWordSizeForTypos: 'doggo' } })).toEqual(
      bad('invalid_settings_typo_tolerance', 'Invalid value type at `.typoTolerance.minWordSizeForTypos`: expected an object, but found a string: `"doggo"`'),
    );
    expect(await send('PATCH', '/indexes/movies/settings/typo-tolerance', { typoTolerance: { minWordSizeForTypos: 'doggo' } })).toEqual(
      bad(
        'invalid_settings_typo_tolerance',
        'Unknown field `typoTolerance`: expected one of `enabled`, `minWordSizeForTypos`, `disableOnWords`, `disableOnAttributes`, `disableOnNumbers`',
      ),
    );
    expect(await send('PATCH', '/indexes/movies/settings', { typoTolerance: { minWordSizeForTypos: { oneTypo: 10, twoTypos: 9 } } })).toEqual(
      bad(
        'invalid_settings_typo_tolerance',
        'Invalid value at `.typoTolerance.minWordSizeForTypos`: `minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 9`.',
      ),
    );
  });

  it('refuses a non-positive or mistyped maxTotalHits', async () => {
    expect(await send('PATCH', '/indexes/movies/settings', { pagination: { maxTotalHits: 'doggo' } })).toEqual(
      bad('invalid_settings_pagination', 'Invalid value type at `.pagination.maxTotalHits`: expected a positive integer, but found a string: `"doggo"`'),
    );
    expect(await send('PATCH', '/indexes/movies/settings/pagination', { maxTotalHits: 0 })).toEqual(
      bad('invalid_settings_pagination', 'Invalid value at `.maxTotalHits`: a non-zero integer value lower than `18446744073709551615` was expected, but found a zero'),
    );
  });

  it('explains invalid ranking rules and refuses mixing attribute with its halves', async () => {
    expect(await send('PATCH', '/indexes/movies/settings', { rankingRules: ['manyTheFish'] })).toEqual(
      bad(
        'invalid_settings_ranking_rules',
        'Invalid value at `.rankingRules[0]`: `manyTheFish` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.',
      ),
    );
    expect(await send('PUT', '/indexes/movies/settings/ranking-rules', ['_geoPoint(1, 2):asc'])).toEqual(
      bad(
        'invalid_settings_ranking_rules',
        "Invalid value at `[0]`: `_geoPoint` is a reserved keyword and thus can't be used as a ranking rule. `_geoPoint` can only be used for sorting at search time",
      ),
    );
    const mixed = bad(
      'invalid_settings_ranking_rules',
      'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.',
    );
    expect(await send('PATCH', '/indexes/movies/settings', { rankingRules: ['words', 'attribute', 'attributeRank'] })).toEqual(mixed);
    expect(await send('PUT', '/indexes/movies/settings/ranking-rules', ['attribute', 'wordPosition'])).toEqual(mixed);
  });

  it('names the accepted values of enumerated settings', async () => {
    expect(await send('PATCH', '/indexes/movies/settings', { proximityPrecision: 'x' })).toEqual(
      bad('invalid_settings_proximity_precision', 'Unknown value `x` at `.proximityPrecision`: expected one of `byWord`, `byAttribute`'),
    );
    expect(await send('PUT', '/indexes/movies/settings/prefix-search', 'x')).toEqual(
      bad('invalid_settings_prefix_search', 'Unknown value `x`: expected one of `indexingTime`, `disabled`'),
    );
    expect(await send('PATCH', '/indexes/movies/settings/faceting', { sortFacetValuesBy: { genre: 'x' } })).toEqual(
      bad('invalid_settings_faceting', 'Unknown value `x` at `.sortFacetValuesBy.genre`: expected one of `alpha`, `count`'),
    );
    expect(await send('PUT', '/indexes/movies/settings/facet-search', 'yes')).toEqual(
      bad('invalid_settings_facet_search', 'Invalid value type: expected a boolean, but found a string: `"yes"`'),
    );
    const locale = await send('PUT', '/indexes/movies/settings/localized-attributes', [{ attributePatterns: ['*_ja'], locales: ['japan'] }]);
    expect(locale.status).toBe(400);
    expect(locale.body).toMatchObject({ code: 'invalid_settings_localized_attributes' });
    expect((locale.body as { message: string }).message).toMatch(/^Unknown value `japan` at `\[0\]\.locales\[0\]`: expected one of `af`, `ak`, /);
  });

  it('requires attributePatterns in a granular filterable rule', async () => {
    expect(await send('PUT', '/indexes/movies/settings/filterable-attributes', [{ features: { facetSearch: true } }])).toEqual(
      bad('invalid_settings_filterable_attributes', 'Missing field `attributePatterns` inside `[0]`'),
    );
  });

  it('gates foreignKeys and chat behind their experimental features but lets them be reset', async () => {
    expect(await send('PUT', '/indexes/movies/settings/foreign-keys', [{ foreignIndexUid: 'products', fieldName: 'productId' }])).toEqual(
      bad(
        'feature_not_enabled',
        'setting `foreignKeys` in the index settings requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873',
      ),
    );
    expect(await send('PATCH', '/indexes/movies/settings', { chat: { description: 'movies' } })).toEqual(
      bad(
        'feature_not_enabled',
        'setting `chat` in the index settings requires enabling the `chat completions` experimental feature. See https://github.com/orgs/meilisearch/discussions/835',
      ),
    );
    expect((await send('DELETE', '/indexes/movies/settings/chat')).status).toBe(202);
    expect((await send('PUT', '/indexes/movies/settings/foreign-keys', null)).status).toBe(202);
  });

  it('refuses embedder fields the source does not have, zero sizes and unparsable URLs', async () => {
    expect(await send('PATCH', '/indexes/movies/settings', { embedders: { test: { source: 'userProvided', dimensions: 3, model: 'all-minilm' } } })).toEqual(
      bad(
        'invalid_settings_embedders',
        '`.embedders.test`: Field `model` unavailable for source `userProvided`.\n' +
          '  - note: `model` is available for sources: `openAi`, `huggingFace`, `ollama`\n' +
          '  - note: available fields for source `userProvided`: `source`, `dimensions`, `distribution`, `binaryQuantized`',
      ),
    );
    expect(await send('PATCH', '/indexes/movies/settings/embedders', { x: { source: 'rest', dimensions: 0 } })).toEqual(
      bad('invalid_settings_embedders', '`.embedders.x.dimensions`: `dimensions` cannot be zero'),
    );
    expect(await send('PATCH', '/indexes/movies/settings/embedders', { rest: { source: 'rest', url: 'kefir' } })).toEqual(
      bad('invalid_settings_embedders', '`.embedders.rest.url`: could not parse `kefir`: relative URL without a base'),
    );
  });

  it('refuses an integer written as a float on the sub-routes as on PATCH /settings, a bare value included', async () => {
    const found = (location: string, number: string) => `Invalid value type${location}: expected a positive integer, but found a number: \`${number}\``;
    expect(await send('PUT', '/indexes/movies/settings/search-cutoff-ms', undefined, '1.0')).toEqual(bad('invalid_settings_search_cutoff_ms', found('', '1.0')));
    expect(await send('PUT', '/indexes/movies/settings/search-cutoff-ms', undefined, '-0')).toEqual(bad('invalid_settings_search_cutoff_ms', found('', '-0.0')));
    expect(await send('PATCH', '/indexes/movies/settings/pagination', undefined, '{"maxTotalHits":1e3}')).toEqual(
      bad('invalid_settings_pagination', found(' at `.maxTotalHits`', '1000.0')),
    );
    expect(await send('PATCH', '/indexes/movies/settings/typo-tolerance', undefined, '{"minWordSizeForTypos":{"oneTypo":4.0}}')).toEqual(
      bad('invalid_settings_typo_tolerance', found(' at `.minWordSizeForTypos.oneTypo`', '4.0')),
    );
    expect(await send('PUT', '/indexes/movies/settings/facet-search', undefined, '1.0')).toEqual(
      bad('invalid_settings_facet_search', 'Invalid value type: expected a boolean, but found a number: `1.0`'),
    );
    expect((await send('PUT', '/indexes/movies/settings/search-cutoff-ms', undefined, ' 150 ')).status).toBe(202);
  });

  it('creates no task for a refused request', async () => {
    const before = await taskCount();
    await send('PATCH', '/indexes/movies/settings', { rankingRules: ['manyTheFish'] });
    await send('PUT', '/indexes/movies/settings/typo-tolerance', {});
    expect(await taskCount()).toBe(before);
  });
});
