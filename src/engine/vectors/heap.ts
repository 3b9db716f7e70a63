/**
 * A binary heap of (distance, id) pairs in typed arrays, for the HNSW searches (hnsw.ts): a min
 * heap of candidates to expand and a max heap of the best found so far, with no allocation per
 * push. `sign` -1 makes it a max heap.
 */
export class DistanceHeap {
  private dist: Float64Array;
  private ids: Uint32Array;
  size = 0;

  constructor(
    private readonly sign: 1 | -1,
    capacity = 64,
  ) {
    this.dist = new Float64Array(capacity);
    this.ids = new Uint32Array(capacity);
  }

  clear(): void {
    this.size = 0;
  }

  /** The top's distance (smallest for a min heap, largest for a max heap). */
  topDistance(): number {
    return this.dist[0]! * this.sign;
  }

  topId(): number {
    return this.ids[0]!;
  }

  push(distance: number, id: number): void {
    if (this.size === this.dist.length) this.grow();
    const d = distance * this.sign;
    let i = this.size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.dist[parent]! <= d) break;
      this.dist[i] = this.dist[parent]!;
      this.ids[i] = this.ids[parent]!;
      i = parent;
    }
    this.dist[i] = d;
    this.ids[i] = id;
  }

  /** Removes the top; read it first with topDistance/topId. */
  pop(): void {
    const n = --this.size;
    if (n === 0) return;
    const d = this.dist[n]!;
    const id = this.ids[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && this.dist[child + 1]! < this.dist[child]!) child++;
      if (this.dist[child]! >= d) break;
      this.dist[i] = this.dist[child]!;
      this.ids[i] = this.ids[child]!;
      i = child;
    }
    this.dist[i] = d;
    this.ids[i] = id;
  }

  /** The content as pairs sorted by ascending distance; empties the heap. */
  drainAscending(): { ids: Uint32Array; distances: Float64Array } {
    const n = this.size;
    const ids = new Uint32Array(n);
    const distances = new Float64Array(n);
    if (this.sign === 1) {
      for (let i = 0; i < n; i++) {
        distances[i] = this.topDistance();
        ids[i] = this.topId();
        this.pop();
      }
    } else {
      for (let i = n - 1; i >= 0; i--) {
        distances[i] = this.topDistance();
        ids[i] = this.topId();
        this.pop();
      }
    }
    return { ids, distances };
  }

  private grow(): void {
    const dist = new Float64Array(this.dist.length * 2);
    dist.set(this.dist);
    const ids = new Uint32Array(this.ids.length * 2);
    ids.set(this.ids);
    this.dist = dist;
    this.ids = ids;
  }
}
