// The GET form of settings and the reindex decision of a settings change.
import { describe, expect, it } from 'vitest';
import { normalizeExactWords } from '../../../src/engine/exact-words.js';
import { diffSettings } from '../../../src/settings/diff.js';
import { INDEX_UPDATERS } from '../../../src/engine/indexer/registry.js';
import { applyPatch } from '../../../src/settings/merge.js';
import { canonicalPatch } from '../../../src/settings/patch.js';
import { settingView, settingsView } from '../../../src/settings/view.js';
import { DEFAULT_DOCUMENT_TEMPLATE, defaultSettings } from '../../../src/types/settings.js';

const changedBy = (body: Record<string, unknown>, from = defaultSettings()) => diffSettings(from, applyPatch(from, canonicalPatch(body), normalizeExactWords), INDEX_UPDATERS);

describe('settings view', () => {
  it('shows the 20 default settings in order, without the experimental ones', () => {
    expect(settingsView(defaultSettings(), { foreignKeys: false, chat: false })).toEqual({
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
    });
  });

  it('places foreignKeys after sortableAttributes and chat last when their features are on', () => {
    const keys = Object.keys(settingsView(defaultSettings(), { foreignKeys: true, chat: true }));
    expect(keys).toHaveLength(22);
    expect(keys.indexOf('foreignKeys')).toBe(keys.indexOf('sortableAttributes') + 1);
    expect(keys.at(-1)).toBe('chat');
    expect(settingView(defaultSettings(), 'chat')).toEqual({
      description: '',
      documentTemplate: DEFAULT_DOCUMENT_TEMPLATE,
      documentTemplateMaxBytes: 400,
      searchParameters: {},
    });
  });

  it('fills embedder defaults per source and masks API keys', () => {
    const settings = applyPatch(
      defaultSettings(),
      canonicalPatch({
        embedders: {
          default: {},
          manual: { source: 'userProvided', dimensions: 3 },
          rest: {
            source: 'rest',
            url: 'https://localhost:7777',
            apiKey: 'My super secret value you will never guess',
            dimensions: 4,
            request: '{{text}}',
            response: '{{embedding}}',
          },
        },
      }),
      normalizeExactWords,
    );
    const view = settingView(settings, 'embedders') as Record<string, unknown>;
    expect(view.default).toEqual({
      source: 'openAi',
      model: 'text-embedding-3-small',
      documentTemplate: DEFAULT_DOCUMENT_TEMPLATE,
      documentTemplateMaxBytes: 400,
    });
    expect(view.manual).toEqual({ source: 'userProvided', dimensions: 3 });
    expect(JSON.stringify(view.rest)).toBe(
      JSON.stringify({
        source: 'rest',
        apiKey: 'My suXXXXXX...',
        dimensions: 4,
        documentTemplate: DEFAULT_DOCUMENT_TEMPLATE,
        documentTemplateMaxBytes: 400,
        url: 'https://localhost:7777',
        request: '{{text}}',
        response: '{{embedding}}',
        headers: {},
      }),
    );
  });
});

describe('settings diff', () => {
  it('rebuilds the updaters that derive from the settings changed, and only those', () => {
    const facets = ['facets'];
    const words = ['word-index'];
    for (const [body, rebuilt] of [
      [{ searchableAttributes: ['title'] }, words],
      [{ filterableAttributes: ['genre'] }, facets],
      [{ filterableAttributes: [{ attributePatterns: ['genre'], features: { facetSearch: true } }] }, facets],
      [{ sortableAttributes: ['year'] }, facets],
      [{ distinctAttribute: 'sku' }, facets],
      [{ stopWords: ['the'] }, words],
      [{ separatorTokens: ['&'] }, words],
      [{ nonSeparatorTokens: ['#'] }, words],
      [{ dictionary: ['J.R.R.'] }, words],
      [{ localizedAttributes: [{ attributePatterns: ['*'], locales: ['fr'] }] }, words],
      [{ prefixSearch: 'disabled' }, words],
      [{ rankingRules: ['words', 'price:asc'] }, facets],
      [{ filterableAttributes: ['genre'], stopWords: ['a'] }, [...facets, ...words]],
      // read at search time only
      [{ proximityPrecision: 'byAttribute' }, []],
      [{ facetSearch: false }, []],
      [{ typoTolerance: { disableOnAttributes: ['isbn'] } }, []],
      [{ typoTolerance: { disableOnNumbers: true } }, []],
    ] as [Record<string, unknown>, string[]][]) {
      expect([body, changedBy(body).rebuild]).toEqual([body, rebuilt]);
    }
  });

  it('rebuilds nothing when searchable attributes are only reordered, or sort rules moved', () => {
    const from = applyPatch(defaultSettings(), canonicalPatch({ searchableAttributes: ['title', 'overview'], rankingRules: ['words', 'price:asc', 'typo'] }), normalizeExactWords);
    expect(changedBy({ searchableAttributes: ['overview', 'title'] }, from)).toEqual({ changed: ['searchableAttributes'], rebuild: [] });
    expect(changedBy({ rankingRules: ['price:asc', 'words', 'typo'] }, from)).toEqual({ changed: ['rankingRules'], rebuild: [] });
    expect(changedBy({ rankingRules: ['words', 'price:desc', 'typo'] }, from)).toEqual({ changed: ['rankingRules'], rebuild: [] });
  });

  it('rebuilds nothing for metadata-only changes, and says which settings changed', () => {
    expect(
      changedBy({
        displayedAttributes: ['title'],
        synonyms: { a: ['b'] },
        rankingRules: ['typo', 'words'],
        typoTolerance: { enabled: false, disableOnWords: ['x'] },
        faceting: { maxValuesPerFacet: 2 },
        pagination: { maxTotalHits: 5 },
        searchCutoffMs: 3,
      }),
    ).toEqual({
      changed: ['displayedAttributes', 'rankingRules', 'synonyms', 'typoTolerance', 'faceting', 'pagination', 'searchCutoffMs'],
      rebuild: [],
    });
  });

  it('sees no change when a patch restates the current values', () => {
    expect(changedBy({ filterableAttributes: [], searchableAttributes: ['*'], rankingRules: null })).toEqual({ changed: [], rebuild: [] });
  });
});
