import { describe, expect, it } from 'vitest';
import { maskSecret } from '../../../src/types/settings.js';

describe('maskSecret', () => {
  it.each([
    ['short', 'XXX...'],
    ['0123456789', '01XXXX...'],
    ['01234567890123456789', '012XXXXX...'],
    ['My super secret key that is long', 'My suXXXXXX...'],
  ])('masks %s as %s', (secret, expected) => {
    expect(maskSecret(secret)).toBe(expected);
  });
});
