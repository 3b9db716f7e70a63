// The canonical patch a task carries (its details) and how patches change the stored settings.
import { describe, expect, it } from 'vitest';
import { normalizeExactWords } from '../../../src/engine/exact-words.js';
import { applyPatch, mergedSettingsProblem } from '../../../src/settings/merge.js';
import { canonicalPatch, resetAllPatch, singleSettingPatch, type SettingsPatch } from '../../../src/settings/patch.js';
import { defaultSettings, type IndexSettings } from '../../../src/types/settings.js';

const apply = (...patches: SettingsPatch[]): IndexSettings =>
  patches.reduce<IndexSettings>((settings, patch) => applyPatch(settings, patch, normalizeExactWords), defaultSettings());

describe('canonical patch (task details)', () => {
  it('keeps only the sent keys, in settings order, whatever the body order', () => {
    expect(Object.keys(canonicalPatch({ rankingRules: ['typo'], displayedAttributes: ['a'], chat: null }))).toEqual([
      'displayedAttributes',
      'rankingRules',
      'chat',
    ]);
  });

  it('shows a reset of displayed or searchable attributes as ["*"] and other resets as null', () => {
    expect(singleSettingPatch('displayedAttributes', null)).toEqual({ displayedAttributes: ['*'] });
    expect(singleSettingPatch('stopWords', null)).toEqual({ stopWords: null });
    const all = resetAllPatch();
    expect(Object.keys(all)).toHaveLength(22);
    expect(all.searchableAttributes).toEqual(['*']);
    expect(all.distinctAttribute).toBeNull();
  });

  it('sorts and deduplicates sets and map keys as Meilisearch serializes them', () => {
    expect(canonicalPatch({ stopWords: ['the', 'a', 'the'], sortableAttributes: ['b', 'a'], synonyms: { wolverine: ['logan'], hulk: ['banner'] } })).toEqual({
      sortableAttributes: ['a', 'b'],
      stopWords: ['a', 'the'],
      synonyms: { hulk: ['banner'], wolverine: ['logan'] },
    });
    expect(canonicalPatch({ rankingRules: ['words', 'words'] })).toEqual({ rankingRules: ['words', 'words'] });
  });

  it('fills every feature of a filterable rule and keeps legacy strings', () => {
    expect(canonicalPatch({ filterableAttributes: ['genre', { attributePatterns: ['price_*'], features: { filter: { comparison: true } } }] })).toEqual({
      filterableAttributes: [
        'genre',
        { attributePatterns: ['price_*'], features: { facetSearch: false, filter: { equality: true, comparison: true } } },
      ],
    });
  });

  it('orders nested objects by their struct fields and keeps nested resets', () => {
    const patch = canonicalPatch({
      typoTolerance: { disableOnNumbers: true, minWordSizeForTypos: { twoTypos: 8, oneTypo: null }, enabled: null },
      embedders: { b: null, a: { dimensions: 3, source: 'userProvided' } },
    });
    expect(JSON.stringify(patch)).toBe(
      JSON.stringify({
        typoTolerance: { enabled: null, minWordSizeForTypos: { oneTypo: null, twoTypos: 8 }, disableOnNumbers: true },
        embedders: { a: { source: 'userProvided', dimensions: 3 }, b: null },
      }),
    );
  });
});

