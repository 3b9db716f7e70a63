// Port of Meilisearch's crates/meilisearch/tests/search/pagination.rs: offset mode vs page mode keys,
// page 0 and hitsPerPage 0, exact counts with distinct and with rankingScoreThreshold, and what
// pagination.maxTotalHits does to the counts (search.md §4). Requests the Rust test sends through
// `index.search` go through POST and GET, as there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS, DOCUMENTS_SETTINGS, expectJson, search, searchBoth, seed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await seed(server, 'shared', DOCUMENTS, DOCUMENTS_SETTINGS);
  await seed(
    server,
    'distinct',
    [
      { title: 'Shazam!', id: '287947', distinct: 1 },
      { title: 'Captain Marvel', id: '299537', distinct: 4 },
      { title: 'Escape Room', id: '522681', distinct: 2 },
      { title: 'How to Train Your Dragon: The Hidden World', id: '166428', distinct: 3 },
      { title: 'Glass', id: '450465', distinct: 3 },
    ],
    { rankingRules: ['distinct:asc'], distinctAttribute: 'distinct' },
  );
  await seed(server, 'issue-5274', [
    { id: 1, title: 'Document 1', content: 'This is the first.' },
    { id: 2, title: 'Document 2', content: 'This is the second doc.' },
  ]);
  await seed(
    server,
    'capped',
    [
      { id: 1, title: 'Document 1' },
      { id: 2, title: 'Document 2' },
      { id: 3, title: 'Document 3' },
    ],
    { pagination: { maxTotalHits: 2 } },
  );
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const OFFSET_KEYS = ['limit', 'offset', 'estimatedTotalHits'];
const PAGE_KEYS = ['hitsPerPage', 'page', 'totalPages', 'totalHits'];

function expectKeys(body: object, present: string[], absent: string[]): void {
  for (const key of present) expect(body).toHaveProperty(key);
  for (const key of absent) expect(body).not.toHaveProperty(key);
}

describe('the shared index of DOCUMENTS', () => {
  it('default_search_should_return_estimated_total_hit: offset mode by default', () =>
    searchBoth(server, 'shared', {}, (answer) => expectKeys(answer, OFFSET_KEYS, PAGE_KEYS)));

  it('simple_search: page 1 is page mode, every hit on one page', () =>
    searchBoth(server, 'shared', { page: 1 }, (answer) => {
      expect(answer.hits).toHaveLength(5);
      expectKeys(answer, PAGE_KEYS, OFFSET_KEYS);
      expect([answer.page, answer.totalPages]).toEqual([1, 1]);
    }));

  it('page_zero_should_not_return_any_result: page 0 has no hits but still counts pages', () =>
    searchBoth(server, 'shared', { page: 0 }, (answer) => {
      expect(answer.hits).toHaveLength(0);
      expect(answer).toHaveProperty('totalHits');
      expect([answer.page, answer.totalPages]).toEqual([0, 1]);
    }));

  it('hits_per_page_1: one page per hit', () =>
    searchBoth(server, 'shared', { hitsPerPage: 1 }, (answer) => {
      expect(answer.hits).toHaveLength(1);
      expect([answer.totalHits, answer.page, answer.totalPages]).toEqual([5, 1, 5]);
    }));

  it('hits_per_page_0_should_not_return_any_result: no hits and no pages, hits still counted', () =>
    searchBoth(server, 'shared', { hitsPerPage: 0 }, (answer) => {
      expect(answer.hits).toHaveLength(0);
      expect([answer.totalHits, answer.page, answer.totalPages]).toEqual([5, 1, 0]);
    }));
});

describe('ensure_placeholder_search_hit_count_valid', () => {
  it.each([0, 1, 2, 3, 4])('page %i of a placeholder search counts one hit per distinct value', (page) =>
    searchBoth(server, 'distinct', { page, hitsPerPage: 1 }, (answer) => expect([answer.totalHits, answer.totalPages]).toEqual([4, 4])));
});

// The requests below are POST only, as in pagination.rs (`search_post`).
describe('test_issue_5274', () => {
  it('counts in page mode leave out the hits under rankingScoreThreshold', async () => {
    const scored = await search(server, 'issue-5274', { q: 'doc', page: 1, hitsPerPage: 2, showRankingScore: true });
    const threshold = scored.hits[1]._rankingScore + 0.0001;
    const body = await search(server, 'issue-5274', { q: 'doc', page: 1, hitsPerPage: 1, rankingScoreThreshold: threshold });
    expect(body.requestUid).toMatch(/^[0-9a-f-]{36}$/);
    expectJson(
      { ...body, processingTimeMs: '[ignored]', requestUid: '[uuid]' },
      {
        hits: [{ id: 2, title: 'Document 2', content: 'This is the second doc.' }],
        query: 'doc',
        processingTimeMs: '[ignored]',
        hitsPerPage: 1,
        page: 1,
        totalPages: 1,
        totalHits: 1,
        requestUid: '[uuid]',
      },
    );
  });
});

// Meilisearch's newest pagination.rs (max_total_hits_caps_estimated_and_total_hits, its issue #6482)
// expects 2 for every count. That is a fix made after v1.50, the compatibility target: v1.50 runs
// single searches through the federated path, which caps the hits at maxTotalHits but not the
// counts (search.md §4), so here the counts stay 3.
describe('max_total_hits_caps_estimated_and_total_hits, as v1.50 answers', () => {
  it('offset mode returns at most maxTotalHits hits but counts every match', async () => {
    const body = await search(server, 'capped', { offset: 0, limit: 1 });
    expect(body.hits).toHaveLength(1);
    expect(body.estimatedTotalHits).toBe(3);
  });

  it('page mode counts every match in totalHits and totalPages', async () => {
    const body = await search(server, 'capped', { page: 1, hitsPerPage: 1 });
    expect(body.hits).toHaveLength(1);
    expect([body.totalHits, body.totalPages]).toEqual([3, 3]);
  });
});
