/**
 * One embedder's HNSW graph (hnsw.ts) loaded from the index environment, kept in memory between
 * searches and between writes, and its changed nodes written back.
 *
 * A loaded graph is tagged with the vectors version (main `vectors-version`) it matches: a search
 * reuses it while the stored version is the same, and reloads after a commit wrote vectors. The
 * writer changes the cached graph in place inside its transaction: it first tags it as dirty, so
 * a rolled-back write (a failure, a cancelation) leaves a tag no stored version has and the next
 * use reloads; after its writes it tags it with the version it committed. Searches and the index
 * writer run in different threads, so each keeps its own copy.
 */
import type { IndexEnv } from '../index-env.js';
import { HnswGraph } from './hnsw.js';
import { VectorSpace } from './space.js';
import { decodeItem, embedderRange, key, readVectorsVersion, type EmbedderState } from './store.js';

interface Cached {
  version: string;
  readonly embedder: number;
  readonly dimensions: number;
  readonly quantized: boolean;
  readonly graph: HnswGraph;
}

/** Graphs kept per thread: the most recently used ones. */
const MAX_GRAPHS = 8;
const cache = new Map<string, Cached>();

/** The tag of a graph being changed: no stored version is empty-prefixed like this */
const DIRTY = '\u0000dirty';

// by folder: the index writer opens a new handle on the same files for each write
const cacheKey = (env: IndexEnv, state: EmbedderState) => `${(env.root as unknown as { path: string }).path}\u0000${state.id}`;

/** Reads every item and node of `state`'s embedder into a fresh graph. */
function load(env: IndexEnv, state: EmbedderState): HnswGraph {
  const space = new VectorSpace(state.dimensions, state.quantized, Math.max(16, state.nextItem));
  const graph = new HnswGraph(space, Math.max(16, state.nextItem));
  const docids = new Map<number, number>();
  for (const { key: k, value } of env.vectorItems.getRange(embedderRange(state.id))) {
    const item = (k as Buffer).readUInt32BE(2);
    const { docid, vector } = decodeItem(value, state);
    space.set(item, vector);
    docids.set(item, docid);
  }
  for (const { key: k, value } of env.vectorLinks.getRange(embedderRange(state.id))) {
    const item = (k as Buffer).readUInt32BE(2);
    const bytes = new Uint8Array(value);
    graph.decodeNode(item, docids.get(item) ?? 0, new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2));
  }
  graph.restore(state.entry, state.maxLevel);
  return graph;
}

function lookup(env: IndexEnv, state: EmbedderState, version: string): Cached | undefined {
  const k = cacheKey(env, state);
  const hit = cache.get(k);
  if (hit === undefined) return undefined;
  if (hit.version === version && hit.dimensions === state.dimensions && hit.quantized === state.quantized) {
    cache.delete(k);
    cache.set(k, hit);
    return hit;
  }
  drop(k);
  return undefined;
}

function remember(env: IndexEnv, state: EmbedderState, entry: Cached): void {
  cache.set(cacheKey(env, state), entry);
  while (cache.size > MAX_GRAPHS) drop(cache.keys().next().value!);
}

/** Forgets a cached graph and returns its vectors' memory to the kernel. */
function drop(k: string): void {
  cache.get(k)?.graph.space.dispose();
  cache.delete(k);
}

/** The graph of `state`'s embedder as stored: read-only for the caller. */
export function readGraph(env: IndexEnv, state: EmbedderState): HnswGraph {
  const version = readVectorsVersion(env) ?? '';
  const hit = lookup(env, state, version);
  if (hit !== undefined) return hit.graph;
  const graph = load(env, state);
  remember(env, state, { version, embedder: state.id, dimensions: state.dimensions, quantized: state.quantized, graph });
  return graph;
}

/** A write on the graph of `state`'s embedder, inside the index write transaction. */
export interface GraphWrite {
  readonly graph: HnswGraph;
  /** Writes the changed nodes and the entry point into `state`. */
  persist(): void;
  /** Tags the cached graph with the version the transaction commits. */
  committed(version: string): void;
}

export function writeGraph(env: IndexEnv, state: EmbedderState): GraphWrite {
  const version = readVectorsVersion(env) ?? '';
  let entry = lookup(env, state, version);
  if (entry === undefined) {
    entry = { version, embedder: state.id, dimensions: state.dimensions, quantized: state.quantized, graph: load(env, state) };
    remember(env, state, entry);
  }
  // until `committed`, no stored version matches what the graph becomes
  entry.version = DIRTY;
  const target = entry;
  return {
    graph: target.graph,
    persist() {
      const { graph } = target;
      for (const slot of graph.takeDirty()) {
        if (graph.isLive(slot)) {
          const node = graph.encodeNode(slot);
          env.vectorLinks.putSync(key(state.id, slot), Buffer.from(node.buffer, node.byteOffset, node.byteLength));
        } else {
          env.vectorLinks.removeSync(key(state.id, slot));
        }
      }
      state.entry = graph.entry;
      state.maxLevel = graph.maxLevel;
    },
    committed(committedVersion: string) {
      target.version = committedVersion;
    },
  };
}

/** Forgets the cached graph of an embedder whose records were dropped or rewritten. */
export function forgetGraph(env: IndexEnv, state: EmbedderState): void {
  drop(cacheKey(env, state));
}
