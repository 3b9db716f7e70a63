// Search through the real server with the `meilisearch` client, on a subset of the shared movies
// dataset (read in place): relevance as a user would judge it, response shapes, pagination,
// attribute selection, filters, sort and ranking scores.
import { Meilisearch, type Index } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../helpers/api.js';
import { readMovies, type Movie } from '../../helpers/movies.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const FAMOUS = /batman|jurassic|harry potter|terminator|godfather/i;

/** Famous franchises plus every fifth film since 1988: about 2,000 documents. */
function moviesSubset(): Movie[] {
  return readMovies().filter((movie) => FAMOUS.test(movie.title) || (movie.year >= 1988 && movie.id % 5 === 0));
}

let server: TestServer;
let client: Meilisearch;
let movies: Index<Movie>;
let subsetSize = 0;

beforeAll(async () => {
  server = await startServer();
  client = new Meilisearch({ host: server.url });
  movies = client.index<Movie>('movies');
  const docs = moviesSubset();
  subsetSize = docs.length;
  await client.tasks.waitForTask((await movies.addDocuments(docs)).taskUid, { interval: 20, timeout: 60_000 });
  const settings = await movies.updateSettings({
    searchableAttributes: ['title', 'overview'],
    filterableAttributes: ['genres', 'year'],
    sortableAttributes: ['year'],
  });
  const task = await client.tasks.waitForTask(settings.taskUid, { interval: 20, timeout: 60_000 });
  expect(task.status).toBe('succeeded');
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

const titles = (hits: readonly Movie[]) => hits.map((hit) => hit.title);

describe('relevance on movies', () => {
  it('puts the film whose title is exactly the query first', async () => {
    const { hits } = await movies.search('batman returns');
    expect(hits[0]!.title).toBe('Batman Returns');
  });

  it('finds a title with one typo', async () => {
    const { hits } = await movies.search('jurasic park');
    expect(hits[0]!.title).toBe('Jurassic Park');
  });

  it('finds a long word with two typos', async () => {
    const { hits } = await movies.search('tarminatr', { limit: 5 });
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.title.toLowerCase()).toContain('terminator');
  });

  it('completes the last word while the user types', async () => {
    const { hits } = await movies.search('harry pot', { limit: 8 });
    expect(hits).toHaveLength(8);
    for (const hit of hits) expect(hit.title).toMatch(/^Harry Potter/);
  });

  it('ranks the film where the words are together first on a multi-word query', async () => {
    const { hits } = await movies.search('prisoner of azkaban');
    expect(hits[0]!.title).toBe('Harry Potter and the Prisoner of Azkaban');
  });

  it('applies a filter', async () => {
    const { hits, estimatedTotalHits } = await movies.search('batman', { filter: 'year > 2000' });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => hit.year > 2000)).toBe(true);
    const all = await movies.search('batman');
    expect(estimatedTotalHits).toBeLessThan(all.estimatedTotalHits);
  });

  it('sorts by a sortable attribute', async () => {
    const { hits } = await movies.search('godfather', { sort: ['year:desc'] });
    const years = hits.filter((hit) => /godfather/i.test(hit.title)).map((hit) => hit.year);
    expect(years.length).toBeGreaterThan(2);
    expect([...years].sort((a, b) => b - a)).toEqual(years);
  });

  it('returns one film per distinct value', async () => {
    const { hits } = await movies.search('batman', { distinct: 'year', limit: 50 });
    const years = hits.map((hit) => hit.year);
    expect(new Set(years).size).toBe(years.length);
  });

  it('answers GET like POST', async () => {
    const post = await movies.search('terminator', { limit: 3, attributesToRetrieve: ['title'] });
    const get = await movies.searchGet('terminator', { limit: 3, attributesToRetrieve: ['title'] });
    expect(get.hits).toEqual(post.hits);
    expect(get.estimatedTotalHits).toBe(post.estimatedTotalHits);
  });
});

