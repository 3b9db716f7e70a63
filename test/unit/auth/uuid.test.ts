import { describe, expect, it } from 'vitest';
import { parseUuid } from '../../../src/auth/uuid.js';

const CANONICAL = '4bc0887a-0e41-4f3b-935d-0c451dcee9c8';

describe('parseUuid', () => {
  it('accepts the hyphenated, simple, braced and URN forms in either case, returning the canonical form', () => {
    for (const text of [
      CANONICAL,
      CANONICAL.toUpperCase(),
      CANONICAL.replace(/-/g, ''),
      `{${CANONICAL}}`,
      `urn:uuid:${CANONICAL}`,
    ]) {
      expect(parseUuid(text)).toEqual({ ok: true, uuid: CANONICAL });
    }
  });

  it('reports the uuid crate errors Meilisearch quotes', () => {
    expect(parseUuid('doggo')).toEqual({ ok: false, error: 'invalid character: found `o` at 1' });
    expect(parseUuid('aaaaabbbbbccc')).toEqual({ ok: false, error: 'invalid length: found 13' });
    expect(parseUuid('')).toEqual({ ok: false, error: 'invalid length: found 0' });
    expect(parseUuid('a'.repeat(46))).toEqual({ ok: false, error: 'invalid length: found 46' });
    expect(parseUuid('4bc0887a-0e41-4f3b-935d')).toEqual({ ok: false, error: 'invalid group count: expected 5, found 4' });
    expect(parseUuid('4bc0887a0-e41-4f3b-935d-0c451dcee9c8')).toEqual({
      ok: false,
      error: 'invalid group length in group 0: expected 8, found 9',
    });
    expect(parseUuid('4bc0887a-0e41-4f3b-935d-0c451dcee9c8a')).toEqual({
      ok: false,
      error: 'invalid group length in group 4: expected 12, found 13',
    });
    expect(parseUuid('4bc0887a-0e41-4f3b-935d-0c451dcee9cé')).toEqual({ ok: false, error: 'invalid character: found `é` at 35' });
  });
});
