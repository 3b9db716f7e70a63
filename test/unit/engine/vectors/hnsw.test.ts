// The HNSW graph against an exact scan on seeded clustered data: recall of a build, of a graph
// after deletions (which are never returned), of filtered searches, and of quantized vectors; the
// links a build makes against the paper's neighbour heuristic, and the distances it computes.
import { describe, expect, it } from 'vitest';
import { HnswGraph } from '../../../../src/engine/vectors/hnsw.js';
import { VectorSpace } from '../../../../src/engine/vectors/space.js';
import { clusteredVectors } from './clustered.js';

const DIMS = 32;

function build(vectors: Float32Array[], quantized = false): HnswGraph {
  const space = new VectorSpace(DIMS, quantized, vectors.length);
  const graph = new HnswGraph(space, vectors.length);
  vectors.forEach((vector, slot) => {
    space.set(slot, vector);
    graph.insert(slot, slot);
  });
  return graph;
}

/** The k nearest live slots accepted by `accept`, by exact scan. */
function exact(graph: HnswGraph, query: Float32Array, k: number, accept: (slot: number) => boolean = () => true): number[] {
  const distances = graph.space.distancesAll(graph.space.prepare(query));
  return Array.from(distances.keys())
    .filter((slot) => graph.isLive(slot) && accept(slot))
    .sort((a, b) => distances[a]! - distances[b]! || a - b)
    .slice(0, k);
}

/** Share of the top 10 found at a distance no worse than the exact 10th (ties count as found). */
function recall(graph: HnswGraph, queries: Float32Array[], ef: number, accept?: (slot: number) => boolean): number {
  let found = 0;
  for (const query of queries) {
    const truth = exact(graph, query, 10, accept);
    const prepared = graph.space.prepare(query);
    const tenth = graph.space.distance(prepared, truth[9]!);
    const got = graph.search(prepared, ef, accept);
    found += Array.from(got.distances.subarray(0, 10)).filter((d) => d <= tenth).length;
  }
  return found / (queries.length * 10);
}

const vectors = clusteredVectors(3000, DIMS, 1);
const queries = clusteredVectors(50, DIMS, 2);

describe('HnswGraph', () => {
  it('finds the exact top 10 of most queries', () => {
    expect(recall(build(vectors), queries, 128)).toBeGreaterThanOrEqual(0.95);
  });

  it('keeps its recall after deleting a third of the nodes, and never returns them', () => {
    const graph = build(vectors);
    const deleted = new Set<number>();
    for (let slot = 0; slot < vectors.length; slot += 3) {
      graph.delete(slot);
      deleted.add(slot);
    }
    expect(graph.size).toBe(vectors.length - deleted.size);
    for (const query of queries) {
      for (const slot of graph.search(graph.space.prepare(query), 64).ids) expect(deleted.has(slot)).toBe(false);
    }
    expect(recall(graph, queries, 128)).toBeGreaterThanOrEqual(0.95);
  });

  it('takes new nodes in freed slots after deletions', () => {
    const graph = build(vectors.slice(0, 1000));
    for (let slot = 0; slot < 500; slot++) graph.delete(slot);
    for (let slot = 0; slot < 500; slot++) {
      graph.space.set(slot, vectors[1000 + slot]!);
      graph.insert(slot, 1000 + slot);
    }
    expect(recall(graph, queries, 128)).toBeGreaterThanOrEqual(0.95);
  });

  it('returns only accepted nodes, as many as asked, with a filter applied during the walk', () => {
    const graph = build(vectors);
    const accept = (slot: number) => slot % 10 === 0;
    for (const query of queries.slice(0, 10)) {
      const found = graph.search(graph.space.prepare(query), 64, accept);
      expect(found.ids.length).toBe(64);
      expect(Array.from(found.ids).every(accept)).toBe(true);
    }
    expect(recall(graph, queries, 64, accept)).toBeGreaterThanOrEqual(0.9);
  });

  it('searches binary-quantized vectors by Hamming distance', () => {
    const graph = build(vectors, true);
    expect(recall(graph, queries, 128)).toBeGreaterThanOrEqual(0.9);
    const [nearest] = graph.search(graph.space.prepare(vectors[5]!), 16).ids;
    expect(graph.space.distance(graph.space.prepare(vectors[5]!), nearest!)).toBe(0);
  });

  it('links what the paper\'s heuristic chooses, testing a candidate against the kept neighbours rather than computing a row of distances for each', () => {
    const count = 1500;
    const space = new VectorSpace(DIMS, false, count);
    const graph = new HnswGraph(space, count);
    // distances asked through the space: the searches', and not those of the heuristic's tests
    let asked = 0;
    const distances = space.distances.bind(space);
    space.distances = (query, slots, n) => {
      asked += n;
      return distances(query, slots, n);
    };
    // the reference: the paper's algorithm 4 over single distances, candidates ascending by
    // distance (as hnswlib, all of them when they are no more than the maximum)
    const reference = new HnswGraph(new VectorSpace(DIMS, false, count), count);
    const pair = (a: number, b: number) => reference.space.distance(reference.space.prepareSlot(a), b);
    Object.assign(reference, {
      select(ids: ArrayLike<number>, ds: ArrayLike<number>, max: number): number[] {
        if (ids.length <= max) return Array.from(ids);
        const kept: number[] = [];
        for (let i = 0; i < ids.length && kept.length < max; i++) if (kept.every((k) => !(pair(k, ids[i]!) < ds[i]!))) kept.push(ids[i]!);
        return kept;
      },
    });
    vectors.slice(0, count).forEach((vector, slot) => {
      space.set(slot, vector);
      graph.insert(slot, slot);
      reference.space.set(slot, vector);
      reference.insert(slot, slot);
    });
    for (let slot = 0; slot < count; slot++) expect(graph.encodeNode(slot)).toEqual(reference.encodeNode(slot));
    expect(graph.entry).toBe(reference.entry);
    // ~350 a node (the searches at efConstruction 100); a row per kept neighbour made it ~1,000
    expect(asked / count).toBeLessThan(500);
  });

  it('restores a node from its encoding', () => {
    const graph = build(vectors.slice(0, 200));
    const copy = new HnswGraph(graph.space, 200);
    for (let slot = 0; slot < 200; slot++) copy.decodeNode(slot, slot, graph.encodeNode(slot));
    copy.restore(graph.entry, graph.maxLevel);
    for (let slot = 0; slot < 200; slot++) expect(copy.encodeNode(slot)).toEqual(graph.encodeNode(slot));
    expect(copy.search(copy.space.prepare(queries[0]!), 32).ids).toEqual(graph.search(graph.space.prepare(queries[0]!), 32).ids);
  });
});
