/**
 * An HNSW graph (Malkov & Yashunin) over the slots of a VectorSpace, kept in memory and changed
 * incrementally: insert, delete with neighbour repair, k-nearest search with an optional filter
 * applied during the traversal (rejected nodes are walked through but never returned).
 * Meilisearch keeps the same kind of graph (hannoy) in LMDB; graph-store.ts persists this one
 * node by node (`encodeNode`/`decodeNode`) and reports which nodes a change touched (`dirty`).
 *
 * Slots are the store's item ids. Level 0 keeps up to 2·M links per node, upper levels M, chosen
 * with the neighbour-selection heuristic. Levels come from a seeded generator, so a build is
 * reproducible. Distances of a node's unvisited neighbours are computed in one kernel call; the
 * neighbour heuristic tests each candidate against the kept links in one call that stops early.
 * Links to deleted nodes that other nodes may still hold are skipped when met.
 */
import { DistanceHeap } from './heap.js';
import type { VectorQuery } from '../../kernels/vector.js';
import type { VectorSpace } from './space.js';

export const M = 16;
const M0 = 2 * M;
/**
 * Links a node may take beyond its maximum before the heuristic prunes them back: pruning costs
 * a distance per pair of candidates, so it runs once per SLACK links added instead of each time.
 */
const SLACK = 8;
/** Room per node on level 0 and per upper level (after its count). */
const ROOM0 = M0 + SLACK;
const ROOM = M + SLACK;
export const EF_CONSTRUCTION = 100;
const LEVEL_FACTOR = 1 / Math.log(M);

export interface Neighbours {
  readonly ids: Uint32Array;
  readonly distances: Float64Array;
}

export class HnswGraph {
  /** level of each slot, -1 for a free slot */
  private levels: Int8Array;
  docids: Uint32Array;
  private links0: Uint32Array;
  private counts0: Uint8Array;
  /** per slot, levels 1..L: [count, ROOM links] each */
  private upper: (Uint32Array | undefined)[] = [];
  entry = -1;
  maxLevel = -1;
  size = 0;
  /** slots whose node changed since `takeDirty` */
  private dirty = new Set<number>();
  private visited: Uint32Array;
  private epoch = 0;
  private seed: number;
  private readonly candidates = new DistanceHeap(1);
  private readonly found = new DistanceHeap(-1);
  private batch = new Uint32Array(2 * M0);
  /** the neighbours `select` kept so far */
  private readonly kept = new Uint32Array(M0);

  constructor(
    readonly space: VectorSpace,
    capacity = 1024,
  ) {
    this.levels = new Int8Array(capacity).fill(-1);
    this.docids = new Uint32Array(capacity);
    this.links0 = new Uint32Array(capacity * ROOM0);
    this.counts0 = new Uint8Array(capacity);
    this.visited = new Uint32Array(capacity);
    this.seed = 0x9e3779b9;
  }

  get capacity(): number {
    return this.levels.length;
  }

  isLive(slot: number): boolean {
    return slot < this.levels.length && this.levels[slot]! >= 0;
  }

  private ensure(capacity: number): void {
    if (capacity <= this.capacity) return;
    const next = Math.max(capacity, this.capacity * 2);
    const levels = new Int8Array(next).fill(-1);
    levels.set(this.levels);
    const docids = new Uint32Array(next);
    docids.set(this.docids);
    const links0 = new Uint32Array(next * ROOM0);
    links0.set(this.links0);
    const counts0 = new Uint8Array(next);
    counts0.set(this.counts0);
    const visited = new Uint32Array(next);
    visited.set(this.visited);
    Object.assign(this, { levels, docids, links0, counts0, visited });
  }

  takeDirty(): Set<number> {
    const dirty = this.dirty;
    this.dirty = new Set();
    return dirty;
  }

  // --- links ---

  private neighbours(slot: number, level: number): Uint32Array {
    if (level === 0) return this.links0.subarray(slot * ROOM0, slot * ROOM0 + this.counts0[slot]!);
    const upper = this.upper[slot]!;
    const at = (level - 1) * (ROOM + 1);
    return upper.subarray(at + 1, at + 1 + upper[at]!);
  }

  private setNeighbours(slot: number, level: number, ids: ArrayLike<number>): void {
    if (level === 0) {
      this.links0.set(ids, slot * ROOM0);
      this.counts0[slot] = ids.length;
    } else {
      const upper = this.upper[slot]!;
      const at = (level - 1) * (ROOM + 1);
      upper[at] = ids.length;
      upper.set(ids, at + 1);
    }
    this.dirty.add(slot);
  }

