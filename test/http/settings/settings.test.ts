// The settings routes through the real server and the official JS client: GET of a fresh index,
// updates through the global route and the sub-routes, resets, task details and the task-time
// failures of settings.md §9.
import { Meilisearch } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
let client: Meilisearch;
let counter = 0;
const uniqueIndex = () => `settings_${process.pid}_${counter++}`;
const WAIT = { interval: 20, timeout: 10_000 };

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
});
afterAll(async () => {
  await server.dispose();
});

async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** Sends a write and waits for its task. */
async function task(method: string, path: string, body?: unknown) {
  const res = await send(method, path, body);
  expect(res.status).toBe(202);
  return client.tasks.waitForTask((res.body as { taskUid: number }).taskUid, WAIT);
}

const DEFAULT_TEMPLATE =
  '{% for field in fields %}{% if field.is_searchable and field.value != nil %}{{ field.name }}: {{ field.value }}\n{% endif %}{% endfor %}';

const FRESH_SETTINGS = {
  displayedAttributes: ['*'],
  searchableAttributes: ['*'],
  filterableAttributes: [],
  sortableAttributes: [],
  rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'wordPosition', 'exactness'],
  stopWords: [],
  nonSeparatorTokens: [],
  separatorTokens: [],
  dictionary: [],
  synonyms: {},
  distinctAttribute: null,
  proximityPrecision: 'byWord',
  typoTolerance: {
    enabled: true,
    minWordSizeForTypos: { oneTypo: 5, twoTypos: 9 },
    disableOnWords: [],
    disableOnAttributes: [],
    disableOnNumbers: false,
  },
  faceting: { maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha' } },
  pagination: { maxTotalHits: 1000 },
  embedders: {},
  searchCutoffMs: null,
  localizedAttributes: null,
  facetSearch: true,
  prefixSearch: 'indexingTime',
};