describe('applying patches', () => {
  it('treats "*" anywhere as all attributes and keeps the first of duplicates', () => {
    expect(apply({ displayedAttributes: ['title', '*'] }).displayedAttributes).toEqual(['*']);
    expect(apply({ searchableAttributes: ['title', 'overview', 'title'] }).searchableAttributes).toEqual(['title', 'overview']);
  });

  it('resets every setting to its default with the reset-all patch', () => {
    const changed = apply(
      canonicalPatch({
        displayedAttributes: ['a'],
        stopWords: ['the'],
        distinctAttribute: 'sku',
        typoTolerance: { enabled: false },
        faceting: { maxValuesPerFacet: 3 },
        searchCutoffMs: 10,
        localizedAttributes: [{ attributePatterns: ['*'], locales: ['ja'] }],
      }),
    );
    expect(applyPatch(changed, resetAllPatch(), normalizeExactWords)).toEqual(defaultSettings());
  });

  it('patches typoTolerance field by field, null resetting one field or both sizes', () => {
    const s = apply(
      canonicalPatch({ typoTolerance: { enabled: false, minWordSizeForTypos: { oneTypo: 3, twoTypos: 7 } } }),
      canonicalPatch({ typoTolerance: { minWordSizeForTypos: { oneTypo: null } } }),
    );
    expect(s.typoTolerance).toEqual({
      enabled: false,
      minWordSizeForTypos: { oneTypo: 5, twoTypos: 7 },
      disableOnWords: [],
      disableOnAttributes: [],
      disableOnNumbers: false,
    });
    expect(applyPatch(s, canonicalPatch({ typoTolerance: { minWordSizeForTypos: null } }), normalizeExactWords).typoTolerance.minWordSizeForTypos).toEqual({
      oneTypo: 5,
      twoTypos: 9,
    });
  });

  it('stores typo-exempt words normalised by the tokenizer and stop words with their case', () => {
    const s = apply(canonicalPatch({ typoTolerance: { disableOnWords: ['iPhone', 'Ünïcode'] }, stopWords: ['The', 'the', 'caf\u00e9'] }));
    expect(s.typoTolerance.disableOnWords).toEqual(['iphone', 'unicode']);
    expect(s.stopWords).toEqual(['The', 'cafe\u0301', 'the']);
  });

  it('replaces the facet order map but always keeps the "*" fallback', () => {
    const s = apply(canonicalPatch({ faceting: { sortFacetValuesBy: { genre: 'count' } } }));
    expect(s.faceting).toEqual({ maxValuesPerFacet: 100, sortFacetValuesBy: { '*': 'alpha', genre: 'count' } });
    const t = applyPatch(s, canonicalPatch({ faceting: { sortFacetValuesBy: { '*': 'count' } } }), normalizeExactWords);
    expect(t.faceting.sortFacetValuesBy).toEqual({ '*': 'count' });
  });

  it('stores locales in their three-letter form', () => {
    const s = apply(canonicalPatch({ localizedAttributes: [{ attributePatterns: ['*_ja'], locales: ['ja', 'cmn', 'eng'] }] }));
    expect(s.localizedAttributes).toEqual([{ attributePatterns: ['*_ja'], locales: ['jpn', 'cmn', 'eng'] }]);
  });

  it('merges embedders by name and by field, null removing an embedder or a field', () => {
    const s = apply(
      canonicalPatch({ embedders: { manual: { source: 'userProvided', dimensions: 3 }, rest: { source: 'rest', url: 'http://x', request: '{{text}}', response: '{{embedding}}', apiKey: 'k' } } }),
      canonicalPatch({ embedders: { manual: { dimensions: 4 }, rest: { apiKey: null } } }),
    );
    expect(s.embedders).toEqual({
      manual: { source: 'userProvided', dimensions: 4 },
      rest: { source: 'rest', url: 'http://x', request: '{{text}}', response: '{{embedding}}' },
    });
    expect(applyPatch(s, canonicalPatch({ embedders: { manual: null } }), normalizeExactWords).embedders).toEqual({ rest: s.embedders.rest });
  });

  it('drops the old fields of an embedder whose source changes', () => {
    const s = apply(
      canonicalPatch({ embedders: { e: { source: 'userProvided', dimensions: 3 } } }),
      canonicalPatch({ embedders: { e: { source: 'openAi' } } }),
    );
    expect(s.embedders.e).toEqual({ source: 'openAi' });
  });

  it('keeps the API key, distribution, binary quantization and (for a source with one) the template across a source change, as milli does', () => {
    const quantized = apply(
      canonicalPatch({ embedders: { e: { source: 'userProvided', dimensions: 3, binaryQuantized: true, distribution: { mean: 0.5, sigma: 0.1 } } } }),
      canonicalPatch({ embedders: { e: { source: 'openAi', apiKey: 'sk-xyz' } } }),
    );
    expect(quantized.embedders.e).toEqual({ source: 'openAi', apiKey: 'sk-xyz', distribution: { mean: 0.5, sigma: 0.1 }, binaryQuantized: true });
    expect(mergedSettingsProblem(apply(canonicalPatch({ embedders: { e: { source: 'userProvided', dimensions: 3, binaryQuantized: true } } })), quantized)).toBeUndefined();
    const rest = { url: 'http://x', request: '{{text}}', response: '{{embedding}}', dimensions: 2 };
    const fromOpenAi = apply(
      canonicalPatch({ embedders: { e: { source: 'openAi', apiKey: 'k', model: 'text-embedding-3-small', documentTemplate: '{{doc.a}}' } } }),
      canonicalPatch({ embedders: { e: { source: 'rest', ...rest } } }),
    );
    expect(fromOpenAi.embedders.e).toMatchObject({ source: 'rest', apiKey: 'k', documentTemplate: '{{doc.a}}', ...rest });
    expect(fromOpenAi.embedders.e).not.toHaveProperty('model');
    const toManual = apply(canonicalPatch({ embedders: { e: { source: 'rest', ...rest, documentTemplate: '{{doc.a}}' } } }), canonicalPatch({ embedders: { e: { source: 'userProvided', dimensions: 2 } } }));
    expect(toManual.embedders.e).toEqual({ source: 'userProvided', dimensions: 2 });
  });

  it('keeps a new embedder\'s documentTemplateMaxBytes only with a template, and reads 0 as the default (v1.50 EmbeddingConfig)', () => {
    const rest = { source: 'rest', url: 'http://x', request: '{{text}}', response: '{{embedding}}', dimensions: 2 };
    const created = apply(canonicalPatch({ embedders: { e: { ...rest, documentTemplateMaxBytes: 1000 } } }));
    expect(created.embedders.e).not.toHaveProperty('documentTemplateMaxBytes');
    const templated = apply(canonicalPatch({ embedders: { e: { ...rest, documentTemplate: '{{doc.a}}', documentTemplateMaxBytes: 1000 } } }));
    expect(templated.embedders.e!.documentTemplateMaxBytes).toBe(1000);
    // an existing embedder has its (default) template: the limit applies to it
    const later = apply(canonicalPatch({ embedders: { e: rest } }), canonicalPatch({ embedders: { e: { documentTemplateMaxBytes: 1000 } } }));
    expect(later.embedders.e!.documentTemplateMaxBytes).toBe(1000);
    const zero = apply(canonicalPatch({ embedders: { e: { ...rest, documentTemplate: '{{doc.a}}', documentTemplateMaxBytes: 0 } } }));
    expect(zero.embedders.e).not.toHaveProperty('documentTemplateMaxBytes');
  });

  it('merges chat search parameters one by one', () => {
    const s = apply(
      canonicalPatch({ chat: { description: 'd', searchParameters: { limit: 15, sort: [] } } }),
      canonicalPatch({ chat: { searchParameters: { limit: 16 } } }),
    );
    expect(s.chat.searchParameters).toEqual({ limit: 16, sort: [] });
    expect(s.chat.description).toBe('d');
  });
});

