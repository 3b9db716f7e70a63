// The memory budget the per-index caches share: everything they hold together stays within it.
import { describe, expect, it } from 'vitest';

import { CacheBudget } from '../../../src/engine/cache-budget.js';

describe('CacheBudget', () => {
  it('empties every cache it counts when a new entry would not fit, whichever cache asks', () => {
    const budget = new CacheBudget(100);
    const caches = Array.from({ length: 5 }, () => new Map<number, number>());
    // five indexes' caches filling up together stay within the one budget
    for (let i = 0; i < 40; i++) {
      const cache = caches[i % 5]!;
      budget.charge(cache, 10);
      cache.set(i, 10);
      const held = caches.reduce((sum, c) => sum + [...c.values()].reduce((a, b) => a + b, 0), 0);
      expect(held).toBeLessThanOrEqual(100);
    }
    expect(caches.every((cache) => cache.size > 0)).toBe(true);
  });

  it('keeps what fits', () => {
    const budget = new CacheBudget(100);
    const a = new Map([[1, 1]]);
    budget.charge(a, 60);
    const b = new Map<number, number>();
    budget.charge(b, 40);
    expect(a.size).toBe(1);
    budget.charge(b, 1);
    expect(a.size).toBe(0);
  });

  it('says whether more bytes fit, and empties every cache it counts when asked', () => {
    const budget = new CacheBudget(100);
    const a = new Map([[1, 1]]);
    budget.charge(a, 70);
    expect([budget.fits(30), budget.fits(31)]).toEqual([true, false]);
    budget.empty();
    expect(a.size).toBe(0);
    expect(budget.fits(100)).toBe(true);
  });
});
