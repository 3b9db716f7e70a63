// Port of Meilisearch's crates/meilisearch/tests/similar/mod.rs: `/indexes/{uid}/similar` on five
// movies with a 3-dimension userProvided embedder — the other documents ordered by similarity to the
// target's own embedding (stored as f32, so retrieveVectors shows the widened floats), ranking scores
// and the rankingScoreThreshold cut with its estimatedTotalHits, filters, limit and offset, and
// showPerformanceDetails. Each request is sent as a POST body and as the GET query string Meilisearch's
// `index.similar` helper builds (`yaup`), and both answers are checked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, uniqueUid } from '../../helpers/api.js';
import { expectJson, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const DOCUMENTS = [
  // Three semantic properties: 1. magic, 2. authority, 3. horror
  { title: 'Shazam!', release_year: 2019, id: '287947', _vectors: { manual: [0.8, 0.4, -0.5] } },
  { title: 'Captain Marvel', release_year: 2019, id: '299537', _vectors: { manual: [0.6, 0.8, -0.2] } },
  { title: 'Escape Room', release_year: 2019, id: '522681', _vectors: { manual: [0.1, 0.6, 0.8] } },
  { title: 'How to Train Your Dragon: The Hidden World', release_year: 2019, id: '166428', _vectors: { manual: [0.7, 0.7, -0.4] } },
  { title: 'All Quiet on the Western Front', release_year: 1930, id: '143', _vectors: { manual: [-0.5, 0.3, 0.85] } },
];

/** The embeddings as retrieveVectors shows them: the f32 values widened to f64. */
const STORED: Record<string, number[]> = {
  '287947': [0.800000011920929, 0.4000000059604645, -0.5],
  '299537': [0.6000000238418579, 0.800000011920929, -0.20000000298023224],
  '522681': [0.10000000149011612, 0.6000000238418579, 0.800000011920929],
  '166428': [0.699999988079071, 0.699999988079071, -0.4000000059604645],
  '143': [-0.5, 0.30000001192092896, 0.8500000238418579],
};

/** A hit with its vectors retrieved (and its ranking score, when given), in Meilisearch's key order. */
function hit(id: string, rankingScore?: number): Record<string, unknown> {
  const doc = DOCUMENTS.find((d) => d.id === id)!;
  const shown: Record<string, unknown> = {
    title: doc.title,
    release_year: doc.release_year,
    id: doc.id,
    _vectors: { manual: { embeddings: [STORED[id]], regenerate: false } },
  };
  if (rankingScore !== undefined) shown._rankingScore = rankingScore;
  return shown;
}

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

/** A new index with the `manual` userProvided embedder, the given filterable attributes, and DOCUMENTS. */
async function moviesIndex(filterableAttributes: string[]): Promise<string> {
  const uid = uniqueUid('test');
  await succeed(server, 'PATCH', `/indexes/${uid}/settings`, { embedders: { manual: { source: 'userProvided', dimensions: 3 } }, filterableAttributes });
  await succeed(server, 'POST', `/indexes/${uid}/documents`, DOCUMENTS);
  return uid;
}

/** The query string Meilisearch's tests build with `yaup::to_string`. */
function yaup(body: Record<string, unknown>): string {
  const pairs = Object.entries(body).map(([key, value]) => `${key}=${encodeURIComponent(Array.isArray(value) ? value.join(',') : String(value))}`);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** Meilisearch's `index.similar`: POST then GET, each required to answer 200 and checked. */
async function similarBoth(uid: string, body: Record<string, unknown>, check: (answer: any) => void): Promise<void> {
  for (const [route, reply] of [
    ['POST', await call(server, 'POST', `/indexes/${uid}/similar`, body)],
    ['GET', await call(server, 'GET', `/indexes/${uid}/similar${yaup(body)}`)],
  ] as const) {
    try {
      expect(reply.status, reply.text).toBe(200);
      check(reply.body);
    } catch (err) {
      if (err instanceof Error) err.message = `${route} similar: ${err.message}`;
      throw err;
    }
  }
}

describe('basic', () => {
  it('orders the other documents by similarity to the target, for an integer and a string id', async () => {
    const uid = await moviesIndex(['title']);
    await similarBoth(uid, { id: 143, retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, [hit('522681'), hit('299537'), hit('166428'), hit('287947')]),
    );
    await similarBoth(uid, { id: '299537', retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, [hit('166428'), hit('287947'), hit('522681'), hit('143')]),
    );
  });
});

describe('ranking_score_threshold', () => {
  const SCORES: [string, number][] = [
    ['522681', 0.890957772731781],
    ['299537', 0.39060014486312866],
    ['166428', 0.2819308042526245],
    ['287947', 0.1662663221359253],
  ];
  it.each([
    [0, 4],
    [0.2, 3],
    [0.3, 2],
    [0.6, 1],
  ])('threshold %d keeps the hits scoring at least that, and counts only them', async (threshold, kept) => {
    const uid = await moviesIndex(['title']);
    await similarBoth(uid, { id: 143, showRankingScore: true, rankingScoreThreshold: threshold, retrieveVectors: true, embedder: 'manual' }, (answer) => {
      expect(answer.estimatedTotalHits).toBe(kept);
      expectJson(
        answer.hits,
        SCORES.slice(0, kept).map(([id, score]) => hit(id, score)),
      );
    });
  });

  it('threshold 0.9 keeps no hit', async () => {
    const uid = await moviesIndex(['title']);
    await similarBoth(uid, { id: 143, showRankingScore: true, rankingScoreThreshold: 0.9, retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, []),
    );
  });
});

describe('filter', () => {
  it('keeps only the candidates the filter matches', async () => {
    const uid = await moviesIndex(['title', 'release_year']);
    await similarBoth(uid, { id: 522681, filter: 'release_year = 2019', retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, [hit('299537'), hit('166428'), hit('287947')]),
    );
    await similarBoth(uid, { id: 522681, filter: 'release_year < 2000', retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, [hit('143')]),
    );
  });
});

describe('limit_and_offset', () => {
  it('pages through the similar documents', async () => {
    const uid = await moviesIndex(['title']);
    await similarBoth(uid, { id: 143, limit: 1, retrieveVectors: true, embedder: 'manual' }, (answer) => expectJson(answer.hits, [hit('522681')]));
    await similarBoth(uid, { id: 143, limit: 1, offset: 1, retrieveVectors: true, embedder: 'manual' }, (answer) =>
      expectJson(answer.hits, [hit('299537')]),
    );
  });
});

describe('performance_details', () => {
  it('adds performanceDetails after the usual fields', async () => {
    const uid = await moviesIndex(['title']);
    await similarBoth(uid, { id: 143, embedder: 'manual', showPerformanceDetails: true }, (answer) => {
      expect(typeof answer.processingTimeMs).toBe('number');
      expect(answer).toHaveProperty('performanceDetails');
      const shown = (id: string) => {
        const { _vectors: _, ...rest } = DOCUMENTS.find((d) => d.id === id)!;
        return rest;
      };
      expectJson(
        { ...answer, processingTimeMs: '[duration]', performanceDetails: '[details]' },
        {
          hits: [shown('522681'), shown('299537'), shown('166428'), shown('287947')],
          id: '143',
          processingTimeMs: '[duration]',
          limit: 20,
          offset: 0,
          estimatedTotalHits: 4,
          performanceDetails: '[details]',
        },
      );
    });
  });
});