describe('reading settings', () => {
  it('GET /settings of a fresh index answers the 20 defaults in Meilisearch order', async () => {
    const uid = uniqueIndex();
    await client.createIndex(uid).waitTask(WAIT);
    const res = await send('GET', `/indexes/${uid}/settings`);
    expect(res.status).toBe(200);
    expect(JSON.stringify(res.body)).toBe(JSON.stringify(FRESH_SETTINGS));
    expect(await client.index(uid).getSettings()).toEqual(FRESH_SETTINGS);
  });

  it('each sub-route answers its own default value', async () => {
    const uid = uniqueIndex();
    await client.createIndex(uid).waitTask(WAIT);
    const routes: Record<string, unknown> = {
      'displayed-attributes': ['*'],
      'searchable-attributes': ['*'],
      'filterable-attributes': [],
      'sortable-attributes': [],
      'foreign-keys': [],
      'ranking-rules': FRESH_SETTINGS.rankingRules,
      'stop-words': [],
      'non-separator-tokens': [],
      'separator-tokens': [],
      dictionary: [],
      synonyms: {},
      'distinct-attribute': null,
      'proximity-precision': 'byWord',
      'typo-tolerance': FRESH_SETTINGS.typoTolerance,
      faceting: FRESH_SETTINGS.faceting,
      pagination: { maxTotalHits: 1000 },
      embedders: {},
      'search-cutoff-ms': null,
      'localized-attributes': null,
      'facet-search': true,
      'prefix-search': 'indexingTime',
      chat: { description: '', documentTemplate: DEFAULT_TEMPLATE, documentTemplateMaxBytes: 400, searchParameters: {} },
    };
    for (const [route, value] of Object.entries(routes)) {
      expect(await send('GET', `/indexes/${uid}/settings/${route}`), route).toEqual({ status: 200, body: value });
    }
  });

  it('takes integers past 2^53 in numeric settings, and searches under them', async () => {
    const uid = uniqueIndex();
    await task('POST', `/indexes/${uid}/documents`, [{ id: 1, text: 'hello', genre: 'a' }]);
    const done = await task('PATCH', `/indexes/${uid}/settings`, {
      filterableAttributes: ['genre'],
      pagination: { maxTotalHits: 2 ** 60 },
      faceting: { maxValuesPerFacet: 2 ** 60 },
      searchCutoffMs: 2 ** 60,
    });
    expect(done.status).toBe('succeeded');
    for (const query of [{ q: 'hello' }, { q: 'hello', page: 1, facets: ['genre'] }]) {
      const found = await send('POST', `/indexes/${uid}/search`, query);
      expect(found.status, JSON.stringify(found.body)).toBe(200);
      expect((found.body as { hits: unknown[] }).hits).toHaveLength(1);
    }
    expect((await send('GET', `/indexes/${uid}/settings/pagination`)).body).toEqual({ maxTotalHits: 2 ** 60 });
  });

  it('answers index_not_found for the settings of a missing index', async () => {
    const expected = {
      status: 404,
      body: {
        message: 'Index `nowhere` not found.',
        code: 'index_not_found',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#index_not_found',
      },
    };
    expect(await send('GET', '/indexes/nowhere/settings')).toEqual(expected);
    expect(await send('GET', '/indexes/nowhere/settings/stop-words')).toEqual(expected);
  });

  it('shows foreignKeys and chat in GET /settings only while their features are enabled', async () => {
    const uid = uniqueIndex();
    await client.createIndex(uid).waitTask(WAIT);
    await send('PATCH', '/experimental-features', { foreignKeys: true, chatCompletions: true });
    try {
      const keys = Object.keys((await send('GET', `/indexes/${uid}/settings`)).body as object);
      expect(keys.slice(3, 5)).toEqual(['sortableAttributes', 'foreignKeys']);
      expect(keys.at(-1)).toBe('chat');
      expect(keys).toHaveLength(22);
      const done = await task('PATCH', `/indexes/${uid}/settings`, {
        foreignKeys: [{ foreignIndexUid: 'products', fieldName: 'productId' }],
        chat: { description: 'movies', searchParameters: { limit: 15 } },
      });
      expect(done.status).toBe('succeeded');
      expect((await send('GET', `/indexes/${uid}/settings/foreign-keys`)).body).toEqual([{ foreignIndexUid: 'products', fieldName: 'productId' }]);
      expect((await send('GET', `/indexes/${uid}/settings/chat`)).body).toEqual({
        description: 'movies',
        documentTemplate: DEFAULT_TEMPLATE,
        documentTemplateMaxBytes: 400,
        searchParameters: { limit: 15 },
      });
    } finally {
      await send('PATCH', '/experimental-features', { foreignKeys: false, chatCompletions: false });
    }
    expect(Object.keys((await send('GET', `/indexes/${uid}/settings`)).body as object)).toHaveLength(20);
  });

  it('fails a chat settings task with a zero byte limit or a template that does not parse, as milli update_chat_config, and keeps the stored ones', async () => {
    const uid = uniqueIndex();
    await client.createIndex(uid).waitTask(WAIT);
    await send('PATCH', '/experimental-features', { chatCompletions: true });
    try {
      const zero = await task('PATCH', `/indexes/${uid}/settings/chat`, { documentTemplateMaxBytes: 0 });
      expect(zero.error).toMatchObject({
        code: 'invalid_settings_embedders',
        message: `Index \`${uid}\`: \`.chat.documentTemplateMaxBytes\`: \`documentTemplateMaxBytes\` cannot be zero`,
      });
      const template = await task('PATCH', `/indexes/${uid}/settings`, { chat: { documentTemplate: '{{ doc.title ' } });
      expect(template.error?.code).toBe('invalid_chat_setting_document_template');
      expect(template.error?.message).toMatch(new RegExp(`^Index \`${uid}\`: \`\\.chat\\.documentTemplate\`: Invalid document template: user error: cannot parse template: `));
      expect((await send('GET', `/indexes/${uid}/settings/chat`)).body).toMatchObject({ documentTemplate: DEFAULT_TEMPLATE, documentTemplateMaxBytes: 400 });
      const threshold = await send('PATCH', `/indexes/${uid}/settings/chat`, { searchParameters: { rankingScoreThreshold: 2 } });
      expect(threshold).toEqual({
        status: 400,
        body: {
          message: 'Invalid value at `.searchParameters.rankingScoreThreshold`: the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.',
          code: 'invalid_settings_index_chat',
          type: 'invalid_request',
          link: 'https://docs.meilisearch.com/errors#invalid_settings_index_chat',
        },
      });
    } finally {
      await send('PATCH', '/experimental-features', { chatCompletions: false });
    }
  });
});

