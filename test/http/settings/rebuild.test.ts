// A settings change rebuilds only the index updaters whose derived data it alters
// (settings/diff.ts, each updater's `shape`), and the index it leaves answers as one built with
// the new settings from the start: every search below (words, prefixes, tokens, stop words,
// filters, sorts, geo, distinct, facets) gives the same answer on both. So does a word index
// rebuilt from enough stored documents for the extraction workers to extract them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, uniqueUid, waitTask } from '../../helpers/api.js';
import { readMovies } from '../../helpers/movies.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.dispose();
});

const GENRES = ['drama', 'horror', 'comedy'];
const WORDS = ['the', 'river', 'a', 'rock&roll', 'C#', 'J.R.R.', 'Tolkien', 'lumière', 'été', 'dog', 'dogs', 'night', '2024'];
const DOCS = Array.from({ length: 90 }, (_, i) => ({
  id: i,
  title: `${WORDS[i % WORDS.length]} ${WORDS[(i * 7 + 3) % WORDS.length]} ${WORDS[(i * 5 + 1) % WORDS.length]}`,
  overview: `${WORDS[(i * 3 + 2) % WORDS.length]} of ${WORDS[(i * 11 + 5) % WORDS.length]} and the ${WORDS[(i * 13) % WORDS.length]}`,
  genre: GENRES[i % 3],
  tags: [`t${i % 4}`, `t${i % 5}`],
  year: 1990 + ((i * 17) % 30),
  sku: `s${i % 20}`,
  _geo: { lat: 45 + (i % 10) / 10, lng: 5 + (i % 7) / 10 },
}));

const SEARCHES: Record<string, unknown>[] = [
  { q: 'river' },
  { q: 'the river' },
  { q: 'tolk' },
  { q: 'dog' },
  { q: 'rock' },
  { q: 'c#' },
  { q: 'J.R.R.' },
  { q: 'lumiere ete' },
  { q: '2024' },
  { q: 'a the' },
  { q: 'night', filter: 'genre = drama' },
  { q: '', filter: 'year > 2000 AND tags = t1' },
  { q: '', sort: ['year:asc', 'id:desc'] },
  { q: 'dog', sort: ['_geoPoint(45.5, 5.3):asc'] },
  { q: '', filter: '_geoRadius(45.5, 5.3, 20000)' },
  { q: '', facets: ['genre', 'tags', 'year'] },
  { q: 'river', distinct: 'genre' },
  { q: '', limit: 40 },
];

/** Every answer of SEARCHES on `uid`, without its timing, request id and uid. */
async function answers(uid: string): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const body of SEARCHES) {
    const reply = await call(server, 'POST', `/indexes/${uid}/search`, { attributesToRetrieve: ['id'], ...body });
    const { processingTimeMs: _, requestUid: __, ...rest } = reply.body as Record<string, unknown>;
    // an error names the index
    out.push({ body, status: reply.status, answer: JSON.parse(JSON.stringify(rest).replaceAll(uid, '[uid]')) as unknown });
  }
  return out;
}

/** The steps the task's batch went through (its progress trace). */
async function stepsOf(task: { batchUid: number }): Promise<string[]> {
  const batch = (await call(server, 'GET', `/batches/${task.batchUid}`)).body as { stats: { progressTrace: Record<string, string> } };
  return Object.keys(batch.stats.progressTrace)
    .filter((step) => step.startsWith('processing tasks > indexing > '))
    .map((step) => step.slice('processing tasks > indexing > '.length));
}

/** `run`, for a task that may take more than its 10 s on a slow machine. */
async function runLong(method: string, path: string, body: unknown): Promise<any> {
  return waitTask(server, (await call(server, method, path, body)).body.taskUid, 60_000);
}

async function indexWith(settings: Record<string, unknown>, docs: readonly object[] = DOCS): Promise<string> {
  const uid = uniqueUid('rebuild');
  expect((await run(server, 'PATCH', `/indexes/${uid}/settings`, settings)).status).toBe('succeeded');
  expect((await runLong('POST', `/indexes/${uid}/documents?primaryKey=id`, docs)).status).toBe('succeeded');
  return uid;
}

