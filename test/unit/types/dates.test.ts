import { describe, expect, it } from 'vitest';
import {
  formatDateTime,
  formatDuration,
  formatStepDuration,
  formatRfc3339,
  instantOfRfc3339,
  nowNs,
  parseRfc3339,
  TIME_CRATE_RFC3339,
} from '../../../src/types/dates.js';

const S = 1_000_000_000n;
const MS = 1_000_000n;

describe('formatRfc3339', () => {
  it.each([
    [1_723_107_673_348_471_000n, '2024-08-08T09:01:13.348471Z'],
    [1_723_107_673_348_471_123n, '2024-08-08T09:01:13.348471123Z'],
    [1_723_107_673_300_000_000n, '2024-08-08T09:01:13.3Z'],
    [1_723_107_673_000_000_001n, '2024-08-08T09:01:13.000000001Z'],
    [1_723_107_673_000_000_000n, '2024-08-08T09:01:13Z'],
    [0n, '1970-01-01T00:00:00Z'],
    [2_551_910_400n * S, '2050-11-13T00:00:00Z'],
    [-1n, '1969-12-31T23:59:59.999999999Z'],
  ])('prints %s as %s: UTC, fraction only when non-zero, without trailing zeros', (ts, expected) => {
    expect(formatRfc3339(ts)).toBe(expected);
  });

  it('reads back exactly what it prints', () => {
    for (const t of [1_723_107_673_348_471_123n, 1_723_107_673_000_000_000n, 0n, -1n]) {
      expect(instantOfRfc3339(formatRfc3339(t))).toBe(t);
    }
  });
});

describe('parseRfc3339', () => {
  const strict = { maxOffsetHour: 23, leapSecond: false };

  it('keeps the offset and reads digits past the ninth as nothing', () => {
    const parts = parseRfc3339('2050-11-13T00:00:00.1234567891234-05:30', TIME_CRATE_RFC3339);
    expect(parts).toEqual({ year: 2050, month: 11, day: 13, hour: 0, minute: 0, second: 0, nanosecond: 123_456_789, offset: -330 });
    expect(formatDateTime(parts!)).toBe('2050-11-13T00:00:00.123456789-05:30');
  });

  it('takes offsets up to the rules\' hour and a leap second only where the rules allow it', () => {
    // time 0.3.47 (v1.50's): offset hours up to 23
    expect(parseRfc3339('2050-11-13T00:00:00+23:59', TIME_CRATE_RFC3339)).toBeDefined();
    expect(parseRfc3339('2050-11-13T00:00:00+24:00', TIME_CRATE_RFC3339)).toBeUndefined();
    expect(parseRfc3339('2050-11-13T00:00:00+24:00', strict)).toBeUndefined();
    expect(parseRfc3339('2050-11-13T00:00:00+23:59', strict)).toBeDefined();
    expect(parseRfc3339('2050-12-31T23:59:60Z', TIME_CRATE_RFC3339)?.nanosecond).toBe(999_999_999);
    expect(parseRfc3339('2050-12-31T23:59:60Z', strict)).toBeUndefined();
  });

  it('takes any one ASCII character between the date and the time, as the time crate takes any byte', () => {
    for (const raw of ['2050-11-13 00:00:00Z', '2050-11-13x00:00:00Z', '2050-11-13_00:00:00+02:00', '2050-11-13t00:00:00z']) {
      expect(parseRfc3339(raw, TIME_CRATE_RFC3339)).toBeDefined();
    }
    for (const raw of ['2050-11-1300:00:00Z', '2050-11-13  00:00:00Z', '2050-11-13é00:00:00Z']) expect(parseRfc3339(raw, TIME_CRATE_RFC3339)).toBeUndefined();
  });
});

describe('formatDuration', () => {
  it.each([
    [0n, 'PT0S'],
    [S, 'PT1S'],
    [250n * MS, 'PT0.250S'],
    [9_330_000n, 'PT0.009330S'],
    [1n, 'PT0.000000001S'],
    [3723n * S + 500n * MS, 'PT3723.500S'],
    [86_400n * S, 'P1D'],
    [2n * 86_400n * S + 5n * S, 'P2DT5S'],
    [86_400n * S + 1n, 'P1DT0.000000001S'],
    [59n * S + 120n * 1000n, 'PT59.000120S'],
  ])('prints %s ns as %s', (ns, expected) => {
    expect(formatDuration(ns)).toBe(expected);
  });

  it('prints a negative duration as null', () => {
    expect(formatDuration(-1n)).toBeNull();
  });
});

describe('nowNs', () => {
  it('is close to the wall clock and strictly increasing between calls', () => {
    const a = nowNs();
    const b = nowNs();
    expect(b > a).toBe(true);
    const drift = a / MS - BigInt(Date.now());
    expect(drift < 50n && drift > -50n).toBe(true);
  });
});

describe('formatStepDuration', () => {
  it.each([
    [0n, '0.00ns'],
    [500n, '500.00ns'],
    [350_000n, '350.00µs'],
    [12_345_678n, '12.35ms'],
    [12_344_999n, '12.34ms'],
    [1_204_999_999n, '1.20s'],
    [1_205_000_000n, '1.21s'],
    [999_995n, '1000.00µs'],
    [3_723_500_000_000n, '3723.50s'],
  ])('%s ns prints as %s, like Rust {:.2?}', (ns, text) => {
    expect(formatStepDuration(ns)).toBe(text);
  });
});
