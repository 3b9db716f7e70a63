/**
 * One embedder's HNSW graph (hnsw.ts) loaded from the index environment, kept in memory between
 * searches and between writes, and its changed nodes written back.
 *
 * A loaded graph is tagged with the vectors version (main `vectors-version`) it matches: a search
 * reuses it while the stored version is the same; after commits that wrote vectors, it replays
 * their journal (store.ts `readJournal`: the items each changed) on it, or reloads it when the
 * journal does not reach back to its version. The writer changes its cached graph in place inside
 * its transaction: it first tags it as dirty, so a rolled-back write (a failure, a cancelation)
 * leaves a tag no stored version has and the next write reloads; after its writes it tags it
 * with the version it committed. Searches and the index writer run in different threads, so
 * each keeps its own copy.
 */
import type { IndexEnv } from '../index-env.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { HnswGraph } from './hnsw.js';
import { VectorSpace } from './space.js';
import { decodeItem, embedderRange, fastValue, key, readItem, readJournal, readVectorsVersion, type EmbedderState, type JournalEntry } from './store.js';

interface Cached {
  version: string;
  readonly embedder: number;
  readonly dimensions: number;
  readonly quantized: boolean;
  readonly graph: HnswGraph;
}

/** Graphs kept per thread and role: the most recently used ones. */
const MAX_GRAPHS = 8;
/**
 * Searches' graphs and the writer's, apart even in one thread: the writer changes its graph
 * before the commit, and a search that runs in the writer's thread (tests, tools) must not see
 * that before it is committed.
 */
const readers = new Map<string, Cached>();
const writers = new Map<string, Cached>();

/** The tag of a graph being changed: never a stored version (those are UUIDs) */
const DIRTY = '\u0000dirty';

// by index (uuid), not by handle: the index writer opens a new handle on the same files for each write
const cacheKey = (env: IndexReadEnv, state: EmbedderState) => `${env.uuid}\u0000${state.id}`;

/** Reads every item and node of `state`'s embedder into a fresh graph. */
function load(env: IndexReadEnv, state: EmbedderState): HnswGraph {
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
    const bytes = fastValue(value).slice();
    graph.decodeNode(item, docids.get(item) ?? 0, new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2));
  }
  graph.restore(state.entry, state.maxLevel);
  return graph;
}

function lookup(cache: Map<string, Cached>, env: IndexReadEnv, state: EmbedderState, version: string): Cached | undefined {
  const k = cacheKey(env, state);
  const hit = cache.get(k);
  if (hit === undefined || hit.version !== version || hit.dimensions !== state.dimensions || hit.quantized !== state.quantized) return undefined;
  cache.delete(k);
  cache.set(k, hit);
  return hit;
}

function remember(cache: Map<string, Cached>, env: IndexReadEnv, state: EmbedderState, entry: Cached): void {
  drop(cache, cacheKey(env, state));
  cache.set(cacheKey(env, state), entry);
  while (cache.size > MAX_GRAPHS) drop(cache, cache.keys().next().value!);
}

/** Forgets a cached graph and returns its vectors' memory to the kernel. */
function drop(cache: Map<string, Cached>, k: string): void {
  cache.get(k)?.graph.space.dispose();
  cache.delete(k);
}

/**
 * Brings `cached` from its version to `version` with the journal's entries, re-reading the items
 * they name; false when the journal does not lead there.
 */
function replay(env: IndexReadEnv, state: EmbedderState, cached: Cached, version: string): boolean {
  const journal = readJournal(env);
  let at = journal.findIndex((entry) => entry.from === cached.version);
  if (at < 0) return false;
  const steps: JournalEntry[] = [];
  for (let from = cached.version; from !== version; at++) {
    const entry = journal[at];
    if (entry === undefined || entry.from !== from) return false;
    steps.push(entry);
    from = entry.to;
  }
  const { graph } = cached;
  for (const entry of steps) {
    for (const item of entry.items[state.id] ?? []) {
      graph.forget(item);
      const stored = readItem(env, state, item);
      const node = env.vectorLinks.getBinaryFast(key(state.id, item));
      if (stored === undefined || node === undefined) continue;
      graph.space.set(item, stored.vector);
      const bytes = fastValue(node).slice();
      graph.decodeNode(item, stored.docid, new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >>> 2));
    }
  }
  graph.restore(state.entry, state.maxLevel);
  cached.version = version;
  return true;
}

/** The graph of `state`'s embedder as stored: read-only for the caller. */
export function readGraph(env: IndexReadEnv, state: EmbedderState): HnswGraph {
  const version = readVectorsVersion(env) ?? '';
  const hit = lookup(readers, env, state, version);
  if (hit !== undefined) return hit.graph;
  const stale = readers.get(cacheKey(env, state));
  if (stale !== undefined && stale.dimensions === state.dimensions && stale.quantized === state.quantized && replay(env, state, stale, version)) {
    return stale.graph;
  }
  const graph = load(env, state);
  remember(readers, env, state, { version, embedder: state.id, dimensions: state.dimensions, quantized: state.quantized, graph });
  return graph;
}

/** A write on the graph of `state`'s embedder, inside the index write transaction. */
export interface GraphWrite {
  readonly graph: HnswGraph;
  /** Writes the changed nodes and the entry point into `state`; answers the changed items. */
  persist(): number[];
  /** Tags the cached graph with the version the transaction commits. */
  committed(version: string): void;
}

export function writeGraph(env: IndexEnv, state: EmbedderState): GraphWrite {
  const version = readVectorsVersion(env) ?? '';
  let entry = lookup(writers, env, state, version);
  if (entry === undefined) {
    entry = { version, embedder: state.id, dimensions: state.dimensions, quantized: state.quantized, graph: load(env, state) };
    remember(writers, env, state, entry);
  }
  // until `committed`, no stored version matches what the graph becomes
  entry.version = DIRTY;
  const target = entry;
  return {
    graph: target.graph,
    persist() {
      const { graph } = target;
      const dirty = [...graph.takeDirty()];
      for (const slot of dirty) {
        if (graph.isLive(slot)) {
          const node = graph.encodeNode(slot);
          env.vectorLinks.putSync(key(state.id, slot), Buffer.from(node.buffer, node.byteOffset, node.byteLength));
        } else {
          env.vectorLinks.removeSync(key(state.id, slot));
        }
      }
      state.entry = graph.entry;
      state.maxLevel = graph.maxLevel;
      return dirty;
    },
    committed(committedVersion: string) {
      target.version = committedVersion;
    },
  };
}

/** Forgets the cached graph of an embedder whose records were dropped or rewritten. */
export function forgetGraph(env: IndexEnv, state: EmbedderState): void {
  drop(writers, cacheKey(env, state));
  drop(readers, cacheKey(env, state));
}