describe('updating settings', () => {
  it('PATCH /settings answers a summarized settingsUpdate task, creates the index and shows the submitted settings as details', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    const enqueued = await send('PATCH', `/indexes/${uid}/settings`, {
      synonyms: { wolverine: ['logan', 'xmen'], hulk: ['banner'] },
      rankingRules: ['typo', 'words'],
      stopWords: ['the', 'a', 'the'],
      displayedAttributes: ['title', 'overview'],
    });
    expect(enqueued.status).toBe(202);
    expect(enqueued.body).toEqual({ taskUid: expect.any(Number), indexUid: uid, status: 'enqueued', type: 'settingsUpdate', enqueuedAt: expect.any(String) });
    const done = await client.tasks.waitForTask((enqueued.body as { taskUid: number }).taskUid, WAIT);
    expect(done.status).toBe('succeeded');
    expect(JSON.stringify(done.details)).toBe(
      JSON.stringify({
        displayedAttributes: ['title', 'overview'],
        rankingRules: ['typo', 'words'],
        stopWords: ['a', 'the'],
        synonyms: { hulk: ['banner'], wolverine: ['logan', 'xmen'] },
      }),
    );
    const settings = await index.getSettings();
    expect(settings).toMatchObject({
      displayedAttributes: ['title', 'overview'],
      rankingRules: ['typo', 'words'],
      stopWords: ['a', 'the'],
      synonyms: { hulk: ['banner'], wolverine: ['logan', 'xmen'] },
      searchableAttributes: ['*'],
    });
    expect((await client.getIndex(uid)).uid).toBe(uid);
  });

  it('an empty PATCH body is a valid update that creates the index', async () => {
    const uid = uniqueIndex();
    const done = await task('PATCH', `/indexes/${uid}/settings`, {});
    expect(done).toMatchObject({ status: 'succeeded', details: {} });
    expect((await send('GET', `/indexes/${uid}`)).status).toBe(200);
  });

  it('updates one setting per sub-route with the client and reads it back', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    // Meilisearch takes `features` without `filter` (the client's type requires it)
    await index.updateFilterableAttributes(['genre', { attributePatterns: ['price_*'], features: { facetSearch: true } as { facetSearch: boolean; filter: { equality: boolean; comparison: boolean } } }]).waitTask(WAIT);
    expect(await index.getFilterableAttributes()).toEqual([
      'genre',
      { attributePatterns: ['price_*'], features: { facetSearch: true, filter: { equality: true, comparison: false } } },
    ]);
    await index.updateSortableAttributes(['year', 'price', 'year']).waitTask(WAIT);
    expect(await index.getSortableAttributes()).toEqual(['price', 'year']);
    await index.updateSearchableAttributes(['title', 'overview', 'title']).waitTask(WAIT);
    expect(await index.getSearchableAttributes()).toEqual(['title', 'overview']);
    await index.updateDisplayedAttributes(['title', '*']).waitTask(WAIT);
    expect(await index.getDisplayedAttributes()).toEqual(['*']);
    await index.updateDistinctAttribute('sku').waitTask(WAIT);
    expect(await index.getDistinctAttribute()).toBe('sku');
    await index.updateSeparatorTokens(['&sep', '<br/>']).waitTask(WAIT);
    expect(await index.getSeparatorTokens()).toEqual(['&sep', '<br/>']);
    await index.updateProximityPrecision('byAttribute').waitTask(WAIT);
    expect(await index.getProximityPrecision()).toBe('byAttribute');
    await index.updateSearchCutoffMs(0).waitTask(WAIT);
    expect(await index.getSearchCutoffMs()).toBe(0);
    await index.updateLocalizedAttributes([{ attributePatterns: ['*_ja'], locales: ['ja'] }]).waitTask(WAIT);
    expect(await index.getLocalizedAttributes()).toEqual([{ attributePatterns: ['*_ja'], locales: ['jpn'] }]);
    await index.updateFacetSearch(false).waitTask(WAIT);
    expect(await index.getFacetSearch()).toBe(false);
    await index.updatePrefixSearch('disabled').waitTask(WAIT);
    expect(await index.getPrefixSearch()).toBe('disabled');
  });

  it('patches typoTolerance, faceting and pagination field by field', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await index.updateTypoTolerance({ minWordSizeForTypos: { oneTypo: 4 }, disableOnWords: ['iPhone'] }).waitTask(WAIT);
    const done = await index.updateTypoTolerance({ enabled: false }).waitTask(WAIT);
    expect(done.details).toEqual({ typoTolerance: { enabled: false } });
    expect(await index.getTypoTolerance()).toEqual({
      enabled: false,
      minWordSizeForTypos: { oneTypo: 4, twoTypos: 9 },
      disableOnWords: ['iphone'],
      disableOnAttributes: [],
      disableOnNumbers: false,
    });
    await index.updateFaceting({ sortFacetValuesBy: { genre: 'count' } }).waitTask(WAIT);
    await index.updateFaceting({ maxValuesPerFacet: 10 }).waitTask(WAIT);
    expect(await index.getFaceting()).toEqual({ maxValuesPerFacet: 10, sortFacetValuesBy: { '*': 'alpha', genre: 'count' } });
    await index.updatePagination({ maxTotalHits: 50 }).waitTask(WAIT);
    expect(await index.getPagination()).toEqual({ maxTotalHits: 50 });
    await index.resetTypoTolerance().waitTask(WAIT);
    expect(await index.getTypoTolerance()).toEqual(FRESH_SETTINGS.typoTolerance);
  });

  it('merges embedders by name, masks API keys in GET and in details, and removes one with null', async () => {
    const uid = uniqueIndex();
    const done = await task('PATCH', `/indexes/${uid}/settings`, {
      embedders: {
        default: {
          source: 'rest',
          url: 'https://localhost:7777',
          apiKey: 'My super secret value you will never guess',
          dimensions: 4,
          request: '{{text}}',
          response: '{{embedding}}',
        },
        manual: { source: 'userProvided', dimensions: 3 },
      },
    });
    expect(done.status).toBe('succeeded');
    expect((done.details as { embedders: Record<string, { apiKey?: string }> }).embedders.default!.apiKey).toBe('My suXXXXXX...');
    expect(JSON.stringify((await send('GET', `/indexes/${uid}/settings/embedders`)).body)).toBe(
      JSON.stringify({
        default: {
          source: 'rest',
          apiKey: 'My suXXXXXX...',
          dimensions: 4,
          documentTemplate: DEFAULT_TEMPLATE,
          documentTemplateMaxBytes: 400,
          url: 'https://localhost:7777',
          request: '{{text}}',
          response: '{{embedding}}',
          headers: {},
        },
        manual: { source: 'userProvided', dimensions: 3 },
      }),
    );
    await task('PATCH', `/indexes/${uid}/settings/embedders`, { default: null });
    expect((await send('GET', `/indexes/${uid}/settings/embedders`)).body).toEqual({ manual: { source: 'userProvided', dimensions: 3 } });
  });

  it('PUT null on a sub-route resets the setting and may create the index', async () => {
    const uid = uniqueIndex();
    const done = await task('PUT', `/indexes/${uid}/settings/distinct-attribute`, null);
    expect(done).toMatchObject({ status: 'succeeded', details: { distinctAttribute: null } });
    expect((await send('GET', `/indexes/${uid}`)).status).toBe(200);
  });
});