  private nextLevel(): number {
    // mulberry32
    let t = (this.seed = (this.seed + 0x6d2b79f5) | 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    const unit = (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
    return Math.min(15, Math.floor(-Math.log(unit) * LEVEL_FACTOR));
  }

  private allocate(slot: number, docid: number, level: number): void {
    this.ensure(slot + 1);
    this.levels[slot] = level;
    this.docids[slot] = docid;
    this.counts0[slot] = 0;
    this.upper[slot] = level > 0 ? new Uint32Array(level * (ROOM + 1)) : undefined;
    this.size++;
    this.dirty.add(slot);
  }

  // --- search ---

  private nextEpoch(): number {
    if (++this.epoch === 0xffffffff) {
      this.visited.fill(0);
      this.epoch = 1;
    }
    return this.epoch;
  }

  /** The live nodes among `links` on `level` not visited yet (marking them), into `this.batch`. */
  private unvisited(links: Uint32Array, level: number, epoch: number): number {
    if (this.batch.length < links.length) this.batch = new Uint32Array(Math.max(links.length, M0 * 2));
    let n = 0;
    for (let i = 0; i < links.length; i++) {
      const node = links[i]!;
      if (epoch !== 0) {
        if (this.visited[node] === epoch) continue;
        this.visited[node] = epoch;
      }
      if (this.levels[node]! < level) continue;
      this.batch[n++] = node;
    }
    return n;
  }

  /** Greedy walk towards `query` on one level from `start`. */
  private greedy(query: VectorQuery, start: number, startDistance: number, level: number): [number, number] {
    let best = start;
    let bestDistance = startDistance;
    for (let changed = true; changed; ) {
      changed = false;
      const n = this.unvisited(this.neighbours(best, level), level, 0);
      if (n === 0) break;
      const distances = this.space.distances(query, this.batch, n);
      let next = best;
      for (let i = 0; i < n; i++) {
        if (distances[i]! < bestDistance) {
          bestDistance = distances[i]!;
          next = this.batch[i]!;
          changed = true;
        }
      }
      best = next;
    }
    return [best, bestDistance];
  }

  /**
   * The `ef` nearest accepted nodes on `level` reachable from `starts`, ascending. Nodes `accept`
   * rejects are expanded but not kept.
   */
  private searchLevel(query: VectorQuery, starts: readonly number[], ef: number, level: number, accept?: (slot: number) => boolean): Neighbours {
    const epoch = this.nextEpoch();
    const candidates = this.candidates;
    const found = this.found;
    candidates.clear();
    found.clear();
    for (const start of starts) {
      if (this.visited[start] === epoch) continue;
      this.visited[start] = epoch;
      const d = this.space.distance(query, start);
      candidates.push(d, start);
      if (accept === undefined || accept(start)) found.push(d, start);
    }
    while (candidates.size > 0) {
      const d = candidates.topDistance();
      if (found.size >= ef && d > found.topDistance()) break;
      const current = candidates.topId();
      candidates.pop();
      const n = this.unvisited(this.neighbours(current, level), level, epoch);
      if (n === 0) continue;
      const distances = this.space.distances(query, this.batch, n);
      for (let i = 0; i < n; i++) {
        const dn = distances[i]!;
        if (found.size < ef || dn < found.topDistance()) {
          const node = this.batch[i]!;
          candidates.push(dn, node);
          if (accept === undefined || accept(node)) {
            found.push(dn, node);
            if (found.size > ef) found.pop();
          }
        }
      }
    }
    return found.drainAscending();
  }

  /** Up to `ef` nearest accepted slots to a prepared query, ascending by distance. */
  search(query: VectorQuery, ef: number, accept?: (slot: number) => boolean): Neighbours {
    if (this.entry < 0) return { ids: new Uint32Array(0), distances: new Float64Array(0) };
    let ep = this.entry;
    let epDistance = this.space.distance(query, ep);
    for (let level = this.maxLevel; level > 0; level--) [ep, epDistance] = this.greedy(query, ep, epDistance, level);
    return this.searchLevel(query, [ep], ef, 0, accept);
  }

  // --- construction ---

  /**
   * The heuristic of the paper (its algorithm 4): keep a candidate only when it is closer to the
   * base than to every neighbour kept so far, so links spread in all directions. A candidate is
   * tested against the kept ones in one kernel call that stops at the first closer (hnswlib's
   * order): a rejected candidate mostly costs one or two distances, where a row of distances from
   * each kept neighbour to every candidate cost 1,460 distances an insertion (5,000 × 768).
   */
  private select(ids: ArrayLike<number>, distances: ArrayLike<number>, max: number): number[] {
    if (ids.length <= max) return Array.from(ids);
    const kept = this.kept;
    let count = 0;
    for (let i = 0; i < ids.length && count < max; i++) {
      const candidate = ids[i]!;
      if (count > 0 && this.space.anyCloser(candidate, kept, count, distances[i]!)) continue;
      kept[count++] = candidate;
    }
    return Array.from(kept.subarray(0, count));
  }

  /** Adds `slot` to `node`'s links on `level`, pruning them with the heuristic when out of room. */
  private link(node: number, level: number, slot: number): void {
    const room = level === 0 ? ROOM0 : ROOM;
    const current = this.neighbours(node, level);
    if (current.length < room) {
      // appended in place: the node has room after its links
      if (level === 0) {
        this.links0[node * ROOM0 + current.length] = slot;
        this.counts0[node]!++;
      } else {
        const upper = this.upper[node]!;
        const at = (level - 1) * (ROOM + 1);
        upper[at + 1 + upper[at]!] = slot;
        upper[at]!++;
      }
      this.dirty.add(node);
      return;
    }
    this.relink(node, level, [...current, slot]);
  }

  /** Sets `node`'s links on `level` to the heuristic's choice among `pool`. */
  private relink(node: number, level: number, pool: readonly number[]): void {
    const max = level === 0 ? M0 : M;
    const live = Uint32Array.from(pool.filter((id) => this.levels[id]! >= level));
    const distances = this.space.distances(this.space.prepareSlot(node), live, live.length);
    const order = Array.from(live.keys()).sort((a, b) => distances[a]! - distances[b]!);
    this.setNeighbours(
      node,
      level,
      this.select(
        order.map((i) => live[i]!),
        order.map((i) => distances[i]!),
        max,
      ),
    );
  }

  /** Inserts the vector already set in the space at `slot`, for document `docid`. */
  insert(slot: number, docid: number, efConstruction = EF_CONSTRUCTION): void {
    const level = this.nextLevel();
    this.allocate(slot, docid, level);
    if (this.entry < 0) {
      this.entry = slot;
      this.maxLevel = level;
      return;
    }
    let query = this.space.prepareSlot(slot);
    let ep = this.entry;
    let epDistance = this.space.distance(query, ep);
    for (let l = this.maxLevel; l > level; l--) [ep, epDistance] = this.greedy(query, ep, epDistance, l);
    let starts = [ep];
    for (let l = Math.min(level, this.maxLevel); l >= 0; l--) {
      // linking prepares other queries: prepare this one again for each level
      query = this.space.prepareSlot(slot);
      const near = this.searchLevel(query, starts, efConstruction, l, (n) => n !== slot);
      const chosen = this.select(near.ids, near.distances, M);
      this.setNeighbours(slot, l, chosen);
      for (const n of chosen) this.link(n, l, slot);
      if (near.ids.length > 0) starts = Array.from(near.ids);
    }
    if (level > this.maxLevel) {
      this.entry = slot;
      this.maxLevel = level;
    }
  }

  /** Removes `slot`, linking its neighbours to each other so the graph stays navigable. */
  delete(slot: number): void {
    const level = this.levels[slot]!;
    if (level < 0) return;
    this.levels[slot] = -1;
    this.size--;
    for (let l = level; l >= 0; l--) {
      const out = Array.from(this.neighbours(slot, l));
      for (const n of out) {
        if (this.levels[n]! < l) continue;
        const links = this.neighbours(n, l);
        if (!links.includes(slot)) continue;
        const pool = new Set<number>();
        for (const x of links) if (x !== slot && this.levels[x]! >= l) pool.add(x);
        for (const x of out) if (x !== n && this.levels[x]! >= l) pool.add(x);
        this.relink(n, l, [...pool]);
      }
    }
    this.counts0[slot] = 0;
    this.upper[slot] = undefined;
    this.space.remove(slot);
    this.dirty.add(slot);
    if (this.entry === slot) this.electEntry();
  }

  /** A node of the highest level left becomes the entry point. */
  private electEntry(): void {
    this.entry = -1;
    this.maxLevel = -1;
    for (let s = 0; s < this.levels.length; s++) {
      if (this.levels[s]! > this.maxLevel) {
        this.maxLevel = this.levels[s]!;
        this.entry = s;
      }
    }
  }

  // --- persistence ---

  /** A node as stored: level, then per level its link count and links (u32 LE). */
  encodeNode(slot: number): Uint32Array {
    const level = this.levels[slot]!;
    const parts: number[] = [level];
    for (let l = 0; l <= level; l++) {
      const links = this.neighbours(slot, l);
      parts.push(links.length, ...links);
    }
    return Uint32Array.from(parts);
  }

  /** Forgets a node without repairing its neighbours' links (a stored graph's change is being replayed). */
  forget(slot: number): void {
    if (!this.isLive(slot)) return;
    this.levels[slot] = -1;
    this.size--;
    this.counts0[slot] = 0;
    this.upper[slot] = undefined;
    this.space.remove(slot);
  }

  /** Restores a stored node (its vector is set in the space separately). */
  decodeNode(slot: number, docid: number, node: Uint32Array): void {
    const level = node[0]!;
    this.allocate(slot, docid, level);
    let at = 1;
    for (let l = 0; l <= level; l++) {
      const count = node[at++]!;
      this.setNeighbours(slot, l, node.subarray(at, at + count));
      at += count;
    }
    this.dirty.delete(slot);
  }

  /** Sets the entry point read from the store. */
  restore(entry: number, maxLevel: number): void {
    this.entry = entry;
    this.maxLevel = maxLevel;
  }
}
