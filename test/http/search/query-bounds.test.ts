// Query bounds through the real server (issue 25, a denial of service): a query word of tens of
// thousands or a million characters, or a `q` of 100,000 words, must answer at once with v1.50's
// rules (a word over 250 bytes matches nothing; only the first 10 terms count, a phrase being one,
// and nothing after the 10th, negations included) while /health keeps answering; in search,
// highlighting, facet search (`q` and `facetQuery`) and multi-search alike. Time bounds are
// generous (the bug took 7 s to minutes): they catch a return of the blow-up, not a slowdown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run, type Reply } from '../../helpers/api.js';
import { readMovies } from '../../helpers/movies.js';
import { whileHealthAnswers } from '../../helpers/responsive.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const WORD_40K = 'a'.repeat(40_000);
const WORD_1M = 'a'.repeat(1_000_000);
const SLOW_MS = 2_000;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  const docs = readMovies()
    .filter((movie, i) => i < 3000 || /batman/i.test(movie.title))
    .map(({ id, title, overview, genres }) => ({ id, title, overview, genres }));
  docs.push({ id: 900_001, title: `${'x'.repeat(250)} pinned`, overview: '', genres: [] });
  await run(server, 'POST', '/indexes/movies/documents', docs);
  await run(server, 'PATCH', '/indexes/movies/settings', { filterableAttributes: ['genres'] });
}, 120_000);
afterAll(async () => {
  await server.dispose();
});

/** One request, timed, while /health keeps being asked (helpers/responsive.ts). */
async function timed(method: string, path: string, body: unknown): Promise<{ reply: Reply; ms: number; slowestHealth: number }> {
  const { result: reply, ms, slowestHealth } = await whileHealthAnswers(server, () => call(server, method, path, body));
  return { reply, ms, slowestHealth };
}

const search = (body: object) => timed('POST', '/indexes/movies/search', body);
const ids = (reply: Reply) => reply.body.hits.map((hit: { id: number }) => hit.id);

describe('one very long query word', () => {
  it.each([
    ['40,000', WORD_40K],
    ['1,000,000', WORD_1M],
  ])('of %s characters matches nothing, at once, while /health answers', async (_, word) => {
    const { reply, ms, slowestHealth } = await search({ q: word });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(reply.body.hits).toEqual([]);
    expect(reply.body.estimatedTotalHits).toBe(0);
    expect(reply.body.query).toBe(word);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(slowestHealth).toBeLessThan(SLOW_MS);
  });

  it('counts as a term matching nothing, which the words rule drops', async () => {
    const long = (await search({ q: `batman ${WORD_40K}`, limit: 50 })).reply;
    const unknown = (await call(server, 'POST', '/indexes/movies/search', { q: 'batman qqzzqqzzq', limit: 50 })).body;
    expect(long.status).toBe(200);
    expect(long.body.hits.length).toBeGreaterThan(0);
    expect(ids(long)).toEqual(unknown.hits.map((hit: { id: number }) => hit.id));
    const all = (await search({ q: `batman ${WORD_40K}`, matchingStrategy: 'all' })).reply;
    expect(all.body.hits).toEqual([]);
  });

  it('matches at 250 bytes and not past them', async () => {
    const at = (await search({ q: 'x'.repeat(250) })).reply;
    expect(ids(at)).toEqual([900_001]);
    // one typo away from the indexed word, but a word past 250 bytes derives nothing
    const past = (await search({ q: 'x'.repeat(251) })).reply;
    expect(past.body.hits).toEqual([]);
  });

  it('highlights, crops and positions only the other words', async () => {
    const { reply, ms } = await search({
      q: `batman ${WORD_40K}`,
      attributesToHighlight: ['*'],
      attributesToCrop: ['overview'],
      cropLength: 5,
      showMatchesPosition: true,
      limit: 3,
    });
    expect(reply.status).toBe(200);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(reply.body.hits.length).toBeGreaterThan(0);
    for (const hit of reply.body.hits) {
      expect(JSON.stringify(hit._formatted)).not.toContain(`<em>${'a'.repeat(10)}`);
      expect(hit._formatted.title.toLowerCase()).toContain('<em>batman</em>');
    }
  });

  it('in a phrase, a negation or attributesToSearchOn, answers at once too', async () => {
    for (const body of [
      { q: `"batman ${WORD_40K}"` },
      { q: `batman -${WORD_40K}`, limit: 50 },
      { q: WORD_1M, attributesToSearchOn: ['title'] },
    ]) {
      const { reply, ms } = await search(body);
      expect(reply.status, reply.text.slice(0, 300)).toBe(200);
      expect(ms).toBeLessThan(SLOW_MS);
    }
    // the long negative word excludes nothing
    const negated = (await search({ q: `batman -${WORD_40K}`, limit: 50 })).reply;
    const plain = (await call(server, 'POST', '/indexes/movies/search', { q: 'batman ', limit: 50 })).body;
    expect(ids(negated)).toEqual(plain.hits.map((hit: { id: number }) => hit.id));
  });
});