describe('resetting settings', () => {
  it('DELETE of a sub-route shows the reset in details: ["*"] for attribute lists, null otherwise', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await index.updateSettings({ displayedAttributes: ['title'], stopWords: ['the'] }).waitTask(WAIT);
    expect((await index.resetDisplayedAttributes().waitTask(WAIT)).details).toEqual({ displayedAttributes: ['*'] });
    expect((await index.resetStopWords().waitTask(WAIT)).details).toEqual({ stopWords: null });
    expect(await index.getSettings()).toEqual(FRESH_SETTINGS);
  });

  it('DELETE /settings resets everything and lists every setting in its details', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await index
      .updateSettings({ searchableAttributes: ['title'], filterableAttributes: ['genre'], typoTolerance: { enabled: false }, searchCutoffMs: 10 })
      .waitTask(WAIT);
    const done = await index.resetSettings().waitTask(WAIT);
    expect(done.status).toBe('succeeded');
    expect(done.details).toEqual({
      displayedAttributes: ['*'],
      searchableAttributes: ['*'],
      filterableAttributes: null,
      sortableAttributes: null,
      foreignKeys: null,
      rankingRules: null,
      stopWords: null,
      nonSeparatorTokens: null,
      separatorTokens: null,
      dictionary: null,
      synonyms: null,
      distinctAttribute: null,
      proximityPrecision: null,
      typoTolerance: null,
      faceting: null,
      pagination: null,
      embedders: null,
      searchCutoffMs: null,
      localizedAttributes: null,
      facetSearch: null,
      prefixSearch: null,
      chat: null,
    });
    expect(await index.getSettings()).toEqual(FRESH_SETTINGS);
  });

  it('a DELETE on a missing index is accepted but its task fails with index_not_found', async () => {
    const uid = uniqueIndex();
    for (const path of [`/indexes/${uid}/settings`, `/indexes/${uid}/settings/ranking-rules`]) {
      const done = await task('DELETE', path);
      expect(done.status).toBe('failed');
      expect(done.error).toEqual({
        message: `Index \`${uid}\` not found.`,
        code: 'index_not_found',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#index_not_found',
      });
    }
    expect((await send('GET', `/indexes/${uid}`)).status).toBe(404);
  });
});

