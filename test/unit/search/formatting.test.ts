// Highlighting and cropping a page through the search service: a page of large documents is
// formatted a few hits at a time, with turns for the event loop between them, as its hits' views
// are built; a document of a megabyte or more, on the formatting thread the context gives.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { searchResponse } from '../../../src/search/single.js';
import { mapInSlices, type FormatElsewhere } from '../../../src/search/formatting.js';
import { formatStored } from '../../../src/engine/search/format-stored.js';
import { ApiError } from '../../../src/errors/api-error.js';
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

describe('formatting a document of a megabyte or more', () => {
  /** Two documents of ~1.2 MB (one a float field's) and two small ones. */
  function openMixed(): SearchFixture {
    const text = (id: number, words: number) => Array.from({ length: words }, (_, i) => WORDS[(id * 3 + i * 5) % 8]).join(' ');
    const docs = [
      { id: 0, text: text(0, 200_000), year: 1.0, tags: ['joker', 'night'] },
      { id: 1, text: text(1, 40), year: 2 },
      { id: 2, text: text(2, 200_000), nested: { quote: 'why so serious joker' } },
      { id: 3, text: text(3, 40) },
    ];
    return openFixture({ comics: { settings: {}, docs } });
  }

  /** A formatting "thread" that runs the thread's own function here, and notes the sizes it was given. */
  function elsewhere(sizes: number[]): FormatElsewhere {
    return async (job) => {
      sizes.push(job.bytes.length);
      return formatStored(structuredClone(job));
    };
  }

  const asked = (f: SearchFixture, formatElsewhere: FormatElsewhere | undefined, query: SearchQuery) =>
    searchResponse({ ...f.ctx, ...(formatElsewhere === undefined ? {} : { formatElsewhere }) }, Caller.open(), 'comics', query, 'request-uid', false);

  it('sends only the large documents, from their stored bytes, and answers what formatting here answers', async () => {
    const f = openMixed();
    const queries: SearchQuery[] = [
      { q: 'joker', attributesToHighlight: ['*'], showMatchesPosition: true },
      { q: 'joker nigh', attributesToCrop: ['text'], cropLength: 7, attributesToHighlight: ['tags', 'nested.quote'], highlightPreTag: '[', highlightPostTag: ']' },
      { q: '"gotham night"', attributesToCrop: ['*'], cropMarker: '~', locales: ['eng'] },
    ];
    for (const query of queries) {
      const sizes: number[] = [];
      const away = await asked(f, elsewhere(sizes), query);
      expect([query.q, (away.body.hits as unknown[]).length, sizes.length]).toEqual([query.q, 4, 2]);
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(1024 * 1024);
      expect(away.body).toEqual({ ...(await asked(f, undefined, query)).body, processingTimeMs: away.body.processingTimeMs });
    }
  });

  it('refuses a page whose markup a large document takes past the budget, as formatting here does', async () => {
    const f = openMixed();
    const query: SearchQuery = { q: 'joker', attributesToHighlight: ['text'], highlightPreTag: '<'.repeat(3_000) };
    const here = await asked(f, undefined, query).catch((err: unknown) => err);
    const away = await asked(f, elsewhere([]), query).catch((err: unknown) => err);
    expect(here).toBeInstanceOf(ApiError);
    expect(away).toBeInstanceOf(ApiError);
    expect((away as ApiError).code).toBe('invalid_search_highlight_pre_tag');
    expect((away as ApiError).message).toBe((here as ApiError).message);
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