describe('state-dependent checks', () => {
  it('fails a oneTypo above the stored twoTypos, but not when the same batch raises twoTypos', () => {
    const before = defaultSettings();
    const after = applyPatch(before, canonicalPatch({ typoTolerance: { minWordSizeForTypos: { oneTypo: 10 } } }), normalizeExactWords);
    expect(mergedSettingsProblem(before, after)?.toBody()).toMatchObject({
      code: 'invalid_settings_typo_tolerance',
      message:
        '`minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, and `twoTypos` should be ' +
        'greater or equals to `oneTypo` but found `oneTypo: 10` and twoTypos: 9`.',
    });
    const raised = applyPatch(after, canonicalPatch({ typoTolerance: { minWordSizeForTypos: { twoTypos: 12 } } }), normalizeExactWords);
    expect(mergedSettingsProblem(before, raised)).toBeUndefined();
  });

  it('fails new embedders past milli\'s 255 one-byte ids, those the batch removes being free again', () => {
    const embedders = (from: number, count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`e${from + i}`, { source: 'userProvided', dimensions: 1 }]));
    const before = applyPatch(defaultSettings(), canonicalPatch({ embedders: embedders(0, 200) }), normalizeExactWords);
    expect(mergedSettingsProblem(defaultSettings(), before)).toBeUndefined();
    const full = applyPatch(before, canonicalPatch({ embedders: embedders(200, 55) }), normalizeExactWords);
    expect(mergedSettingsProblem(before, full)).toBeUndefined();
    const over = applyPatch(full, canonicalPatch({ embedders: embedders(255, 2) }), normalizeExactWords);
    expect(mergedSettingsProblem(full, over)?.toBody()).toMatchObject({
      code: 'invalid_settings_embedders',
      message: 'Too many embedders in the configuration. Found 257, but limited to 256.',
    });
    const swapped = applyPatch(full, canonicalPatch({ embedders: { e0: null, e255: { source: 'userProvided', dimensions: 1 } } }), normalizeExactWords);
    expect(mergedSettingsProblem(full, swapped)).toBeUndefined();
  });

  it('requires the mandatory fields of an embedder once merged', () => {
    const before = defaultSettings();
    const after = applyPatch(before, canonicalPatch({ embedders: { rest: { source: 'rest', url: 'http://localhost' } } }), normalizeExactWords);
    expect(mergedSettingsProblem(before, after)?.message).toBe(
      '`.embedders.rest`: Missing field `request` (note: this field is mandatory for source `rest`)',
    );
  });

  it('refuses to turn binary quantization off', () => {
    const before = apply(canonicalPatch({ embedders: { m: { source: 'userProvided', dimensions: 2, binaryQuantized: true } } }));
    const after = applyPatch(before, canonicalPatch({ embedders: { m: { binaryQuantized: false } } }), normalizeExactWords);
    expect(mergedSettingsProblem(before, after)?.message).toMatch(/^`\.embedders\.m\.binaryQuantized`: Cannot disable the binary quantization\./);
  });
});
