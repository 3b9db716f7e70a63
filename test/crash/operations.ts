/**
 * The write requests of the crash harness, drawn from a seeded PRNG so that a seed names a run:
 * additions (JSON and NDJSON), partial updates, deletions by id and by filter, settings changes,
 * edits by function, index swaps and dumps, over two indexes of small documents.
 */
export interface Op {
  method: string;
  route: string;
  body?: string;
  contentType?: string;
  /** The type of the task it enqueues, and for additions how many documents: to match a task whose 202 a kill cut off. */
  type: string;
  documents?: number;
}

export const INDEXES = ['rk', 'rk2'] as const;

/** Run before any operation, by the crashed run and by the reference run alike. */
export const SETUP: Op[] = INDEXES.flatMap((uid) => [
  { method: 'POST', route: '/indexes', body: JSON.stringify({ uid, primaryKey: 'id' }), type: 'indexCreation' },
  { method: 'PATCH', route: `/indexes/${uid}/settings`, body: JSON.stringify({ filterableAttributes: ['cat', 'n'], sortableAttributes: ['n'] }), type: 'settingsUpdate' },
]);

export const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa'];

const json = (method: string, route: string, body: unknown, type: string): Op => ({ method, route, body: JSON.stringify(body), type });

/** One random write request; `pick(n)` draws an integer in [0, n). */
export function randomOp(pick: (n: number) => number): Op {
  const doc = () => ({ id: pick(3000), title: `tok${pick(3000)}x ${WORDS[pick(WORDS.length)]}`, cat: `c${pick(4)}`, n: pick(100) });
  const kind = pick(10);
  const index = INDEXES[pick(2)];
  if (kind <= 2) {
    const docs = Array.from({ length: 1 + pick(kind === 0 ? 1500 : 150) }, doc);
    if (kind === 1) return { method: 'POST', route: `/indexes/${index}/documents`, body: docs.map((d) => JSON.stringify(d)).join('\n'), contentType: 'application/x-ndjson', type: 'documentAdditionOrUpdate', documents: docs.length };
    return { ...json('POST', `/indexes/${index}/documents`, docs, 'documentAdditionOrUpdate'), documents: docs.length };
  }
  if (kind === 3) {
    const parts = Array.from({ length: 1 + pick(80) }, () => ({ id: pick(3000), n: pick(100) }));
    return { ...json('PUT', `/indexes/${index}/documents`, parts, 'documentAdditionOrUpdate'), documents: parts.length };
  }
  if (kind === 4) return json('POST', `/indexes/${index}/documents/delete-batch`, Array.from({ length: 1 + pick(200) }, () => pick(3000)), 'documentDeletion');
  if (kind === 5) return json('POST', `/indexes/${index}/documents/delete`, { filter: `cat = c${pick(4)} AND n < ${pick(100)}` }, 'documentDeletion');
  if (kind === 6) {
    const settings = { searchableAttributes: pick(2) === 0 ? ['title', 'cat'] : ['*'], filterableAttributes: pick(2) === 0 ? ['cat', 'n'] : ['n', 'title', 'cat'] };
    return json('PATCH', `/indexes/${index}/settings`, settings, 'settingsUpdate');
  }
  if (kind === 7) return json('POST', '/swap-indexes', [{ indexes: INDEXES }], 'indexSwap');
  if (kind === 8) return json('POST', `/indexes/${index}/documents/edit`, { filter: `n < ${pick(100)}`, function: 'doc.n = doc.n + 1000' }, 'documentEdition');
  return { method: 'POST', route: '/dumps', type: 'dumpCreation' };
}
