import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { validateIndexUid } from '../../../src/indexes/uid.js';
import { invalidIndexUidMessage } from '../../../src/types/index-uid.js';

describe('validateIndexUid', () => {
  it.each(['movies', '12', 'x'.repeat(400)])('returns the valid %j', (uid) => {
    expect(validateIndexUid(uid)).toBe(uid);
  });

  it('throws invalid_index_uid with the bare message for path segments', () => {
    expect(() => validateIndexUid('the good doggo')).toThrow(ApiError);
    try {
      validateIndexUid('the good doggo');
    } catch (error) {
      expect((error as ApiError).toBody()).toEqual({
        message: invalidIndexUidMessage('the good doggo'),
        code: 'invalid_index_uid',
        type: 'invalid_request',
        link: 'https://docs.meilisearch.com/errors#invalid_index_uid',
      });
    }
  });
});
