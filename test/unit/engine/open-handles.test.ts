import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { OpenHandles } from '../../../src/engine/open-handles.js';

interface Handle {
  key: string;
  closed: boolean;
}

function handles(capacity: number, refuseBeyond = Infinity) {
  const opened: Handle[] = [];
  const cache = new OpenHandles<Handle>(
    capacity,
    (key) => {
      if (opened.filter((h) => !h.closed).length >= refuseBeyond) throw Object.assign(new Error('Too many open files'), { code: 24 });
      const handle = { key, closed: false };
      opened.push(handle);
      return handle;
    },
    (handle) => {
      handle.closed = true;
    },
  );
  const openKeys = () => opened.filter((h) => !h.closed).map((h) => h.key);
  return { cache, opened, openKeys };
}

/** Uses `key` through a lease released at once, so only capacity keeps it open. */
function touch(cache: OpenHandles<Handle>, key: string): Handle {
  const lease = cache.acquire(key);
  lease.release();
  return lease.handle;
}

describe('OpenHandles', () => {
  it('opens a handle once and reuses it', () => {
    const { cache, opened } = handles(2);
    expect(touch(cache, 'a')).toBe(touch(cache, 'a'));
    expect(opened).toHaveLength(1);
  });

  it('closes the least recently used idle handle beyond its capacity', () => {
    const { cache, openKeys } = handles(2);
    touch(cache, 'a');
    touch(cache, 'b');
    touch(cache, 'a'); // b is now the least recently used
    touch(cache, 'c');
    expect(openKeys().sort()).toEqual(['a', 'c']);
    expect(cache.size).toBe(2);
    expect(cache.isOpen('b')).toBe(false);
  });

  it('reopens an evicted handle as a new one', () => {
    const { cache } = handles(1);
    const first = touch(cache, 'a');
    touch(cache, 'b');
    expect(first.closed).toBe(true);
    const again = touch(cache, 'a');
    expect(again).not.toBe(first);
    expect(again.closed).toBe(false);
  });

  it('never closes a leased handle, and closes it once released if over capacity', () => {
    const { cache, openKeys } = handles(1);
    const a = cache.acquire('a');
    const b = cache.acquire('b');
    touch(cache, 'c');
    expect(openKeys().sort()).toEqual(['a', 'b']);
    a.release();
    a.release(); // a second release does nothing
    expect(a.handle.closed).toBe(true);
    expect(b.handle.closed).toBe(false);
    b.release();
    expect(cache.size).toBe(1);
  });

  it('counts leases: a handle leased twice stays open until both end', () => {
    const { cache } = handles(1);
    const one = cache.acquire('a');
    const two = cache.acquire('a');
    const b = cache.acquire('b');
    one.release();
    expect(one.handle.closed).toBe(false);
    two.release();
    expect(one.handle.closed).toBe(true);
    b.release();
  });

  it('keeps a borrowed handle open for the rest of the turn, then closes it', async () => {
    const { cache, openKeys } = handles(2);
    const borrowed = ['a', 'b', 'c', 'd'].map((key) => cache.borrow(key));
    // a synchronous user (a multi-search) may hold more than the capacity within its turn
    expect(borrowed.every((handle) => !handle.closed)).toBe(true);
    expect(cache.size).toBe(4);
    await nextTurn();
    expect(cache.size).toBe(2);
    expect(openKeys().sort()).toEqual(['c', 'd']);
  });

  it('retries an open the OS refused after closing the idle handles', () => {
    const { cache, openKeys } = handles(10, 2);
    touch(cache, 'a');
    touch(cache, 'b');
    expect(touch(cache, 'c').closed).toBe(false);
    expect(openKeys()).toEqual(['c']);
  });

  it('passes the refusal on when every open handle is in use', () => {
    const { cache } = handles(10, 1);
    cache.acquire('a');
    expect(() => cache.acquire('b')).toThrow('Too many open files');
  });

  it('says a handle is idle once its last lease ends', async () => {
    const { cache } = handles(2);
    const first = cache.acquire('a');
    const second = cache.acquire('a');
    let idle = false;
    const waiting = cache.whenIdle('a').then(() => (idle = true));
    first.release();
    await nextTurn();
    expect(idle).toBe(false);
    second.release();
    await waiting;
    expect(idle).toBe(true);
  });

  it('says a borrowed handle is idle once the turn that borrowed it ends, and an unused one at once', async () => {
    const { cache } = handles(2);
    cache.borrow('a');
    let idle = false;
    const waiting = cache.whenIdle('a').then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    await waiting;
    await expect(cache.whenIdle('never-opened')).resolves.toBeUndefined();
  });

  it('take forgets a handle even while it is in use, for its owner to close', () => {
    const { cache } = handles(2);
    const lease = cache.acquire('a');
    expect(cache.take('a')).toBe(lease.handle);
    expect(cache.isOpen('a')).toBe(false);
    lease.release();
    expect(lease.handle.closed).toBe(false);
  });
});
