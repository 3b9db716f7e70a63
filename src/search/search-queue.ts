/**
 * The search queue (v1.50's `SearchQueue`; cli-config.md `--experimental-search-queue-size`,
 * `--experimental-nb-searches-per-core`, `--experimental-drop-search-after`): at most
 * `parallelism` searches run at once; the others wait for a permit in a queue of `capacity`.
 * As Meilisearch:
 * - when the queue is full, a random waiting search is refused to make room for the new one;
 * - a finished search hands its permit to a random waiting one;
 * - a capacity of 0 refuses every search that cannot run at once;
 * - a search that waited longer than `dropAfterMs` is refused when its turn comes (its client has
 *   most likely given up).
 * A refusal is 503 `too_many_search_requests` with `Retry-After: 10`. Searches wait here while
 * they await (query embeddings, the turns a long multi-search gives the event loop); a plain
 * keyword search runs within one turn and releases its permit at once.
 */
import { ApiError } from '../errors/api-error.js';

export interface Permit {
  /** Frees the slot for a waiting search; a second call does nothing. */
  release(): void;
}

interface Waiting {
  readonly since: number;
  readonly grant: (permit: Permit) => void;
  readonly refuse: (error: ApiError) => void;
}

export class SearchQueue {
  private running = 0;
  private readonly waiting: Waiting[] = [];

  constructor(
    private readonly capacity: number,
    private readonly parallelism: number,
    private readonly dropAfterMs: number,
    private readonly random: () => number = Math.random,
  ) {}

  /** Searches holding a permit, searches waiting for one, and how many may wait (for `/metrics`). */
  get counts(): { running: number; waiting: number; capacity: number } {
    return { running: this.running, waiting: this.waiting.length, capacity: this.capacity };
  }

  /** Resolves with a permit once the search may run; rejects with `too_many_search_requests`. */
  permit(): Promise<Permit> {
    if (this.running < this.parallelism) {
      this.running++;
      return Promise.resolve(this.newPermit());
    }
    if (this.capacity === 0) return Promise.reject(this.tooMany());
    if (this.waiting.length >= this.capacity) this.takeRandom().refuse(this.tooMany());
    return new Promise<Permit>((grant, refuse) => this.waiting.push({ since: performance.now(), grant, refuse }));
  }

  private newPermit(): Permit {
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.running--;
        this.handOver();
      },
    };
  }

  /** Gives the freed slot to a random waiting search; one that waited too long is refused and the next tried. */
  private handOver(): void {
    while (this.waiting.length > 0 && this.running < this.parallelism) {
      const next = this.takeRandom();
      if (performance.now() - next.since > this.dropAfterMs) {
        next.refuse(this.tooMany());
        continue;
      }
      this.running++;
      next.grant(this.newPermit());
    }
  }

  private takeRandom(): Waiting {
    const at = Math.min(this.waiting.length - 1, Math.floor(this.random() * this.waiting.length));
    const last = this.waiting.pop()!;
    if (at === this.waiting.length) return last;
    const taken = this.waiting[at]!;
    this.waiting[at] = last;
    return taken;
  }

  private tooMany(): ApiError {
    return new ApiError('too_many_search_requests', `Too many search requests running at the same time: ${this.capacity}. Retry after 10s.`);
  }
}
