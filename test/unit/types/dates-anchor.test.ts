// fresh process: the first call of nowNs anchors the clock, which no other file may have done.
import { describe, expect, it } from 'vitest';
import { formatRfc3339, nowNs } from '../../../src/types/dates.js';

describe('nowNs', () => {
  it('gives the first timestamp of a process nanoseconds too, within the millisecond Date.now() says', () => {
    const before = BigInt(Date.now()) * 1_000_000n;
    const first = nowNs();
    const after = (BigInt(Date.now()) + 1n) * 1_000_000n;
    expect(first >= before && first < after).toBe(true);
    // an anchor on the millisecond printed three fraction digits (one run in a million is on it by chance)
    expect(first % 1_000_000n).not.toBe(0n);
    expect(formatRfc3339(first)).toMatch(/\.\d{4,9}Z$/);
  });
});
