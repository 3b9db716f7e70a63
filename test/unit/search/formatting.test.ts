// Highlighting and cropping a page through the search service: a page of large documents is
// formatted a few hits at a time, with turns for the event loop between them, as its hits' views
// are built.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { searchResponse } from '../../../src/search/single.js';
import { mapInSlices } from '../../../src/search/formatting.js';
import type { SearchHit } from '../../../src/engine/search/search.js';
import type { SearchQuery } from '../../../src/search/query.js';
import { searchFixtures, type SearchFixture } from './fixture.js';

const openFixture = searchFixtures();

const WORDS = ['batman', 'robin', 'gotham', 'joker', 'alfred', 'wayne', 'cave', 'night'];

/** 12 documents of ~190 KB of text each: 2.3 MB on the page, past the 1 MiB from which it is sliced. */
function openLarge(): SearchFixture {
  const docs = Array.from({ length: 12 }, (_, id) => ({
    id,
    text: Array.from({ length: 30_000 }, (_, i) => WORDS[(id * 3 + i * 5) % 8]).join(' '),
  }));
  return openFixture({ comics: { settings: {}, docs } });
}

/** Runs `work` while counting the turns the event loop takes meanwhile. */
async function countingTurns<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let done = false;
  const turn = () => {
    if (done) return;
    turns++;
    setImmediate(turn);
  };
  setImmediate(turn);
  const result = await work();
  done = true;
  return { result, turns };
}

const search = async (f: SearchFixture, query: SearchQuery) => (await searchResponse(f.ctx, Caller.open(), 'comics', query, 'request-uid', false)).body as { hits: Record<string, unknown>[] };

describe('formatting a page of large documents', () => {
  it('gives the event loop turns between groups of hits, and formats each hit as it would alone', async () => {
    const f = openLarge();
    const query: SearchQuery = { q: 'joker', limit: 12, attributesToHighlight: ['text'], showMatchesPosition: true };
    const { result, turns } = await countingTurns(() => search(f, query));
    expect(result.hits).toHaveLength(12);
    expect(turns).toBeGreaterThan(1);
    for (const [offset, hit] of result.hits.entries()) {
      expect(String((hit._formatted as { text: string }).text)).toContain('<em>joker</em>');
      // a page of one hit is formatted in one piece
      const alone = await search(f, { ...query, limit: 1, offset });
      expect(alone.hits[0]).toEqual(hit);
    }
  });
});

describe('building the views of a page', () => {
  const hits: SearchHit[] = [1, 2, 3].map((docid) => ({ docid, score: 1, details: [] }));
  const busy = (ms: number) => {
    const until = performance.now() + ms;
    while (performance.now() < until);
  };

  it('gives the event loop a turn between two hits once a time slice has passed, views in hit order', async () => {
    const { result, turns } = await countingTurns(() =>
      mapInSlices(hits, (hit) => {
        busy(15);
        return { id: hit.docid };
      }),
    );
    expect(result).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(turns).toBeGreaterThanOrEqual(2);
  });

  it('builds a page of quick views without waiting for a turn', async () => {
    const { result, turns } = await countingTurns(() => mapInSlices(hits, (hit) => ({ id: hit.docid })));
    expect(result).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }]);
    expect(turns).toBe(0);
  });
});
