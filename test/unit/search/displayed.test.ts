import { describe, expect, it } from 'vitest';
import { hitFields } from '../../../src/search/displayed.js';
import { defaultSettings } from '../../../src/types/settings.js';

const doc = { id: 1, title: 'Carol', cast: { lead: 'Cate', other: 'Rooney' }, _vectors: { default: [1, 2] } };

describe('hitFields', () => {
  it('shows every field but _vectors when all are displayed, narrowed by attributesToRetrieve in the document order', () => {
    const settings = defaultSettings();
    expect(hitFields(settings, null)(doc)).toEqual({ id: 1, title: 'Carol', cast: { lead: 'Cate', other: 'Rooney' } });
    expect(Object.keys(hitFields(settings, ['cast.lead', 'id'])(doc))).toEqual(['id', 'cast']);
    expect(hitFields(settings, ['cast.lead', 'id', '_vectors'])(doc)).toEqual({ id: 1, cast: { lead: 'Cate' } });
    expect(hitFields(settings, ['*'])(doc)).toEqual({ id: 1, title: 'Carol', cast: { lead: 'Cate', other: 'Rooney' } });
  });

  it('keeps to the displayed attributes before attributesToRetrieve', () => {
    const settings = { ...defaultSettings(), displayedAttributes: ['title', 'cast'] };
    expect(hitFields(settings, null)(doc)).toEqual({ title: 'Carol', cast: { lead: 'Cate', other: 'Rooney' } });
    expect(hitFields(settings, ['id', 'cast.other'])(doc)).toEqual({ cast: { other: 'Rooney' } });
  });

  it('picks a few fields of a very wide document', () => {
    const wide: Record<string, unknown> = { id: 7 };
    for (let i = 0; i < 65_000; i++) wide[`f${i}`] = i;
    expect(hitFields(defaultSettings(), ['id', 'f64999'])(wide)).toEqual({ id: 7, f64999: 64_999 });
  });
});
