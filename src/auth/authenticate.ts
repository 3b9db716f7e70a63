/**
 * Request authentication (keys-auth.md §7, http-conventions.md §7): parses the Authorization
 * header and decides whether its token may perform the route's actions, on the index named in
 * the route's path if any. Runs before any other request processing (http/route.ts, onRequest).
 *
 * Order, as Meilisearch: header syntax (even without a master key); no master key → everything
 * open except the `keys.*` routes; the master key; a tenant token (search and chat routes only);
 * an API key; the key must still exist; the path's index must be opened by the token and by the
 * key (specific 403 messages); the key must hold every action there and not be expired.
 * Any refusal of a request that carried no header is reported as the missing header.
 * Never logs or echoes the token. This module is the auth entry point of the HTTP layer: it
 * also exports the `Caller` type handlers receive (documented in caller.ts).
 */
import { timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors/api-error.js';
import { KEY_ACTIONS, type Action } from '../types/key.js';
import { invalidApiKey, missingAuthorizationHeader, missingMasterKey } from './auth-errors.js';
import { Caller, KeyGrant } from './caller.js';
import { nowNs } from '../types/dates.js';
import { formatPatternList } from './index-pattern.js';
import type { KeyStore } from './key-store.js';
import { readTenantToken, rulePatterns, searchRulesCover, type SearchRules } from './tenant-token.js';

export { Caller } from './caller.js';

/** The caller of public routes (and of every route when no master key is set). */
export const UNRESTRICTED = Caller.open();

export type Credential = { kind: 'none' } | { kind: 'token'; token: string };

/** Routes where a tenant token stands in for its API key. */
const TENANT_TOKEN_ACTIONS: ReadonlySet<Action> = new Set<Action>(['search', 'chatCompletions']);

/**
 * A byte other than visible ASCII or tab. Node hands header values over decoded as latin1, one
 * character per byte, so the test runs on the bytes received.
 */
const NOT_VISIBLE_ASCII = /[^\t\x20-\x7e]/;

/** Header parsing rules, applied even when no master key is set. */
export function parseAuthorization(header: string | undefined): Credential {
  if (header === undefined) return { kind: 'none' };
  // Meilisearch reads the value as text only when every byte is visible ASCII or a tab (the
  // `http` crate's `to_str`); any other value reads as empty, which is not the Bearer scheme.
  if (NOT_VISIBLE_ASCII.test(header)) throw missingAuthorizationHeader();
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'Bearer') throw missingAuthorizationHeader();
  if (space === -1) throw invalidApiKey();
  return { kind: 'token', token: header.slice(space + 1) };
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  // Compare equal-length buffers so the time taken does not reveal a prefix match.
  return left.length === right.length && timingSafeEqual(left, right);
}

export class Authenticator {
  constructor(
    private readonly masterKey: string | null,
    private readonly keys: KeyStore,
  ) {}

  get hasMasterKey(): boolean {
    return this.masterKey !== null;
  }

  /**
   * The caller, or the Meilisearch auth error (401/403) when the request may not proceed.
   * @param actions every action the route requires
   * @param index the index uid of the route's path (`:indexUid`), as sent
   */
  async authenticate(header: string | undefined, actions: readonly Action[], index?: string): Promise<Caller> {
    const credential = parseAuthorization(header);
    if (this.masterKey === null) {
      if (actions.some((action) => KEY_ACTIONS.includes(action))) throw missingMasterKey();
      return UNRESTRICTED;
    }
    try {
      return await this.authorize(credential.kind === 'token' ? credential.token : '', actions, index, this.masterKey);
    } catch (error) {
      if (credential.kind === 'none' && error instanceof ApiError) throw missingAuthorizationHeader();
      throw error;
    }
  }

  private async authorize(token: string, actions: readonly Action[], index: string | undefined, masterKey: string): Promise<Caller> {
    if (sameSecret(token, masterKey)) return Caller.master();

    let keyUid: string | undefined;
    let rules: SearchRules | null = null;
    if (actions.every((action) => TENANT_TOKEN_ACTIONS.has(action))) {
      const outcome = await readTenantToken(token, masterKey, BigInt(Math.floor(Date.now() / 1000)));
      if (outcome.kind === 'invalid') throw invalidApiKey(outcome.message);
      if (outcome.kind === 'valid') [keyUid, rules] = [outcome.apiKeyUid, outcome.searchRules];
    }
    keyUid ??= this.keys.findUidByValue(token);
    const key = keyUid === undefined ? undefined : this.keys.get(keyUid);
    if (key === undefined) throw invalidApiKey();
    const grant = new KeyGrant(key.uid, key.indexes, key.actions, this.keys.expiresAtNs(key.uid));

    if (index !== undefined) {
      // The token's rules are the client's own data: they may be listed. The key's are not,
      // when the client holds only a token.
      if (rules !== null && !searchRulesCover(rules, index)) {
        throw invalidApiKey(
          `The provided tenant token cannot acces the index \`${index}\`, allowed indexes are ${formatPatternList(rulePatterns(rules))}.`,
        );
      }
      if (!grant.coversIndex(index)) {
        throw invalidApiKey(
          rules !== null
            ? `The API key used to generate this tenant token cannot acces the index \`${index}\`.`
            : `The API key cannot acces the index \`${index}\`, authorized indexes are ${formatPatternList(key.indexes)}.`,
        );
      }
    }
    const now = nowNs();
    if (!actions.every((action) => grant.allows(action, index, now))) throw invalidApiKey();
    return Caller.forKey(grant, rules);
  }
}
