// The library answers as the HTTP API does: one scenario (settings whole and one at a time,
// document writes and reads, searches with facets, filters, sort, highlight and crop, facet
// search, multi-search and federation, tasks with their cancelation and deletion, stats, index
// deletion and renaming, the version) runs unchanged through `Quarry` in process and through the
// `meilisearch` client against a real server, and the two JSON transcripts must be equal once what
// legitimately differs (timings, dates, request uids, database sizes) is set aside. Bad input must
// fail with the same error object (code, type, link, message) both ways.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Meilisearch, MeilisearchApiError } from 'meilisearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Quarry, QuarryApiError } from '../../dist/src/library/index.js';
import { readMovies, type Movie } from '../helpers/movies.js';
import { startServer, tempDir, type TestServer } from '../helpers/server.js';

/** The client methods the scenario calls, which both `Quarry` and `Meilisearch` have with these shapes. */
interface Api {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  [method: string]: any;
}

const WAIT = { timeout: 60_000, interval: 10 };

/** Keys whose values differ between two runs of the same calls. */
const VOLATILE = new Set(['processingTimeMs', 'requestUid', 'enqueuedAt', 'startedAt', 'finishedAt', 'duration', 'createdAt', 'updatedAt', 'lastUpdate']);

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !VOLATILE.has(key) && !/(Database|Db)Size$|^databaseSize$|^avgDocumentSize$/.test(key))
      .map(([key, inner]) => [key, normalize(inner)]),
  );
}

/** 1,000 movies with an overview, spread over the whole dataset (more only slows the two indexings). */
function slice(): Movie[] {
  const withOverview = readMovies().filter((movie) => movie.overview !== '');
  const step = Math.max(1, Math.floor(withOverview.length / 1000));
  return withOverview.filter((_, i) => i % step === 0).slice(0, 1000);
}

const SEARCHES: [string | null, Record<string, unknown>][] = [
  ['', { limit: 5 }],
  ['love', { facets: ['genres', 'year'], limit: 10 }],
  ['wrld war', { attributesToHighlight: ['title', 'overview'], attributesToCrop: ['overview'], cropLength: 10 }],
  ['the', { filter: 'year > 2000 AND genres = Drama', sort: ['year:desc'], limit: 7, offset: 3 }],
  ['star', { filter: [['genres = Action', 'genres = Comedy'], 'year < 1990'], showRankingScore: true, showMatchesPosition: true }],
  ['night', { page: 2, hitsPerPage: 5, attributesToRetrieve: ['id', 'title', 'year'] }],
  ['dark knight', { matchingStrategy: 'all', showRankingScoreDetails: true }],
  [null, { sort: ['title:asc'], filter: 'year 1990 TO 1995', facets: ['genres'], highlightPreTag: '[', highlightPostTag: ']', attributesToHighlight: ['*'] }],
];

/** The scenario: the same code for both APIs; every answer is recorded in order. */
async function scenario(api: Api, movies: Movie[]): Promise<unknown[]> {
  const log: unknown[] = [];
  const record = (value: unknown) => log.push(normalize(value));
  const index = api.index('movies');
  record(await api.createIndex('movies', { primaryKey: 'id' }).waitTask(WAIT));
  record(
    await index
      .updateSettings({
        filterableAttributes: ['genres', 'year'],
        sortableAttributes: ['year', 'title'],
        searchableAttributes: ['title', 'overview'],
        typoTolerance: { minWordSizeForTypos: { oneTypo: 4 } },
      })
      .waitTask(WAIT),
  );
  record(await index.addDocuments(movies).waitTask(WAIT));
  record(await index.getSettings());
  for (const [q, params] of SEARCHES) record(await index.search(q, params));
  record(await index.searchForFacetValues({ facetName: 'genres', facetQuery: 'dra' }));
  record(await index.searchForFacetValues({ facetName: 'genres', q: 'love', filter: 'year > 2000' }));
  record(await api.multiSearch({ queries: [{ indexUid: 'movies', q: 'war' }, { indexUid: 'movies', q: 'love', filter: 'year > 2010', limit: 3 }] }));
  record(await api.multiSearch({ federation: { limit: 5 }, queries: [{ indexUid: 'movies', q: 'war' }, { indexUid: 'movies', q: 'peace' }] }));
  record(await index.getDocuments({ limit: 3, offset: 10, fields: ['title', 'year'] }));
  record(await index.getDocuments({ filter: 'year = 1999', limit: 5, sort: ['title:asc'] }));
  record(await index.updateDocuments([{ id: movies[0]!.id, title: 'A title changed' }]).waitTask(WAIT));
  record(await index.deleteDocuments(movies.slice(1, 4).map((movie) => movie.id)).waitTask(WAIT));
  record(await index.deleteDocuments({ filter: 'year < 1950' }).waitTask(WAIT));
  record(await index.search('changed', { limit: 3 }));
  record(await index.getStats());
  record(await api.getStats());
  record(await api.tasks.getTasks({ indexUids: ['movies'], limit: 20 }));
  record(await index.updateSynonyms({ film: ['movie'], movie: ['film'] }).waitTask(WAIT));
  record(await index.updateTypoTolerance({ disableOnWords: ['matrix'] }).waitTask(WAIT));
  record(await index.updateDistinctAttribute('year').waitTask(WAIT));
  record([await index.getSynonyms(), await index.getTypoTolerance(), await index.getDistinctAttribute(), await index.getPagination()]);
  record(await index.search('film', { limit: 4 }));
  record(await index.resetDistinctAttribute().waitTask(WAIT));
  record(await index.getDistinctAttribute());
  record(await index.resetSettings().waitTask(WAIT));
  record(await index.getSettings());
  record(await api.deleteIndex('movies').waitTask(WAIT));
  record(await api.createIndex('left', { primaryKey: 'id' }).waitTask(WAIT));
  record(await api.swapIndexes([{ indexes: ['left', 'right'], rename: true }]).waitTask(WAIT));
  record(await api.getRawIndexes());
  record(await api.tasks.cancelTasks({ statuses: ['enqueued'] }).waitTask(WAIT));
  record(await api.tasks.deleteTasks({ uids: [0, 1], types: ['indexCreation'] }).waitTask(WAIT));
  record(await api.tasks.getTasks({ from: 5, limit: 3, reverse: true }));
  record(await api.getVersion());
  return log;
}