const BASE = { filterableAttributes: ['genre'], rankingRules: ['words', 'typo', 'proximity', 'attributeRank', 'sort', 'exactness'] };
const FACETS = 'extracting facets';
const WORDS_STEP = 'extracting words';

describe.each([
  { change: { searchableAttributes: ['title'] }, rebuilt: [WORDS_STEP] },
  { change: { searchableAttributes: ['overview', 'title'] }, rebuilt: [WORDS_STEP], from: { searchableAttributes: ['overview'] } },
  { change: { searchableAttributes: ['overview', 'title'] }, rebuilt: [], from: { searchableAttributes: ['title', 'overview'] } },
  { change: { filterableAttributes: ['genre', 'tags', 'year', '_geo'] }, rebuilt: [FACETS] },
  { change: { filterableAttributes: [{ attributePatterns: ['year'], features: { filter: { equality: true, comparison: true } } }] }, rebuilt: [FACETS] },
  { change: { sortableAttributes: ['year', 'id', '_geo'] }, rebuilt: [FACETS] },
  { change: { distinctAttribute: 'sku' }, rebuilt: [FACETS] },
  { change: { rankingRules: ['words', 'year:desc', 'typo'] }, rebuilt: [FACETS] },
  { change: { stopWords: ['the', 'a', 'of'] }, rebuilt: [WORDS_STEP] },
  { change: { separatorTokens: ['&'], nonSeparatorTokens: ['#'] }, rebuilt: [WORDS_STEP] },
  { change: { dictionary: ['J.R.R.'] }, rebuilt: [WORDS_STEP] },
  { change: { localizedAttributes: [{ attributePatterns: ['overview'], locales: ['fra'] }] }, rebuilt: [WORDS_STEP] },
  { change: { prefixSearch: 'disabled' }, rebuilt: [WORDS_STEP] },
  { change: { proximityPrecision: 'byAttribute', typoTolerance: { disableOnNumbers: true, disableOnAttributes: ['title'] }, facetSearch: false }, rebuilt: [] },
])('the settings change $change', ({ change, rebuilt, from }) => {
  it(`rebuilds ${rebuilt.length === 0 ? 'nothing' : rebuilt.join(' and ')}, and the index answers as one built with the new settings`, async () => {
    const changed = await indexWith({ ...BASE, ...from });
    const task = await run(server, 'PATCH', `/indexes/${changed}/settings`, change);
    expect(task.status).toBe('succeeded');
    // the vector store reconciles itself at every settings write
    expect(await stepsOf(task)).toEqual([...rebuilt, 'extracting embeddings', 'finalizing']);
    const fresh = await indexWith({ ...BASE, ...from, ...change });
    expect(await answers(changed)).toEqual(await answers(fresh));
  });
});

describe('a word index rebuilt from 6,000 stored movies (extracted by the extraction workers)', () => {
  it('answers as one built with the new settings, searches on every field and prefix included', async () => {
    const movies = readMovies().slice(0, 6_000);
    const from = { searchableAttributes: ['title'], filterableAttributes: ['genres'] };
    const change = { searchableAttributes: ['overview', 'title'], stopWords: ['the', 'of'], nonSeparatorTokens: ['-'] };
    const changed = await indexWith(from, movies);
    const task = await runLong('PATCH', `/indexes/${changed}/settings`, change);
    expect(task.status).toBe('succeeded');
    expect(await stepsOf(task)).toEqual([WORDS_STEP, 'extracting embeddings', 'finalizing']);
    const fresh = await indexWith({ ...from, ...change }, movies);
    const queries = ['the dark knight', 'love', 'star wa', 'spider-man', 'of mice', 'war', 'detective in new york', 'christmas', 'alien', 'zombie'];
    for (const q of queries) {
      for (const body of [{ q }, { q, facets: ['genres'], limit: 50 }, { q, matchingStrategy: 'all' }]) {
        const [a, b] = await Promise.all([changed, fresh].map(async (uid) => (await call(server, 'POST', `/indexes/${uid}/search`, { attributesToRetrieve: ['id'], ...body })).body));
        expect([body, a.hits, a.estimatedTotalHits, a.facetDistribution]).toEqual([body, b.hits, b.estimatedTotalHits, b.facetDistribution]);
      }
    }
  }, 120_000);
});
