import { setImmediate } from 'node:timers';
import { describe, expect, it } from 'vitest';
import { searchTurn } from '../../../src/search/search-turns.js';

/** Resolves after the event loop has gone round `n` times (each immediate set in a check phase runs in the next one). */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('searchTurn', () => {
  it('lets a lone search start at once, in the turn that asked', async () => {
    await turns(2);
    let started = false;
    void searchTurn().then(() => (started = true));
    await Promise.resolve();
    expect(started).toBe(true);
  });

  it('starts searches asked for in one turn one per turn, first come first served', async () => {
    await turns(2);
    const order: number[] = [];
    const waits = [0, 1, 2, 3].map((i) => searchTurn().then(() => order.push(i)));
    await Promise.resolve();
    expect(order).toEqual([0]);
    await turns(1);
    expect(order).toEqual([0, 1]);
    await turns(1);
    expect(order).toEqual([0, 1, 2]);
    await Promise.all(waits);
    expect(order).toEqual([0, 1, 2, 3]);
  });
});