/** Calls that must fail, each against an index `bad` with a few documents. */
const BAD_CALLS: [string, (api: Api) => Promise<unknown>][] = [
  ['negative limit', (api) => api.index('bad').search('x', { limit: -1 })],
  ['unknown search parameter', (api) => api.index('bad').search('x', { nope: 1 })],
  ['filter syntax', (api) => api.index('bad').search('x', { filter: 'year >' })],
  ['sort on an attribute that is not sortable', (api) => api.index('bad').search('x', { sort: ['title:asc'] })],
  ['missing index', (api) => api.index('nowhere').search('x')],
  ['unknown ranking rule', (api) => api.index('bad').updateSettings({ rankingRules: ['nope'] })],
  ['settings value of the wrong type', (api) => api.index('bad').updateSettings({ filterableAttributes: 'year' })],
  ['one setting of the wrong type', (api) => api.index('bad').updateFilterableAttributes('year')],
  ['one setting with an unknown key', (api) => api.index('bad').updateTypoTolerance({ nope: true })],
  ['invalid index uid', (api) => api.index('bad uid!').addDocuments([{ id: 1 }])],
  ['empty deletion filter', (api) => api.index('bad').deleteDocuments({ filter: '' })],
  ['negative documents limit', (api) => api.index('bad').getDocuments({ limit: -2 })],
  ['documents filter on an attribute that is not filterable', (api) => api.index('bad').getDocuments({ filter: 'title = x' })],
  ['facet search on an attribute that is not filterable', (api) => api.index('bad').searchForFacetValues({ facetName: 'title' })],
  ['multi-search query of the wrong type', (api) => api.multiSearch({ queries: [{ indexUid: 'bad', q: 1 }] })],
  ['unknown task status', (api) => api.tasks.getTasks({ statuses: ['nope'] })],
  ['unknown task', (api) => api.tasks.getTask(999_999)],
  ['index uid missing from creation', (api) => api.createIndex('')],
];

async function errorsOf(api: Api): Promise<unknown[]> {
  await api.index('bad').addDocuments([{ id: 1, title: 'x', year: 2000 }], { primaryKey: 'id' }).waitTask(WAIT);
  const out: unknown[] = [];
  for (const [name, call] of BAD_CALLS) {
    try {
      await call(api);
      out.push({ name, error: null });
    } catch (err) {
      const body = err instanceof QuarryApiError || err instanceof MeilisearchApiError ? err.cause : String(err);
      out.push({ name, error: body });
    }
  }
  // a failure found when the task runs: both record the same task error
  const failed = await api.index('bad').addDocuments([{ title: 'no id' }]).waitTask(WAIT);
  out.push({ name: 'task error', error: failed.error });
  return out;
}

describe('the library and the HTTP API', () => {
  let server: TestServer;
  let client: Meilisearch;
  let quarry: Quarry;
  let libraryDir: string;

  beforeAll(async () => {
    libraryDir = tempDir();
    [server, quarry] = await Promise.all([startServer(), Quarry.open({ dbPath: path.join(libraryDir, 'data.ms'), logLevel: 'WARN' })]);
    client = new Meilisearch({ host: server.url });
  });

  afterAll(async () => {
    await Promise.all([server?.dispose(), quarry?.close()]);
    rmSync(libraryDir, { recursive: true, force: true });
  });

  it('give the same answers to the same settings, writes, searches and reads', async () => {
    const movies = slice();
    const [overHttp, inProcess] = await Promise.all([scenario(client, movies), scenario(quarry, movies)]);
    expect(inProcess.length).toBe(overHttp.length);
    for (let i = 0; i < overHttp.length; i++) expect(inProcess[i], `answer ${i}`).toEqual(overHttp[i]);
    // not vacuous: the searches found movies and the facets counted them
    expect(JSON.stringify(inProcess)).toContain('"facetDistribution":{"genres"');
    expect(JSON.stringify(inProcess)).toContain('<em>');
  }, 120_000);

  it('refuse bad input with the same error objects', async () => {
    const [overHttp, inProcess] = await Promise.all([errorsOf(client), errorsOf(quarry)]);
    expect(inProcess).toEqual(overHttp);
    for (const { name, error } of inProcess as { name: string; error: { code?: string } | null }[]) {
      expect(error?.code, name).toMatch(/^[a-z_]+$/);
    }
  }, 60_000);
});
