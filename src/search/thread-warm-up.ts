/**
 * Work the first searches of a process would otherwise pay inside their requests, where v1.50
 * answers `processingTimeMs: 0` on a small index:
 * - `warmUpSearchThread`: compiling and instantiating the WASM kernels on this thread and the
 *   first call of the tokenizer kernel (V8 compiles a WASM function when it first runs). Indexing
 *   runs in workers, so the request thread meets the kernels only at its first search.
 * - `warmUpSearchPath`: V8's compilation of every JS function of the search and facet search path
 *   (query parse, filters, ranking, facets, formatting: 5–11 ms of CPU the first time each runs).
 *   A few real searches and facet searches, through the services requests call, on a throwaway
 *   index in a temporary LMDB environment under the OS's temp folder, which no registry, stats or
 *   db path ever shows, its files unlinked as soon as it is open (a process killed mid-warm-up
 *   leaves nothing). It runs after the server listens, one search per event loop turn, so a
 *   request waits behind one warm-up search (or the temporary index's write) at most. A shutdown
 *   stops it at its next turn and waits for it: exiting while its asynchronous commit waits for
 *   this thread would hang the process (at exit, libuv waits for LMDB's write thread).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Caller } from '../auth/caller.js';
import { DocumentStore } from '../engine/documents/store.js';
import { IndexEnvs } from '../engine/index-env.js';
import { writeSettings } from '../engine/index-settings.js';
import { INDEX_UPDATERS } from '../engine/indexer/registry.js';
import { IndexReader } from '../indexes/reader.js';
import { tokenizeBatch } from '../kernels/tokenizer.js';
import { defaultSettings } from '../types/settings.js';
import { NIL_UUID } from '../types/uuid-v7.js';
import { soloSearchContext } from './bundle.js';
import type { FacetSearchQuery } from './facet-search.js';
import { facetSearchRequest } from './network-facet-search.js';
import type { SearchQuery } from './query.js';
import { searchRequest } from './search-request.js';

export function warmUpSearchThread(): void {
  tokenizeBatch(['warm up']);
}

const UID = 'warm_up';

const DOCS = [
  { id: 1, title: 'Alice In Wonderland', genres: ['adventure'], year: 1865 },
  { id: 2, title: 'Le Rouge et le Noir', genres: 'romance', year: 1830 },
  { id: 3, title: 'Pride and Prejudice', genres: ['romance', 'action'], year: 1813 },
  { id: 4, title: 'Le Petit Prince', genres: ['adventure', 'comedy'], year: 1943 },
];

const SEARCHES: SearchQuery[] = [
  { q: 'alice' },
  { q: 'petit prince', filter: 'genres = adventure', facets: ['genres', 'year'], sort: ['year:desc'], attributesToHighlight: ['title'] },
  { q: 'prid', attributesToCrop: ['title'], cropLength: 2, showMatchesPosition: true, showRankingScore: true },
  { filter: ['year > 1820', ['genres = romance', 'genres = comedy']], facets: ['*'], sort: ['year:asc'] },
];

const FACET_SEARCHES: FacetSearchQuery[] = [
  { facetName: 'genres' },
  { facetName: 'genres', facetQuery: 'a' },
  { facetName: 'genres', facetQuery: 'a', filter: ['genres = action'] },
  { facetName: 'genres', facetQuery: 'a', q: 'Alice' },
  { facetName: 'genres', facetQuery: 'adv', q: 'wonderland', exhaustiveFacetCount: true },
];

// V8 interprets a function's bytecode its first times and compiles it further once it has run a
// while: a second round took a new index's first facet searches from ~0.75 to ~0.5 ms CPU.
const ROUNDS = 2;

/**
 * Runs the warm-up searches; resolves once the temporary index is closed. Never throws: a
 * failure (of a search, of the temporary environment) goes to `onError` and ends the warm-up.
 * Aborting `stop` ends it at its next turn.
 */
export async function warmUpSearchPath(onError: (err: unknown) => void, stop?: AbortSignal): Promise<void> {
  let dir: string | undefined;
  let envs: IndexEnvs | undefined;
  /** The next event loop turn; false once the warm-up is to stop. */
  const go = async () => {
    await nextTurn();
    return stop?.aborted !== true;
  };
  try {
    if (!(await go())) return;
    dir = mkdtempSync(path.join(tmpdir(), 'quarry-warm-up-'));
    envs = new IndexEnvs(dir, 1);
    const env = envs.get(NIL_UUID);
    // LMDB keeps its open files: their names go now, so a process killed mid-warm-up leaves nothing
    rmSync(dir, { recursive: true, force: true });
    const settings = { ...defaultSettings(), filterableAttributes: ['genres', 'year'], sortableAttributes: ['year'] };
    // the asynchronous commit: its disk sync happens off this thread, which serves requests meanwhile
    await env.root.transaction(() => {
      writeSettings(env, settings);
      const changes = new DocumentStore(env).apply(new Map(DOCS.map((doc) => [String(doc.id), doc])), false);
      for (const updater of INDEX_UPDATERS) updater.apply(env, settings, changes);
    });
    const record = { uid: UID, uuid: NIL_UUID, createdAt: 0n, updatedAt: 0n, primaryKey: 'id' };
    const reader = new IndexReader({ get: (uid) => (uid === UID ? record : undefined) }, { get: () => env, acquire: () => ({ env, release: () => {} }) });
    const ctx = soloSearchContext(reader, () => false);
    for (let round = 0; round < ROUNDS; round++) {
      for (const query of SEARCHES) {
        if (!(await go())) return;
        await searchRequest(ctx, Caller.open(), UID, query, false);
      }
      for (const query of FACET_SEARCHES) {
        if (!(await go())) return;
        await facetSearchRequest(ctx, Caller.open(), UID, query);
      }
    }
  } catch (err) {
    onError(err);
  } finally {
    // each on its own: a folder that cannot go does not keep the environment open
    try {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    } catch (err) {
      onError(err);
    }
    try {
      await envs?.closeAll();
    } catch (err) {
      onError(err);
    }
  }
}
