/**
 * A bounded set of open handles (index environments), the least recently used closed first, as
 * Meilisearch's index mapper keeps an LRU of open indexes: each open environment holds file
 * descriptors and a memory map, so a thousand indexes cannot all stay open.
 *
 * A handle is closed only when idle. Two ways of using one keep it open:
 * - `borrow`: for synchronous use (a search, a stats read): the handle stays open until the
 *   current turn of the event loop ends, since a synchronous user is done by then;
 * - `acquire`: a lease, for use across awaits (an index write, a dump), until `release`.
 * Beyond `capacity`, idle handles are closed whenever one is used and again after each turn; the
 * cache holds more than `capacity` only while that many are in use. A handle whose data goes away
 * (a deleted index) is taken once idle (`whenIdle`), as Meilisearch deletes an index's files once
 * its last reader is done: closing it under a read made that read fail.
 */

export interface Lease<T> {
  readonly handle: T;
  /** Ends the lease; a second call does nothing. */
  release(): void;
}

export class OpenHandles<T> {
  /** open handles, least recently used first (a Map keeps insertion order) */
  private readonly open = new Map<string, T>();
  private readonly leases = new Map<string, number>();
  /** keys borrowed during the current turn of the event loop */
  private readonly borrowed = new Set<string>();
  private turnEndScheduled = false;
  /** per key, those waiting for it to be neither leased nor borrowed */
  private readonly idleWaiters = new Map<string, (() => void)[]>();

  constructor(
    private readonly capacity: number,
    private readonly openHandle: (key: string) => T,
    private readonly closeHandle: (handle: T) => void,
  ) {}

  get size(): number {
    return this.open.size;
  }

  isOpen(key: string): boolean {
    return this.open.has(key);
  }

  /** The handle of `key`, opened if needed, kept open until the current turn ends. */
  borrow(key: string): T {
    const handle = this.touch(key);
    this.borrowed.add(key);
    this.trim();
    if (!this.turnEndScheduled) {
      this.turnEndScheduled = true;
      setImmediate(() => {
        this.turnEndScheduled = false;
        this.borrowed.clear();
        this.trim();
        this.wakeIdle();
      });
    }
    return handle;
  }

  /** The handle of `key`, opened if needed, kept open until the lease is released. */
  acquire(key: string): Lease<T> {
    const handle = this.touch(key);
    this.leases.set(key, (this.leases.get(key) ?? 0) + 1);
    this.trim();
    let released = false;
    return {
      handle,
      release: () => {
        if (released) return;
        released = true;
        const count = this.leases.get(key)! - 1;
        if (count === 0) this.leases.delete(key);
        else this.leases.set(key, count);
        this.trim();
        this.wakeIdle();
      },
    };
  }

  /** Resolves once `key` is neither leased nor borrowed: at once when it is not in use. */
  whenIdle(key: string): Promise<void> {
    if (!this.inUse(key)) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.idleWaiters.get(key);
      if (waiters === undefined) this.idleWaiters.set(key, [resolve]);
      else waiters.push(resolve);
    });
  }

  /**
   * Forgets `key` whether in use or not and returns its handle, for the caller to close: for
   * deleting or replacing what the handle reads, once `whenIdle` says no one uses it.
   */
  take(key: string): T | undefined {
    const handle = this.open.get(key);
    this.open.delete(key);
    return handle;
  }

  /** Forgets every handle and returns them, for the caller to close. */
  takeAll(): T[] {
    const handles = [...this.open.values()];
    this.open.clear();
    return handles;
  }

  /** Closes every idle handle (when the OS refused to open one more). Returns how many it closed. */
  closeIdle(): number {
    return this.closeIdleWhile(() => true);
  }

  private touch(key: string): T {
    let handle = this.open.get(key);
    if (handle === undefined) {
      handle = this.openNew(key);
      this.open.set(key, handle);
    } else {
      // moved to the most recently used end
      this.open.delete(key);
      this.open.set(key, handle);
    }
    return handle;
  }

  /** A failed open is tried once more after closing the idle handles: the OS may have run out of descriptors. */
  private openNew(key: string): T {
    try {
      return this.openHandle(key);
    } catch (err) {
      if (this.closeIdle() === 0) throw err;
      return this.openHandle(key);
    }
  }

  private inUse(key: string): boolean {
    return this.leases.has(key) || this.borrowed.has(key);
  }

  private wakeIdle(): void {
    for (const [key, waiters] of this.idleWaiters) {
      if (this.inUse(key)) continue;
      this.idleWaiters.delete(key);
      for (const wake of waiters) wake();
    }
  }

  private trim(): void {
    this.closeIdleWhile(() => this.open.size > this.capacity);
  }

  private closeIdleWhile(more: () => boolean): number {
    let closed = 0;
    for (const [key, handle] of this.open) {
      if (!more()) break;
      if (this.inUse(key)) continue;
      this.open.delete(key);
      this.closeHandle(handle);
      closed++;
    }
    return closed;
  }
}
