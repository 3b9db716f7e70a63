import { describe, expect, it } from 'vitest';
import { indexUidProblem, invalidIndexUidMessage, isValidIndexUid } from '../../../src/types/index-uid.js';

const MESSAGE =
  '`the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.';

describe('index uid', () => {
  it.each(['movies', 'Movies_2024', 'a-b_c', '12', '0', 'x'.repeat(400)])('accepts %j', (uid) => {
    expect(isValidIndexUid(uid)).toBe(true);
    expect(indexUidProblem(uid)).toBeUndefined();
  });

  it.each(['', 'the good doggo', 'a.b', 'a/b', 'é', 'movies*', 'x'.repeat(401)])('refuses %j', (uid) => {
    expect(isValidIndexUid(uid)).toBe(false);
  });

  it('keeps the 512-byte wording although 400 bytes are enforced', () => {
    expect(invalidIndexUidMessage('the good doggo')).toBe(MESSAGE);
  });

  it('gives the reason as a validator, for bodies and query strings to prefix', () => {
    expect(indexUidProblem('the good doggo')).toBe(MESSAGE);
    expect(indexUidProblem(12)).toMatch(/^`12` is not a valid index uid\./);
  });
});