describe('task-time failures', () => {
  it('fails a oneTypo above the stored twoTypos with the index-prefixed message', async () => {
    const uid = uniqueIndex();
    await client.createIndex(uid).waitTask(WAIT);
    const done = await task('PATCH', `/indexes/${uid}/settings/typo-tolerance`, { minWordSizeForTypos: { oneTypo: 10 } });
    expect(done.status).toBe('failed');
    expect(done.error).toEqual({
      message:
        `Index \`${uid}\`: \`minWordSizeForTypos\` setting is invalid. \`oneTypo\` and \`twoTypos\` fields should be between \`0\` and \`255\`, ` +
        'and `twoTypos` should be greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 9`.',
      code: 'invalid_settings_typo_tolerance',
      type: 'invalid_request',
      link: 'https://docs.meilisearch.com/errors#invalid_settings_typo_tolerance',
    });
    expect((await client.index(uid).getTypoTolerance())!.minWordSizeForTypos).toEqual({ oneTypo: 5, twoTypos: 9 });
  });

  it('fails an embedder missing a field its source requires', async () => {
    const uid = uniqueIndex();
    // Naming the source makes the route check its mandatory fields (400); resetting one of a stored
    // embedder leaves the check to the task, on the merged embedder.
    const rest = { source: 'rest', url: 'http://localhost:1', dimensions: 2, request: { input: '{{text}}' }, response: { embedding: '{{embedding}}' } };
    expect((await task('PATCH', `/indexes/${uid}/settings/embedders`, { rest })).status).toBe('succeeded');
    const done = await task('PATCH', `/indexes/${uid}/settings/embedders`, { rest: { request: null } });
    expect(done.status).toBe('failed');
    expect(done.error).toMatchObject({
      code: 'invalid_settings_embedders',
      message: `Index \`${uid}\`: \`.embedders.rest\`: Missing field \`request\` (note: this field is mandatory for source \`rest\`)`,
    });
  });

  it('settings survive adding documents and reshaping settings on a populated index', async () => {
    const uid = uniqueIndex();
    const index = client.index(uid);
    await index.addDocuments([{ id: 1, title: 'Carol', genre: 'drama' }, { id: 2, title: 'Alien', genre: 'horror' }]).waitTask(WAIT);
    const { updatedAt: before } = await index.getRawInfo();
    const done = await index.updateSettings({ filterableAttributes: ['genre'], searchableAttributes: ['title'] }).waitTask(WAIT);
    expect(done.status).toBe('succeeded');
    expect(await index.getFilterableAttributes()).toEqual(['genre']);
    expect((await index.getRawInfo()).updatedAt > before).toBe(true);
    expect((await index.getDocuments()).total).toBe(2);
  });
});
