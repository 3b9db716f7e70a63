/**
 * A memory budget shared by the caches of every index (decoded documents, forward records): when
 * a new entry would not fit, every cache of the budget is emptied and the count starts over. A
 * per-index bound would let an instance with many indexes hold that much memory per index.
 * A cache dropped from use (its index's documents changed) stays counted until the next emptying,
 * which the bound still covers.
 */
export class CacheBudget {
  private readonly filled = new Set<{ clear(): void }>();
  private used = 0;

  constructor(readonly limit: number) {}

  /** Whether `bytes` more fit without emptying the caches. */
  fits(bytes: number): boolean {
    return this.used + bytes <= this.limit;
  }

  /** Empties every cache of the budget; the count starts over. */
  empty(): void {
    for (const filled of this.filled) filled.clear();
    this.filled.clear();
    this.used = 0;
  }

  /** Counts `bytes` more held by `cache`, after emptying every cache when they would not fit. */
  charge(cache: { clear(): void }, bytes: number): void {
    if (!this.fits(bytes)) this.empty();
    this.filled.add(cache);
    this.used += bytes;
  }
}
