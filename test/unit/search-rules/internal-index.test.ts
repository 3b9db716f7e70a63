// A dumped `.meili_dsr` document read back as a rule (search-rules/internal-index.ts), and that index's dumped settings.
import { describe, expect, it } from 'vitest';
import { DSR_INDEX_SETTINGS, ruleFromDocument } from '../../../src/search-rules/internal-index.js';

describe('ruleFromDocument', () => {
  it('reads a document of an earlier Quarry dump, its `lastUpdatedAt` ignored', () => {
    expect(ruleFromDocument({ uid: 'r', description: 'd', lastUpdatedAt: '2026-12-04T15:00:00Z', active: false, conditions: {}, actions: [] })).toEqual({
      uid: 'r',
      update: { description: 'd', precedence: null, active: false, conditions: {}, actions: [] },
    });
  });

  it('reads a present `active` that is no boolean as the stored null, an absent one as the default', () => {
    expect(ruleFromDocument({ uid: 'r', active: null })?.update).toMatchObject({ active: null });
    expect(ruleFromDocument({ uid: 'r' })?.update).not.toHaveProperty('active');
  });
});

describe('DSR_INDEX_SETTINGS', () => {
  it('are the settings v1.50 gives `.meili_dsr`: sortable by precedence only', () => {
    expect(DSR_INDEX_SETTINGS.sortableAttributes).toEqual(['precedence']);
  });
});
