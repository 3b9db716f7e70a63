// An index exported with `quarry export-bundle` answers searches in-process (search/bundle.ts over
// engine/bundle/reader.ts) exactly as the server answers them over HTTP: the movies query set
// (../shared/datasets/movies.queries.json) with facets, highlighting, cropping, match positions
// and ranking scores, plus sort, distinct, page mode, facet search, document reads, semantic and
// hybrid searches (an index with user-provided vectors) and error cases. A movies subset, so the
// indexing stays within seconds (every movie answers the same).
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { openBundle, type IndexBundle } from '../../../src/engine/bundle/reader.js';
import { bundleSearchContext, searchBundle } from '../../../src/search/bundle.js';
import type { SearchContext } from '../../../src/search/context.js';
import type { SearchQuery } from '../../../src/search/query.js';
import { getDocument } from '../../../src/search/documents.js';
import { facetSearch } from '../../../src/search/facet-search.js';
import { searchRequest } from '../../../src/search/search-request.js';
import { Caller } from '../../../src/auth/caller.js';
import { ApiError } from '../../../src/errors/api-error.js';
import { call, run, waitTask } from '../../helpers/api.js';
import { readMovies } from '../../helpers/movies.js';
import { MAIN, startServer, type TestServer } from '../../helpers/server.js';

interface MoviesQuery {
  id: number;
  type: string;
  q: string;
  meiliFilter?: string;
}

const QUERIES = JSON.parse(readFileSync(new URL('../../../../shared/datasets/movies.queries.json', import.meta.url), 'utf8')) as MoviesQuery[];

/** Famous franchises and every fifteenth film: about 2,600 documents. */
const MOVIES = readMovies().filter((movie) => /batman|star wars|matrix|lord of the rings/i.test(movie.title) || movie.id % 15 === 0);

let server: TestServer;
let bundle: IndexBundle;
let ctx: SearchContext;
let pointsCtx: SearchContext;

beforeAll(async () => {
  server = await startServer();
  const settings = await run(server, 'PATCH', '/indexes/movies/settings', {
    searchableAttributes: ['title', 'overview'],
    filterableAttributes: ['genres', 'year'],
    sortableAttributes: ['year'],
  });
  expect(settings.status).toBe('succeeded');
  const added = await waitTask(server, (await call(server, 'POST', '/indexes/movies/documents', MOVIES)).body.taskUid, 50_000);
  expect(added.status).toBe('succeeded');
  await run(server, 'PATCH', '/indexes/points/settings', { filterableAttributes: ['id'], embedders: { e: { source: 'userProvided', dimensions: 2 } } });
  const points = Array.from({ length: 300 }, (_, id) => ({ id, name: `point ${id % 7 === 0 ? 'seven' : 'other'}`, _vectors: { e: [Math.cos(id), Math.sin(id)] } }));
  expect((await run(server, 'POST', '/indexes/points/documents', points)).status).toBe('succeeded');
  // exported while the server is stopped, then searched on the restarted server: the same data
  await server.stop();
  const exported = await Promise.all(
    ['movies', 'points'].map(async (uid) => {
      const out = path.join(server.dbPath, '..', `${uid}.bundle`);
      await promisify(execFile)(process.execPath, [MAIN, 'export-bundle', '--db-path', server.dbPath, '--index', uid, '--out', out]);
      return openBundle(readFileSync(out));
    }),
  );
  bundle = exported[0]!;
  ctx = bundleSearchContext(bundle);
  pointsCtx = bundleSearchContext(exported[1]!);
  server = await startServer({ dbPath: server.dbPath });
}, 60_000);
afterAll(async () => {
  await server?.dispose();
});

/** A response without what differs between two runs of the same search. */
function stable(body: Record<string, unknown>): Record<string, unknown> {
  const { processingTimeMs: _time, requestUid: _uid, ...rest } = body;
  return rest;
}

async function bothAnswer(query: SearchQuery, uid = 'movies', on = ctx): Promise<void> {
  // the server searches in its own process while this one searches the bundle
  const serving = call(server, 'POST', `/indexes/${uid}/search`, query);
  const fromBundle = await searchBundle(on, uid, query);
  const served = await serving;
  expect(served.status, served.text).toBe(200);
  expect(stable(fromBundle)).toEqual(stable(served.body));
  // the same key order too, as a client reading the JSON sees it
  expect(JSON.stringify(stable(fromBundle))).toBe(JSON.stringify(stable(served.body)));
}

