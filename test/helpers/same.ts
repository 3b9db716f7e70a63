/**
 * `expect(actual).toEqual(expected)` for large values (whole index snapshots): node's deep strict
 * comparison answers first, and vitest's, which is several times slower on a snapshot of
 * thousands of postings, runs only when that fails, to pass what toEqual passes (it is looser:
 * undefined properties, prototypes) or to fail with its diff.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

export function expectSame(actual: unknown, expected: unknown): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
}
