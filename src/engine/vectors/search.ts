/**
 * Nearest documents to a query vector for one embedder, best first, each at the distance of its
 * best-matching vector (a document may have several). Filters apply during the search, so a
 * filtered search finds `limit` documents whenever that many match:
 * - exact scan when the filter leaves few candidate documents (EXACT_CANDIDATES: their vectors
 *   are read from the store), or when the embedder holds few vectors (EXACT_BELOW: all of them,
 *   the filter checked for the nearest ones only);
 * - otherwise the HNSW graph, walking through rejected nodes and returning accepted ones only,
 *   with a search breadth (ef) doubled until it yields `limit` distinct documents, and an exact
 *   scan once the breadth would cover the whole graph.
 */
import { has, type DocSet } from '../docset.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { readGraph } from './graph-store.js';
import type { HnswGraph } from './hnsw.js';
import type { VectorQuery } from '../../kernels/vector.js';
import { readDocVectors, type EmbedderState } from './store.js';

/** Stored vectors below which a search scans them all. */
export const EXACT_BELOW = 10_000;
/** Candidate documents up to which a filtered search scans their vectors. */
export const EXACT_CANDIDATES = 2_000;
/** The smallest search breadth of a graph search. */
export const EF_SEARCH = 96;

export interface Nearest {
  readonly docid: number;
  readonly distance: number;
}

/**
 * A distance as it orders: NaN (a vector holding a component beyond f32's range, stored as
 * infinite) after every other, as v1.50's `OrderedFloat` sorts it.
 */
export const orderedDistance = (distance: number): number => (Number.isNaN(distance) ? Number.POSITIVE_INFINITY : distance);

/** Keeps each document's best distance. */
class Best {
  private readonly byDoc = new Map<number, number>();

  offer(docid: number, distance: number): void {
    const seen = this.byDoc.get(docid);
    if (seen === undefined || orderedDistance(distance) < orderedDistance(seen)) this.byDoc.set(docid, distance);
  }

  get size(): number {
    return this.byDoc.size;
  }

  take(limit: number): Nearest[] {
    return [...this.byDoc]
      .map(([docid, distance]) => ({ docid, distance: Math.fround(distance) }))
      .sort((a, b) => orderedDistance(a.distance) - orderedDistance(b.distance) || a.docid - b.docid)
      .slice(0, limit);
  }
}

/** By exact scan of every vector (of the candidate documents when given). */
function scanAll(graph: HnswGraph, query: VectorQuery, limit: number, candidates: DocSet | null): Nearest[] {
  const accept = candidates === null ? undefined : (slot: number) => has(candidates, graph.docids[slot]!);
  // the nearest vectors, more of them until they belong to `limit` documents (or are all); never
  // more than the graph holds, whatever `limit` a request asks for
  for (let k = Math.min(limit, graph.size); ; k = Math.min(k * 2, graph.size)) {
    const nearest = graph.space.nearest(query, k, accept);
    const found = new Best();
    for (let i = 0; i < nearest.slots.length; i++) found.offer(graph.docids[nearest.slots[i]!]!, nearest.distances[i]!);
    if (found.size >= limit || nearest.slots.length < k) return found.take(limit);
  }
}

/** By exact scan of the vectors of a few candidate documents, read from the store. */
function scanCandidates(env: IndexReadEnv, state: EmbedderState, graph: HnswGraph, query: VectorQuery, limit: number, candidates: DocSet): Nearest[] {
  const items: number[] = [];
  const owners: number[] = [];
  for (const docid of candidates) {
    for (const item of readDocVectors(env, state.id, docid)?.items ?? []) {
      if (!graph.isLive(item)) continue;
      items.push(item);
      owners.push(docid);
    }
  }
  const distances = graph.space.distances(query, Uint32Array.from(items), items.length);
  const best = new Best();
  for (let i = 0; i < items.length; i++) best.offer(owners[i]!, distances[i]!);
  return best.take(limit);
}

export function nearestDocuments(env: IndexReadEnv, state: EmbedderState, query: ArrayLike<number>, limit: number, candidates: DocSet | null): Nearest[] {
  if (limit <= 0 || state.items === 0 || (candidates !== null && candidates.length === 0)) return [];
  // no more documents can be found than hold vectors: `limit` may be any u32 a request sent
  limit = Math.min(limit, state.documents);
  const graph = readGraph(env, state);
  const prepared = graph.space.prepare(Float32Array.from(query));
  if (candidates !== null && candidates.length <= EXACT_CANDIDATES) return scanCandidates(env, state, graph, prepared, limit, candidates);
  if (state.items < EXACT_BELOW) return scanAll(graph, prepared, limit, candidates);
  const accept = candidates === null ? undefined : (slot: number) => has(candidates, graph.docids[slot]!);
  for (let ef = Math.max(EF_SEARCH, limit); ; ef *= 2) {
    if (ef >= graph.size) return scanAll(graph, prepared, limit, candidates);
    const found = graph.search(prepared, ef, accept);
    const best = new Best();
    for (let i = 0; i < found.ids.length; i++) best.offer(graph.docids[found.ids[i]!]!, found.distances[i]!);
    // enough documents, every document that can match, or every vector the walk could reach
    if (best.size >= Math.min(limit, candidates?.length ?? state.documents) || found.ids.length < ef) return best.take(limit);
  }
}