describe('many query words', () => {
  it('only the first 10 terms count, at once, for 100,000 one-letter words', async () => {
    const { reply, ms, slowestHealth } = await search({ q: 'a '.repeat(100_000) });
    expect(reply.status).toBe(200);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(slowestHealth).toBeLessThan(SLOW_MS);
    const ten = (await call(server, 'POST', '/indexes/movies/search', { q: 'a '.repeat(10) })).body;
    expect(ids(reply)).toEqual(ten.hits.map((hit: { id: number }) => hit.id));
    expect(reply.body.estimatedTotalHits).toBe(ten.estimatedTotalHits);
  });

  it('ignores every token after the 10th term, words and negations alike', async () => {
    const batman = 'batman '.repeat(10);
    const extra = (await search({ q: `${batman}qqzzqqzzq`, matchingStrategy: 'all' })).reply;
    expect(extra.body.hits.length).toBeGreaterThan(0);
    const negated = (await search({ q: `${batman}-returns`, limit: 50 })).reply;
    expect(negated.body.hits.map((hit: { title: string }) => hit.title)).toContain('Batman Returns');
    // a phrase is one term
    const phrases = (await search({ q: `${'"batman returns" '.repeat(10)}qqzzqqzzq`, matchingStrategy: 'all' })).reply;
    expect(phrases.body.hits.map((hit: { title: string }) => hit.title)).toContain('Batman Returns');
  });

  it('treats a long run of words in one phrase at once', async () => {
    const { reply, ms } = await search({ q: `"${'batman '.repeat(50_000)}"` });
    expect(reply.status).toBe(200);
    expect(ms).toBeLessThan(SLOW_MS);
  });
});

describe('facet search and multi-search', () => {
  const facetSearch = (body: object) => timed('POST', '/indexes/movies/facet-search', { facetName: 'genres', ...body });

  it.each([
    ['facetQuery of 40,000 characters', { facetQuery: WORD_40K }],
    ['facetQuery of 1,000,000 characters', { facetQuery: WORD_1M }],
    ['q of 1,000,000 characters', { q: WORD_1M }],
    ['q of 100,000 words', { q: 'a '.repeat(100_000) }],
  ])('a %s answers at once', async (_, body) => {
    const { reply, ms, slowestHealth } = await facetSearch(body);
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(slowestHealth).toBeLessThan(SLOW_MS);
    if ('q' in body && body.q === WORD_1M) expect(reply.body.facetHits).toEqual([]);
    if ('facetQuery' in body) expect(reply.body.facetHits).toEqual([]);
  });

  it('still finds values by prefix with typos', async () => {
    const prefix = (await facetSearch({ facetQuery: 'dram' })).reply;
    expect(prefix.body.facetHits.map((hit: { value: string }) => hit.value)).toContain('Drama');
    const typo = (await facetSearch({ facetQuery: 'docuemntary' })).reply;
    expect(typo.body.facetHits.map((hit: { value: string }) => hit.value)).toContain('Documentary');
  });

  it('answers a long-word query in each of several queries at once', async () => {
    const { reply, ms, slowestHealth } = await timed('POST', '/multi-search', {
      queries: [
        { indexUid: 'movies', q: WORD_40K },
        { indexUid: 'movies', q: WORD_1M, attributesToHighlight: ['*'] },
        { indexUid: 'movies', q: 'a '.repeat(100_000) },
      ],
    });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(slowestHealth).toBeLessThan(SLOW_MS);
    expect(reply.body.results[0].hits).toEqual([]);
    expect(reply.body.results[1].hits).toEqual([]);
  });
});

describe('synonym keys spelled apart but read alike', () => {
  it('merge their values at once: 50,000 keys reading `a` answer the first search while /health answers', async () => {
    const seps = [',', '.', ';', ':', '!', '?', '-', '(', ')', '/', '|', '+', '=', '*', '&', '%', '$', '#', '@', '~'];
    const synonyms: Record<string, string[]> = {};
    for (const a of seps) for (const b of seps) for (const c of seps) for (const d of seps.slice(0, 7)) synonyms[`a${a}${b}${c}${d}`] = ['bee'];
    for (const d of seps.slice(10)) synonyms[`a${d}${d}${d}${d}${d}`] = ['wasp'];
    await run(server, 'POST', '/indexes/syn/documents', [{ id: 1, title: 'bee' }, { id: 2, title: 'wasp' }, { id: 3, title: 'cat' }]);
    await run(server, 'PATCH', '/indexes/syn/settings', { synonyms });
    const { reply, ms, slowestHealth } = await timed('POST', '/indexes/syn/search', { q: 'a' });
    expect(reply.status, reply.text.slice(0, 300)).toBe(200);
    expect(ids(reply).sort()).toEqual([1, 2]);
    expect(ms).toBeLessThan(SLOW_MS);
    expect(slowestHealth).toBeLessThan(SLOW_MS);
  }, 60_000);
});