describe('an exported bundle', () => {
  it('names its index and holds every document', () => {
    expect(bundle.toc.index).toMatchObject({ uid: 'movies', primaryKey: 'id' });
    expect(bundle.toc.fields).toBeNull();
    expect(bundle.env.documents.getCount()).toBe(MOVIES.length);
  });

  it('answers every query of the movies query set as the server does', async () => {
    for (const { q, meiliFilter } of QUERIES) {
      await bothAnswer({
        q,
        ...(meiliFilter === undefined ? {} : { filter: meiliFilter }),
        facets: ['genres', 'year'],
        attributesToHighlight: ['title'],
        attributesToCrop: ['overview'],
        cropLength: 12,
        showMatchesPosition: true,
        showRankingScore: true,
        limit: 10,
      });
    }
  });

  it('answers sort, distinct, page mode, score details and attribute selection as the server does', async () => {
    await bothAnswer({ q: 'batman', sort: ['year:desc'], showRankingScoreDetails: true });
    await bothAnswer({ q: 'star', distinct: 'year', facets: ['genres'], hitsPerPage: 5, page: 2 });
    await bothAnswer({ q: 'matrx', attributesToRetrieve: ['title', 'year'], attributesToSearchOn: ['title'] });
    await bothAnswer({ q: 'lord of the rings', matchingStrategy: 'all', filter: ['genres = Adventure', ['year < 2002', 'year > 2002']] });
    await bothAnswer({ q: '', filter: 'year 1990 TO 1995', facets: ['*'], offset: 40, limit: 5 });
  });

  it('answers semantic and hybrid searches from its vector store as the server does', async () => {
    await bothAnswer({ vector: [1, 0], hybrid: { embedder: 'e', semanticRatio: 1 }, showRankingScore: true, limit: 5 }, 'points', pointsCtx);
    await bothAnswer({ q: 'seven', vector: [0, 1], hybrid: { embedder: 'e', semanticRatio: 0.5 }, filter: 'id > 20', retrieveVectors: true, limit: 5 }, 'points', pointsCtx);
  });

  it('answers facet searches and document reads as the server does', async () => {
    for (const request of [{ facetName: 'genres', facetQuery: 'dra' }, { facetName: 'year', q: 'batman', filter: 'year > 1990' }]) {
      const served = await call(server, 'POST', '/indexes/movies/facet-search', request);
      expect(served.status, served.text).toBe(200);
      const { processingTimeMs: _served, ...expected } = served.body;
      const { processingTimeMs: _bundle, ...answered } = (await facetSearch(ctx, Caller.open(), 'movies', request)).body;
      expect(answered).toEqual(expected);
    }
    const id = String(MOVIES[7]!.id);
    expect(getDocument(ctx, 'movies', id, ['title', 'genres'], false)).toEqual((await call(server, 'GET', `/indexes/movies/documents/${id}?fields=title,genres`)).body);
  });

  it('refuses what the server refuses, with the same error', async () => {
    const served = await call(server, 'POST', '/indexes/movies/search', { q: 'x', sort: ['title:asc'] });
    expect(served.status).toBe(400);
    const refused = await searchBundle(ctx, 'movies', { q: 'x', sort: ['title:asc'] }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    expect({ message: (refused as ApiError).message, code: (refused as ApiError).code }).toEqual({ message: served.body.message, code: served.body.code });
  });

  it('refuses a search asking for the network rather than answer it from the bundle alone', async () => {
    const served = await call(server, 'POST', '/indexes/movies/search', { q: 'x', useNetwork: true });
    const refused = await searchBundle(ctx, 'movies', { q: 'x', useNetwork: true }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ApiError);
    // the bundle's features are the instance's: without `network`, the server's own refusal
    expect({ message: (refused as ApiError).message, code: (refused as ApiError).code }).toEqual({ message: served.body.message, code: served.body.code });
    const enabled = { ...ctx, features: { enabled: () => true } };
    expect(((await searchBundle(enabled, 'movies', { q: 'x', useNetwork: true }).catch((err: unknown) => err)) as ApiError).code).toBe('invalid_search_use_network');
    expect((await searchBundle(enabled, 'movies', { q: 'x', useNetwork: false })).hits).toBeDefined();
  });

  it('is refused by the command for a db path without a database (exit 1, nothing created) or bad arguments (exit 2)', async () => {
    const missing = path.join(server.dbPath, '..', 'no-such-db');
    const failed = await promisify(execFile)(process.execPath, [MAIN, 'export-bundle', '--db-path', missing, '--index', 'movies', '--out', `${missing}.bundle`]).catch((err: unknown) => err);
    expect(failed).toMatchObject({ code: 1, stderr: `There is no Quarry database at ${missing}.\n` });
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(`${missing}.bundle`)).toBe(false);
    const bad = await promisify(execFile)(process.execPath, [MAIN, 'export-bundle', '--index', 'movies']).catch((err: unknown) => err);
    expect(bad).toMatchObject({ code: 2 });
    expect((bad as { stderr: string }).stderr).toContain("the following required arguments were not provided:\n  --out <FILE>");
  });

  it('holds only its own index', async () => {
    const refused = await searchRequest(ctx, Caller.open(), 'other', { q: 'x' }, false).catch((err: unknown) => err);
    expect((refused as ApiError).code).toBe('index_not_found');
  });
});
