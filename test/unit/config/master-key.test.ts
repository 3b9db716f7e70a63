import { describe, expect, it } from 'vitest';
import { checkMasterKey, generateMasterKey, MASTER_KEY_MIN_SIZE } from '../../../src/config/master-key.js';

const GENERATED = /We generated a new secure master key for you \(you can safely use this token\):\n\n>> --master-key [A-Za-z0-9_-]{43} <<$/;

describe('generateMasterKey', () => {
  it('makes 32 random bytes in base64url without padding, fresh each time', () => {
    const key = generateMasterKey();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(key, 'base64url')).toHaveLength(32);
    expect(generateMasterKey()).not.toBe(key);
  });
});

describe('checkMasterKey (reference §4)', () => {
  it('requires at least 16 bytes', () => {
    expect(MASTER_KEY_MIN_SIZE).toBe(16);
  });

  it('refuses production without a key, offering a generated one', () => {
    const { fatal, warnings } = checkMasterKey({ env: 'production', masterKey: null });
    expect(fatal).toMatch(
      /^You must provide a master key to secure your instance in a production environment\. It can be specified via the QUARRY_MASTER_KEY \(or MEILI_MASTER_KEY\) environment variable or the --master-key launch option\.\n\n/,
    );
    expect(fatal).toMatch(GENERATED);
    expect(warnings).toEqual([]);
  });

  it('refuses production with a key shorter than 16 bytes, saying how long it is', () => {
    const { fatal } = checkMasterKey({ env: 'production', masterKey: 'short' });
    expect(fatal).toMatch(
      /^The master key must be at least 16 bytes in a production environment\. The provided key is only 5 bytes\.\n\n/,
    );
    expect(fatal).toMatch(GENERATED);
  });

  it('counts UTF-8 bytes, not characters', () => {
    // 8 characters, 16 bytes
    expect(checkMasterKey({ env: 'production', masterKey: 'éééééééé' }).fatal).toBeNull();
    // 15 characters... of which one needs two bytes: 16 bytes
    expect(checkMasterKey({ env: 'production', masterKey: 'é'.padEnd(15, 'x') }).fatal).toBeNull();
    expect(checkMasterKey({ env: 'production', masterKey: 'x'.repeat(15) }).fatal).toContain('only 15 bytes');
  });

  it('starts production with a key of 16 bytes or more, silently', () => {
    expect(checkMasterKey({ env: 'production', masterKey: 'x'.repeat(16) })).toEqual({ fatal: null, warnings: [] });
  });

  it('starts development without a key, warning that requests are not authenticated', () => {
    const { fatal, warnings } = checkMasterKey({ env: 'development', masterKey: null });
    expect(fatal).toBeNull();
    expect(warnings).toHaveLength(1);
    const [warning] = warnings as [string];
    expect(warning).toMatch(
      /^No master key was found\. The server will accept unidentified requests\.\n\nA master key of at least 16 bytes will be required when switching to a production environment\.\n\nWe generated/,
    );
    expect(warning).toMatch(/<<\n\nRestart Quarry with the argument above to use this new and secure master key\.$/);
    expect(warning).toMatch(/>> --master-key [A-Za-z0-9_-]{43} <</);
  });

  it('starts development with a short key, warning it is unsafe for production', () => {
    const { fatal, warnings } = checkMasterKey({ env: 'development', masterKey: 'short' });
    expect(fatal).toBeNull();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^Quarry started with a master key considered unsafe for use in a production environment\.\n\nA master key of at least 16 bytes will be required/,
    );
    expect(warnings[0]).toMatch(/>> --master-key [A-Za-z0-9_-]{43} <<\n\nRestart Quarry/);
  });

  it('starts development with a long enough key, silently', () => {
    expect(checkMasterKey({ env: 'development', masterKey: 'x'.repeat(32) })).toEqual({ fatal: null, warnings: [] });
  });

  it('offers a different generated key on each call', () => {
    const first = checkMasterKey({ env: 'production', masterKey: null }).fatal;
    const second = checkMasterKey({ env: 'production', masterKey: null }).fatal;
    expect(first).not.toBe(second);
  });
});
