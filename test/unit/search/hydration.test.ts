// The foreign-key document join (search/hydration.ts): ids under a foreign-key field, at any
// depth and in arrays, become the foreign documents' displayed fields, each read once a search.
import { describe, expect, it } from 'vitest';
import { hydrateHits } from '../../../src/search/hydration.js';
import { defaultSettings } from '../../../src/types/settings.js';
import { searchFixtures } from './fixture.js';

const openFixture = searchFixtures();

const authors = { settings: { displayedAttributes: ['id', 'name'] }, docs: [{ id: 'a1', name: 'Alice', secret: 'x' }, { id: 7, name: 'Seven' }] };
const settings = { ...defaultSettings(), foreignKeys: [{ foreignIndexUid: 'authors', fieldName: 'meta.author' }] };

describe('hydrateHits', () => {
  it('joins ids under a nested foreign-key field, in arrays too, in hits and _formatted', async () => {
    const { ctx } = openFixture({ authors }, ['foreignKeys']);
    const hits: Record<string, unknown>[] = [
      { title: 't', meta: { author: ['a1', 7, 'missing', { id: 'a1' }, true], other: 'a1' }, _formatted: { meta: { author: 'a1' } } },
      { 'meta.author': 'a1' },
    ];
    await hydrateHits(ctx, settings, hits);
    const alice = { id: 'a1', name: 'Alice' };
    expect(hits).toEqual([
      { title: 't', meta: { author: [alice, { id: 7, name: 'Seven' }, {}, { id: alice }, true], other: 'a1' }, _formatted: { meta: { author: alice } } },
      { 'meta.author': alice },
    ]);
    // read and shaped once per search, however many ids name it
    expect(hits[1]!['meta.author']).toBe((hits[0]!.meta as { author: unknown[] }).author[0]);
  });

  it('joins nothing while the feature is off', async () => {
    const { ctx } = openFixture({ authors });
    const hits = [{ meta: { author: 'a1' } }];
    await hydrateHits(ctx, settings, hits);
    expect(hits).toEqual([{ meta: { author: 'a1' } }]);
  });
});
