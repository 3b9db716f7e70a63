/**
 * What must be equal between the crashed run and the uninterrupted one: every task's outcome,
 * and per index its settings, its documents and a handful of searches. Internal document ids may
 * differ between the runs (batches are cut differently), so hits are compared as sets with their
 * ranking scores, and their order only through what ranks them (scores, or the sort field).
 */
import { call } from '../helpers/api.js';
import type { TestServer } from '../helpers/server.js';
import { INDEXES } from './operations.js';

const SEARCHES: Record<string, unknown>[] = [
  { q: 'alpha' },
  { q: 'gamma omega' },
  { q: 'tok12' },
  { q: 'kappa', filter: 'cat = c2', facets: ['cat', 'n'] },
  { filter: 'n >= 1000 OR n < 5', sort: ['n:desc'] },
];

/**
 * Every task as its uid, type, status, error code and details. Left out: a dump's uid (a date),
 * and a deletion's `deletedDocuments`, which depends on the batch it fell in, in v1.50 as in
 * Quarry (tasks/process/documents.ts): in a batch with additions, deletions by id count the ids
 * given and deletions by filter the matches before the batch; alone, the documents they remove.
 * Runs cut batches differently, so what the deletions did is compared through the index states.
 */
export async function taskOutcomes(server: TestServer): Promise<any[]> {
  const { body } = await call(server, 'GET', '/tasks?limit=1000000');
  return (body.results as any[])
    .map(({ uid, type, status, indexUid, error, details }) => ({
      uid,
      type,
      status,
      indexUid,
      error: error?.code ?? null,
      details: { ...details, dumpUid: undefined, ...(type === 'documentDeletion' ? { deletedDocuments: undefined } : {}) },
    }))
    .sort((a, b) => a.uid - b.uid);
}

async function search(server: TestServer, index: string, query: Record<string, unknown>): Promise<unknown> {
  const { status, body } = await call(server, 'POST', `/indexes/${index}/search`, { ...query, limit: 1000, attributesToRetrieve: ['id', 'n'], showRankingScore: true });
  if (status !== 200) return { status, code: body.code };
  const hits = body.hits as { id: number; n?: number; _rankingScore: number }[];
  return {
    total: body.estimatedTotalHits,
    facets: body.facetDistribution,
    order: hits.map((hit) => (query.sort === undefined ? hit._rankingScore : hit.n)),
    hits: hits.map((hit) => `${hit.id}:${hit._rankingScore}`).sort(),
  };
}

/** Per index: settings, documents by id, and the searches' answers. */
export async function indexStates(server: TestServer): Promise<Record<string, unknown>> {
  const states: Record<string, unknown> = {};
  for (const index of INDEXES) {
    const documents = (await call(server, 'GET', `/indexes/${index}/documents?limit=100000`)).body.results as { id: number }[];
    states[index] = {
      settings: (await call(server, 'GET', `/indexes/${index}/settings`)).body,
      documents: documents.sort((a, b) => a.id - b.id),
      searches: await Promise.all(SEARCHES.map((query) => search(server, index, query))),
    };
  }
  return states;
}

/** The paths at which two JSON values differ, at most `max` of them. */
export function differences(a: unknown, b: unknown, at = '', max = 10): string[] {
  if (JSON.stringify(a) === JSON.stringify(b)) return [];
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return [`${at}: ${JSON.stringify(a)?.slice(0, 200)} ≠ ${JSON.stringify(b)?.slice(0, 200)}`];
  const found: string[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (found.length >= max) break;
    found.push(...differences((a as any)[key], (b as any)[key], `${at}/${key}`, max - found.length));
  }
  return found;
}