describe('response shapes', () => {
  it('offset mode has limit, offset and estimatedTotalHits, in Meilisearch key order', async () => {
    const reply = await call(server, 'POST', '/indexes/movies/search', { q: 'batman', limit: 2, offset: 1 });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(['hits', 'query', 'processingTimeMs', 'limit', 'offset', 'estimatedTotalHits', 'requestUid']);
    expect(reply.body).toMatchObject({ query: 'batman', limit: 2, offset: 1 });
    expect(reply.body.hits).toHaveLength(2);
    expect(reply.body.requestUid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('page mode has hitsPerPage, page, totalPages and totalHits instead', async () => {
    const first = await movies.search('batman', { hitsPerPage: 5, page: 1 });
    expect(Object.keys(first)).toEqual(['hits', 'query', 'processingTimeMs', 'hitsPerPage', 'page', 'totalPages', 'totalHits', 'requestUid']);
    expect(first.totalPages).toBe(Math.ceil(first.totalHits / 5));
    const second = await movies.search('batman', { hitsPerPage: 5, page: 2 });
    expect(titles(second.hits)).not.toContain(first.hits[0]!.title);
    const all = await movies.search('batman', { limit: 10 });
    expect([...titles(first.hits), ...titles(second.hits)]).toEqual(titles(all.hits));
  });

  it('page 0 and hitsPerPage 0 return no hits but still count', async () => {
    const zeroPage = await movies.search('batman', { page: 0 });
    expect(zeroPage.hits).toEqual([]);
    expect(zeroPage.totalHits).toBeGreaterThan(0);
    const zeroSize = await movies.search('batman', { hitsPerPage: 0 });
    expect(zeroSize).toMatchObject({ hits: [], totalPages: 0 });
  });

  it('a placeholder search returns every document in insertion order', async () => {
    const { hits, estimatedTotalHits, query } = await movies.search('', { limit: 3 });
    expect(query).toBe('');
    expect(estimatedTotalHits).toBe(subsetSize);
    const first = await movies.getDocuments({ limit: 3 });
    expect(hits).toEqual(first.results);
  });

  it('retrieves only the asked attributes and never hidden ones', async () => {
    const uid = `movies-hidden-${process.pid}`;
    const index = client.index<Movie>(uid);
    await client.tasks.waitForTask((await index.addDocuments([{ id: 1, title: 'Batman', overview: 'bats', genres: ['Action'], year: 1989 }])).taskUid);
    await client.tasks.waitForTask((await index.updateSettings({ displayedAttributes: ['id', 'title'] })).taskUid);
    expect((await index.search('batman')).hits).toEqual([{ id: 1, title: 'Batman' }]);
    expect((await index.search('batman', { attributesToRetrieve: ['title', 'year'] })).hits).toEqual([{ title: 'Batman' }]);
  });

  it('shows ranking scores and their details on request', async () => {
    const { hits } = await movies.search('batman returns', { showRankingScore: true, showRankingScoreDetails: true, limit: 1 });
    const hit = hits[0]! as Movie & { _rankingScore: number; _rankingScoreDetails: Record<string, { order: number; score: number }> };
    expect(hit._rankingScore).toBeGreaterThan(0.9);
    expect(Object.keys(hit._rankingScoreDetails)).toEqual(['words', 'typo', 'proximity', 'attributeRank', 'wordPosition', 'exactness']);
    expect(hit._rankingScoreDetails.words).toEqual({ order: 0, matchingWords: 2, maxMatchingWords: 2, score: 1 });
    expect(hit._rankingScoreDetails.exactness).toEqual({ order: 5, matchType: 'exactMatch', score: 1 });
    expect(Object.keys(hit).slice(-2)).toEqual(['_rankingScore', '_rankingScoreDetails']);
  });

  it('drops hits under rankingScoreThreshold', async () => {
    const { hits } = await movies.search('batman', { rankingScoreThreshold: 0.99, showRankingScore: true });
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((hit) => (hit as { _rankingScore?: number })._rankingScore! >= 0.99)).toBe(true);
  });

  it('matchingStrategy all requires every word', async () => {
    const last = await movies.search('batman zorglub');
    const all = await movies.search('batman zorglub', { matchingStrategy: 'all' as never });
    expect(last.hits.length).toBeGreaterThan(0);
    expect(all.hits).toEqual([]);
  });

  it('attributesToSearchOn restricts the searched attributes', async () => {
    const everywhere = await movies.search('gotham');
    const titlesOnly = await movies.search('gotham', { attributesToSearchOn: ['title'] });
    expect(everywhere.estimatedTotalHits).toBeGreaterThan(titlesOnly.estimatedTotalHits);
  });

  it('pagination.maxTotalHits caps what can be reached', async () => {
    const uid = `movies-cap-${process.pid}`;
    const index = client.index<Movie>(uid);
    const docs = Array.from({ length: 12 }, (_, i) => ({ id: i + 1, title: `film ${i}`, overview: '', genres: [], year: 2000 }));
    await client.tasks.waitForTask((await index.addDocuments(docs)).taskUid);
    await client.tasks.waitForTask((await index.updateSettings({ pagination: { maxTotalHits: 5 } })).taskUid);
    const { hits, estimatedTotalHits } = await index.search('film', { offset: 3, limit: 10 });
    expect(hits).toHaveLength(2);
    expect(estimatedTotalHits).toBe(12);
  });
});

describe('ranking rules and their details, as milli assembles them', () => {
  it('ranks by no words rule when the rules have no relevancy rule: docid order, score 1, no details', async () => {
    const uid = `rules-none-${process.pid}`;
    const index = client.index(uid);
    await client.tasks.waitForTask((await index.addDocuments([{ id: 1, t: 'quick', n: 2 }, { id: 2, t: 'quick brown fox', n: 1 }])).taskUid);
    await client.tasks.waitForTask((await index.updateSettings({ rankingRules: [], sortableAttributes: ['n'] })).taskUid);
    const none = await index.search('quick fox', { showRankingScore: true, showRankingScoreDetails: true, rankingScoreThreshold: 0.9 });
    expect(none.hits).toEqual([
      { id: 1, t: 'quick', n: 2, _rankingScore: 1, _rankingScoreDetails: {} },
      { id: 2, t: 'quick brown fox', n: 1, _rankingScore: 1, _rankingScoreDetails: {} },
    ]);
    // an asc/desc rule alone ranks by its field, with no words step after it
    await client.tasks.waitForTask((await index.updateSettings({ rankingRules: ['n:asc'] })).taskUid);
    const sorted = await index.search('quick fox', { showRankingScoreDetails: true });
    expect(sorted.hits.map((hit) => hit.id)).toEqual([2, 1]);
    expect(Object.keys(sorted.hits[0]!._rankingScoreDetails!)).toEqual(['n:asc']);
  });

  it('hides the sort details of a nested field whose parent alone is displayed (milli redacts all but a displayed field itself)', async () => {
    const uid = `rules-redact-${process.pid}`;
    const index = client.index(uid);
    await client.tasks.waitForTask((await index.addDocuments([{ id: 1, t: 'apple', m: { x: 1 } }])).taskUid);
    await client.tasks.waitForTask((await index.updateSettings({ displayedAttributes: ['id', 't', 'm'], sortableAttributes: ['m.x'] })).taskUid);
    const { hits } = await index.search('apple', { sort: ['m.x:desc'], showRankingScoreDetails: true });
    const details = hits[0]!._rankingScoreDetails as Record<string, unknown>;
    const hidden = Object.keys(details).filter((key) => /^<hidden-rule-\d+>$/.test(key));
    expect(hidden).toHaveLength(1);
    expect(details[hidden[0]!]).toMatchObject({ value: '<hidden>' });
    expect(details['m.x:desc']).toBeUndefined();
  });

  it('takes attributesToSearchOn names the index searches or the setting lists, and names the searchable fields when refusing one', async () => {
    const uid = `search-on-${process.pid}`;
    const index = client.index(uid);
    await client.tasks.waitForTask((await index.addDocuments([{ id: 1, details: { title: 'Captain', desc: 'a ship' } }])).taskUid);
    await client.tasks.waitForTask((await index.updateSettings({ searchableAttributes: ['details', 'id', 'notyet'] })).taskUid);
    for (const accepted of [['details'], ['details.title'], ['notyet'], ['details.*']]) {
      expect((await call(server, 'POST', `/indexes/${uid}/search`, { q: 'captain', attributesToSearchOn: accepted })).status, accepted.join()).toBe(200);
    }
    const refused = await call(server, 'POST', `/indexes/${uid}/search`, { q: 'captain', attributesToSearchOn: ['details.nonexistent'] });
    expect(refused.body).toMatchObject({
      code: 'invalid_search_attributes_to_search_on',
      message: `Index \`${uid}\`: Attribute \`details.nonexistent\` is not searchable. Available searchable attributes are: \`details, details.desc, details.title, id\`.`,
    });
  });

  it('takes rankingScoreThreshold=NaN in a GET search as Rust parses it: within the bounds, dropping nothing', async () => {
    const all = await call(server, 'GET', '/indexes/movies/search?q=batman&limit=3');
    const nan = await call(server, 'GET', '/indexes/movies/search?q=batman&limit=3&rankingScoreThreshold=NaN');
    expect(nan.status).toBe(200);
    expect(nan.body.hits).toEqual(all.body.hits);
    for (const refused of ['inf', ' 0.5', '0x1', '1.5']) {
      expect((await call(server, 'GET', `/indexes/movies/search?rankingScoreThreshold=${encodeURIComponent(refused)}`)).body.code, refused).toBe('invalid_search_ranking_score_threshold');
    }
  });
});
