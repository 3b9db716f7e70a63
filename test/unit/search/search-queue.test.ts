// The search queue: `parallelism` searches at once, the others waiting; a full queue refuses a
// random waiting search, a freed slot goes to a random one, a capacity of 0 refuses at once, and a
// search that waited too long is refused when its turn comes — 503 too_many_search_requests.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { SearchQueue, type Permit } from '../../../src/search/search-queue.js';

const TOO_MANY = (capacity: number) => `Too many search requests running at the same time: ${capacity}. Retry after 10s.`;

/** The settled state of a permit promise, without waiting for it. */
function watch(promise: Promise<Permit>): { state: () => 'waiting' | Permit | ApiError } {
  let state: 'waiting' | Permit | ApiError = 'waiting';
  promise.then(
    (permit) => (state = permit),
    (error: ApiError) => (state = error),
  );
  return { state: () => state };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('SearchQueue', () => {
  it('runs `parallelism` searches at once and makes the next one wait for a released slot', async () => {
    const queue = new SearchQueue(10, 2, 60_000);
    const first = await queue.permit();
    await queue.permit();
    const third = watch(queue.permit());
    await settle();
    expect(third.state()).toBe('waiting');
    expect(queue.counts).toEqual({ running: 2, waiting: 1, capacity: 10 });
    first.release();
    first.release(); // a second release frees nothing more
    await settle();
    expect(third.state()).not.toBe('waiting');
    expect(queue.counts).toEqual({ running: 2, waiting: 0, capacity: 10 });
  });

  it('refuses a random waiting search when the queue is full, and takes the new one', async () => {
    // random() = 0: the first waiting search is the one refused
    const queue = new SearchQueue(2, 1, 60_000, () => 0);
    const running = await queue.permit();
    const a = watch(queue.permit());
    const b = watch(queue.permit());
    const c = watch(queue.permit());
    await settle();
    expect(a.state()).toBeInstanceOf(ApiError);
    expect((a.state() as ApiError).code).toBe('too_many_search_requests');
    expect((a.state() as ApiError).message).toBe(TOO_MANY(2));
    expect((a.state() as ApiError).status).toBe(503);
    expect([b.state(), c.state()]).toEqual(['waiting', 'waiting']);
    running.release();
    await settle();
    // the freed slot went to a (random) waiting search
    expect([b.state(), c.state()].filter((state) => state !== 'waiting')).toHaveLength(1);
  });

  it('refuses at once with a capacity of 0 when every slot is taken', async () => {
    const queue = new SearchQueue(0, 1, 60_000);
    await queue.permit();
    await expect(queue.permit()).rejects.toMatchObject({ code: 'too_many_search_requests', message: TOO_MANY(0) });
  });

  it('refuses a search that waited longer than the drop delay when its turn comes', async () => {
    const queue = new SearchQueue(10, 1, 20);
    const running = await queue.permit();
    const late = watch(queue.permit());
    await new Promise((resolve) => setTimeout(resolve, 40));
    running.release();
    await settle();
    expect((late.state() as ApiError).code).toBe('too_many_search_requests');
    expect(queue.counts).toEqual({ running: 0, waiting: 0, capacity: 10 });
  });
});
