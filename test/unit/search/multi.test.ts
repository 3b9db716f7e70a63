// Multi-search without federation: one single-search response per query, errors located in their query.
import { describe, expect, it } from 'vitest';
import { Caller } from '../../../src/auth/caller.js';
import { multiSearch } from '../../../src/search/multi.js';
import { rejection } from './rejection.js';
import { searchFixtures } from './fixture.js';

/** The answer as an object: these tests' answers are short (a long one is written in pieces, streamed-answer.ts). */
const multi = async (...args: Parameters<typeof multiSearch>) => (await multiSearch(...args)) as { results: Record<string, any>[] };

const openFixture = searchFixtures();

function open() {
  return openFixture({
    books: { docs: [{ id: 1, title: 'Batman: Year One' }, { id: 2, title: 'Dune' }] },
    films: { docs: [{ id: 1, title: 'Batman' }] },
  });
}

describe('multiSearch', () => {
  it('answers a search response per query, in request order, each naming its index and sharing one requestUid', async () => {
    const { results } = await multi(open().ctx, Caller.open(), [{ indexUid: 'films', q: 'batman' }, { indexUid: 'books', q: 'dune', page: 1 }], false);
    expect(results.map((result) => Object.keys(result))).toEqual([
      ['indexUid', 'hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid'],
      ['indexUid', 'hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid'],
    ]);
    expect(results.map((result) => result.hits)).toEqual([[{ id: 1, title: 'Batman' }], [{ id: 2, title: 'Dune' }]]);
    expect(results[0]!.requestUid).toBe(results[1]!.requestUid);
  });

  it('prefixes the failing query to its error', async () => {
    expect((await rejection(() => multi(open().ctx, Caller.open(), [{ indexUid: 'books' }, { indexUid: 'films', sort: ['title:asc'] }], false))).message).toMatch(
      /^Inside `\.queries\[1\]`: Index `films`: Attribute `title` is not sortable\./,
    );
  });

  it('refuses federationOptions without federation', async () => {
    expect((await rejection(() => multi(open().ctx, Caller.open(), [{ indexUid: 'books', federationOptions: { weight: 2 } }], false))).code).toBe(
      'invalid_multi_search_federation_options',
    );
  });
});
