import { describe, expect, it } from 'vitest';
import { decodePresentedKey, deriveKey } from '../../../src/auth/key-derivation.js';

describe('deriveKey', () => {
  it('matches the reference test vectors (HMAC-SHA256 of the uid with the master key, lowercase hex)', () => {
    expect(deriveKey('MASTER_KEY', '00000000-0000-0000-0000-000000000000')).toBe(
      'aeb94973e0b6e912d94165430bbe87dee91a7c4f891ce19050c3910ec96977e9',
    );
    expect(deriveKey('MASTER_KEY', '4bc0887a-0e41-4f3b-935d-0c451dcee9c8')).toBe(
      'd9e776b8412f1db6974c9a5556b961c3559440b6588216f4ea5d9ed49f7c8f3c',
    );
  });

  it('changes with the master key', () => {
    expect(deriveKey('ANOTHER_MASTER_KEY', '00000000-0000-0000-0000-000000000000')).not.toBe(
      deriveKey('MASTER_KEY', '00000000-0000-0000-0000-000000000000'),
    );
  });
});

describe('decodePresentedKey', () => {
  it('reads hex in either case', () => {
    expect(decodePresentedKey('0aFF')).toEqual(Buffer.from([0x0a, 0xff]));
  });

  it('refuses non-hex and odd-length tokens instead of decoding a prefix', () => {
    expect(decodePresentedKey('0aZZ')).toBeNull();
    expect(decodePresentedKey('abc')).toBeNull();
    expect(decodePresentedKey('doggo')).toBeNull();
  });
});
