import { describe, expect, it } from 'vitest';
import { invalidExpiresAtMessage, parseExpiresAt } from '../../../src/auth/dates.js';

const NOW = BigInt(Date.parse('2025-01-01T00:00:00Z')) * 1_000_000n;
const ns = (iso: string) => BigInt(Date.parse(iso)) * 1_000_000n;

describe('parseExpiresAt', () => {
  it('keeps the offset of RFC 3339 dates and prints UTC as Z', () => {
    expect(parseExpiresAt('2050-11-13T00:00:00Z', NOW)).toEqual({ text: '2050-11-13T00:00:00Z', ns: ns('2050-11-13T00:00:00Z') });
    expect(parseExpiresAt('2050-11-13T00:00:00+02:00', NOW)).toEqual({
      text: '2050-11-13T00:00:00+02:00',
      ns: ns('2050-11-12T22:00:00Z'),
    });
    expect(parseExpiresAt('2050-11-13t00:00:00.500z', NOW)?.text).toBe('2050-11-13T00:00:00.5Z');
    expect(parseExpiresAt('2050-11-13T00:00:00+00:00', NOW)?.text).toBe('2050-11-13T00:00:00Z');
    expect(parseExpiresAt('2050-11-13T00:00:00.1234567891234-05:30', NOW)?.text).toBe('2050-11-13T00:00:00.123456789-05:30');
  });

  it('reads dates without an offset as UTC', () => {
    expect(parseExpiresAt('2050-11-13T10:20:30', NOW)?.text).toBe('2050-11-13T10:20:30Z');
    expect(parseExpiresAt('2050-11-13 10:20:30', NOW)?.text).toBe('2050-11-13T10:20:30Z');
    expect(parseExpiresAt('2050-11-13', NOW)?.text).toBe('2050-11-13T00:00:00Z');
  });

  it('refuses dates that are not strictly in the future', () => {
    expect(parseExpiresAt('2010-11-13T00:00:00Z', NOW)).toBeUndefined();
    expect(parseExpiresAt('2025-01-01T00:00:00Z', NOW)).toBeUndefined();
    expect(parseExpiresAt('2025-01-01T00:00:00.000000001Z', NOW)).toBeDefined();
  });

  it('refuses other formats and impossible dates', () => {
    for (const raw of ['doggo', '2050-13-01', '2050-02-30', '2050-11-13T25:00:00Z', '2050-11-13T00:00Z', '2050/11/13', '50-11-13', '2050-11-13T00:00:00+26:00', '']) {
      expect(parseExpiresAt(raw, NOW), raw).toBeUndefined();
    }
  });

  it('accepts a leap second only at the end of a UTC month', () => {
    expect(parseExpiresAt('2050-12-31T23:59:60Z', NOW)?.text).toBe('2050-12-31T23:59:59.999999999Z');
    expect(parseExpiresAt('2050-12-30T23:59:60Z', NOW)).toBeUndefined();
  });

  it('words the error as Meilisearch, newline included', () => {
    expect(invalidExpiresAtMessage('2010-11-13T00:00:00Z')).toBe(
      "`2010-11-13T00:00:00Z` is not a valid date. It should follow the RFC 3339 format to represents a date or datetime in the future or specified as a null value. e.g. 'YYYY-MM-DD' or 'YYYY-MM-DD HH:MM:SS'.\n",
    );
  });
});
