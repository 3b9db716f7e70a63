import { createHmac } from 'node:crypto';
import { generateTenantToken } from 'meilisearch/token';
import { describe, expect, it } from 'vitest';
import { deriveKey } from '../../../src/auth/key-derivation.js';
import { readTenantToken, rulePatterns, searchRulesCover, searchRulesFilter, type SearchRules } from '../../../src/auth/tenant-token.js';

const MASTER_KEY = 'MASTER_KEY';
const UID = '00000000-0000-0000-0000-000000000000';
const KEY = deriveKey(MASTER_KEY, UID);
const NOW = 1_700_000_000n;
const JWT_HEADER = '{"typ":"JWT","alg":"HS256"}';

const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64url');

/** A token from raw header and payload texts, so that serde positions are predictable. */
function token(payload: string, secret = KEY, header = JWT_HEADER, hash = 'sha256'): string {
  const signed = `${b64(header)}.${b64(payload)}`;
  return `${signed}.${createHmac(hash, secret).update(signed).digest('base64url')}`;
}

const read = (jwt: string) => readTenantToken(jwt, MASTER_KEY, NOW);
const invalid = (reason: string) => ({ kind: 'invalid', message: `Could not decode tenant token, ${reason}.` });

describe('readTenantToken', () => {
  it('leaves tokens that are not three dot-separated parts to the API key check', async () => {
    expect(await read(KEY)).toEqual({ kind: 'not-a-token' });
    expect(await read('a.b')).toEqual({ kind: 'not-a-token' });
    expect(await read('')).toEqual({ kind: 'not-a-token' });
  });

  it('accepts a token signed with the key of its apiKeyUid', async () => {
    const outcome = await read(token(`{"searchRules":["dog*","cat"],"apiKeyUid":"${UID}"}`));
    expect(outcome).toEqual({ kind: 'valid', apiKeyUid: UID, searchRules: { kind: 'list', patterns: new Set(['dog*', 'cat']) } });
  });

  it('accepts HS384 and HS512, and any textual form of the uid', async () => {
    const payload = `{"searchRules":{"*":null},"apiKeyUid":"${UID.replace(/-/g, '')}"}`;
    for (const [alg, hash] of [['HS384', 'sha384'], ['HS512', 'sha512']]) {
      const outcome = await read(token(payload, KEY, `{"alg":"${alg}"}`, hash));
      expect(outcome.kind, alg).toBe('valid');
    }
  });

  it('accepts the tokens of the meilisearch client', async () => {
    const jwt = await generateTenantToken({
      apiKey: KEY,
      apiKeyUid: UID,
      searchRules: { movies: { filter: 'genre = comedy' }, 'mov*': null },
      expiresAt: new Date(Number(NOW + 60n) * 1000),
    });
    const outcome = await read(jwt);
    expect(outcome).toEqual({
      kind: 'valid',
      apiKeyUid: UID,
      searchRules: { kind: 'map', filters: new Map<string, unknown>([['movies', 'genre = comedy'], ['mov*', null]]) },
    });
  });

  it('reports a missing searchRules after the claims object, as serde_json', async () => {
    expect(await read(token('{"tamo":"kefir"}', 'tamo'))).toEqual(
      invalid('JSON error: missing field `searchRules` at line 1 column 16'),
    );
  });

  it('reports searchRules of the wrong shape as an untagged enum mismatch', async () => {
    expect(await read(token('{"searchRules":"kefir"}', 'tamo'))).toEqual(
      invalid('JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 23'),
    );
    expect(await read(token(`{"searchRules":{"a":"b"},"apiKeyUid":"${UID}"}`))).toEqual(
      invalid('JSON error: data did not match any variant of untagged enum SearchRules at line 1 column 25'),
    );
  });

  it('reports a missing or malformed apiKeyUid', async () => {
    expect(await read(token('{"searchRules":["*"]}'))).toEqual(invalid('JSON error: missing field `apiKeyUid` at line 1 column 21'));
    expect(await read(token('{"searchRules":["*"],"apiKeyUid":"doggo"}'))).toEqual(
      invalid('JSON error: UUID parsing failed: invalid character: found `o` at 1 at line 1 column 41'),
    );
  });

  it('reports a token signed with something else than the derived key', async () => {
    expect(await read(token(`{"searchRules":["kefir"],"apiKeyUid":"${UID}"}`, 'tamo'))).toEqual(invalid('InvalidSignature'));
    expect(await readTenantToken(token(`{"searchRules":["kefir"],"apiKeyUid":"${UID}"}`), 'OTHER_MASTER_KEY', NOW)).toEqual(
      invalid('InvalidSignature'),
    );
  });

  it('refuses a non-canonical signature encoding', async () => {
    const jwt = token(`{"searchRules":["*"],"apiKeyUid":"${UID}"}`);
    const last = jwt.at(-1)!;
    const sibling = String.fromCharCode(last.charCodeAt(0) ^ 1);
    expect(await read(jwt.slice(0, -1) + sibling)).toEqual(invalid('InvalidSignature'));
  });

  it('refuses tokens with an audience, and algorithms other than HMAC ones', async () => {
    expect(await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}","aud":"me"}`))).toEqual(invalid('InvalidAudience'));
    // jsonwebtoken validates the claims last: the algorithm and the signature are refused first
    expect(await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}","aud":"me"}`, 'tamo'))).toEqual(invalid('InvalidSignature'));
    expect(await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}","aud":"me"}`, KEY, '{"alg":"RS256"}'))).toEqual(invalid('InvalidAlgorithm'));
    expect(await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}"}`, KEY, '{"alg":"RS256"}'))).toEqual(invalid('InvalidAlgorithm'));
    expect(await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}"}`, KEY, '{"alg":"none"}'))).toEqual(
      invalid(
        'JSON error: unknown variant `none`, expected one of `HS256`, `HS384`, `HS512`, `ES256`, `ES384`, `RS256`, `RS384`, `RS512`, `PS256`, `PS384`, `PS512`, `EdDSA` at line 1 column 14',
      ),
    );
  });

  it('reports undecodable parts in the base64 crate words, its trailing dot included', async () => {
    expect(await read('!!!!.e30.sig')).toEqual(invalid('Base64 error: Invalid symbol 33, offset 0.'));
    expect(await read(`${b64(JWT_HEADER)}.e30=.sig`)).toEqual(invalid('Base64 error: Invalid padding'));
    expect(await read(`${b64(JWT_HEADER)}.e30xx.sig`)).toEqual(invalid('Base64 error: Invalid input length: 5'));
    expect(await read(`${b64(JWT_HEADER)}.e31.sig`)).toEqual(invalid('Base64 error: Invalid last symbol 49, offset 2.'));
  });

  it('refuses an expired token with both instants, and accepts one expiring this second', async () => {
    const payload = (exp: bigint) => `{"searchRules":["*"],"apiKeyUid":"${UID}","exp":${exp}}`;
    expect(await read(token(payload(NOW - 1n)))).toEqual({
      kind: 'invalid',
      message: `Tenant token expired. Was valid up to \`${NOW - 1n}\` and we're now \`${NOW}\`.`,
    });
    expect((await read(token(payload(NOW)))).kind).toBe('valid');
    expect((await read(token(`{"searchRules":["*"],"apiKeyUid":"${UID}","exp":null}`))).kind).toBe('valid');
  });
});

describe('search rules', () => {
  const list: SearchRules = { kind: 'list', patterns: new Set(['dog*', 'cat']) };
  const map: SearchRules = {
    kind: 'map',
    filters: new Map<string, unknown>([['*', 'a = 1'], ['mov*', 'b = 2'], ['movies', 'c = 3'], ['movies_*', null]]),
  };

  it('open the indexes their patterns match', () => {
    expect(searchRulesCover(list, 'doggo')).toBe(true);
    expect(searchRulesCover(list, 'cat')).toBe(true);
    expect(searchRulesCover(list, 'catto')).toBe(false);
    expect(searchRulesCover(map, 'anything')).toBe(true);
    expect([...rulePatterns(list)]).toEqual(['dog*', 'cat']);
  });

  it('attach the filter of the most specific matching rule', () => {
    expect(searchRulesFilter(map, 'movies')).toBe('c = 3');
    expect(searchRulesFilter(map, 'movies_fr')).toBeNull();
    expect(searchRulesFilter(map, 'mov')).toBe('b = 2');
    expect(searchRulesFilter(map, 'books')).toBe('a = 1');
    expect(searchRulesFilter(list, 'doggo')).toBeNull();
  });
});
