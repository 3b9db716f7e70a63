/**
 * Port of Meilisearch's tests/auth/tenant_token.rs: searches on index `sales` with tenant tokens of
 * every `searchRules` form (list, map with `null`, `{}` or a filter, patterns), with or without
 * `exp`, signed with parent keys that allow the search or not; the token's filter ANDed with the
 * query's; tokens on other routes, expired parent keys, tampered tokens.
 * Adapted to v1.50: the test file's parent key restricted to `sales` "without search" holds every
 * other action, global ones included, which v1.50 refuses (keys-auth.md §4.2): it keeps the
 * index-scopable ones. "Without search" also leaves out `*.get`, which grants it. The messages the
 * test file blanks are asserted as keys-auth.md §9 words them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENTS } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';
import {
  EXPIRED_TOKEN,
  INVALID_API_KEY,
  MASTER_KEY,
  SALES_ACCEPTED_KEYS,
  SALES_FORBIDDEN_BY_RULES,
  SALES_REFUSED_KEYS,
  SALES_REFUSED_KEYS_WITHOUT_SEARCH,
  addKey,
  expectRefused,
  forbidden,
  inAnHour,
  rfc3339In,
  salesBlueTokens,
  salesBlueTokensWithPattern,
  salesForbiddenTokens,
  salesTokens,
  salesTokensForRefusedKeys,
  succeed,
  tenantToken,
  waitUntilPast,
  withPayloadOf,
  type Claims,
  type CreatedKey,
} from './meili-auth.js';
import { AUTHORIZATIONS, outcome } from './meili-authorizations.js';
import { call } from './request.js';

const inADay = () => rfc3339In(86_400_000);
const KEY_CANNOT_ACCESS_SALES = 'The API key used to generate this tenant token cannot acces the index `sales`.';

let server: TestServer;
let acceptedKeys: CreatedKey[];

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  await succeed(server, 'POST', '/indexes/sales/documents', DOCUMENTS);
  await succeed(server, 'PATCH', '/indexes/sales/settings', { filterableAttributes: ['color'] });
  acceptedKeys = [];
  for (const key of SALES_ACCEPTED_KEYS) acceptedKeys.push(await addKey(server, { ...key, expiresAt: inADay() }));
});
afterAll(async () => {
  await server.dispose();
});

/** Meilisearch's `index.search`: the POST search and its GET form, each status and body. */
async function searchBoth(token: string, filter: string | null) {
  const get = filter === null ? '' : `?filter=${encodeURIComponent(filter)}`;
  return [
    await call(server, 'POST', '/indexes/sales/search', { key: token, body: { filter } }),
    await call(server, 'GET', `/indexes/sales/search${get}`, { key: token }),
  ];
}

/** Each token, signed by each accepted key, finds `count` documents of `sales` with `filter`. */
async function expectAuthorizedSearch(tokens: Claims[], filter: string | null, count: number): Promise<void> {
  const actual: string[] = [];
  const expected: string[] = [];
  for (const [k, parent] of acceptedKeys.entries()) {
    for (const claims of tokens) {
      const label = `key ${JSON.stringify(SALES_ACCEPTED_KEYS[k])}, token ${JSON.stringify(claims.searchRules)}`;
      for (const res of await searchBoth(tenantToken(parent.uid, parent.key, claims), filter)) {
        actual.push(`${label}: ${res.status} ${(res.body as { hits?: unknown[] }).hits?.length ?? JSON.stringify(res.body)}`);
        expected.push(`${label}: 200 ${count}`);
      }
    }
  }
  expect(actual).toEqual(expected);
}

/** Each token, signed by each parent key, is refused `sales` with the message `messageFor` gives. */
async function expectForbiddenSearch(tokens: Claims[], parents: CreatedKey[], messageFor: (token: number, parent: number) => string | RegExp): Promise<void> {
  for (const [p, parent] of parents.entries()) {
    for (const [t, claims] of tokens.entries()) {
      const message = messageFor(t, p);
      const context = `token ${JSON.stringify(claims)}`;
      for (const res of await searchBoth(tenantToken(parent.uid, parent.key, claims), null)) {
        expectRefused(res, message, context);
      }
    }
  }
}

describe('searching with a tenant token', () => {
  it('finds every document with rules opening sales, with or without exp (search_authorized_simple_token)', async () => {
    await expectAuthorizedSearch(salesTokens(), null, 5);
  });

  it('applies the filter of the most specific rule (search_authorized_filter_token)', async () => {
    await expectAuthorizedSearch(salesBlueTokens(), null, 3);
  });

  it('ANDs the rule filter with the query filter (filter_search_authorized_filter_token)', async () => {
    await expectAuthorizedSearch(salesBlueTokensWithPattern(), 'color = yellow', 1);
  });

  it('is refused when the parent key cannot search sales (error_search_token_forbidden_parent_key)', async () => {
    const tokens = salesTokensForRefusedKeys();
    const parents: CreatedKey[] = [];
    for (const key of SALES_REFUSED_KEYS) parents.push(await addKey(server, { ...key, expiresAt: inADay() }));
    await expectForbiddenSearch(tokens, parents, (_, p) => (p < SALES_REFUSED_KEYS_WITHOUT_SEARCH ? INVALID_API_KEY : KEY_CANNOT_ACCESS_SALES));
  });

  it('is refused when the rules do not open sales or the token expired (error_search_forbidden_token)', async () => {
    const otherIndex = 'The provided tenant token cannot acces the index `sales`, allowed indexes are ["products"].';
    const tokens = salesForbiddenTokens();
    await expectForbiddenSearch(tokens, acceptedKeys, (t) => (t < SALES_FORBIDDEN_BY_RULES ? otherIndex : EXPIRED_TOKEN));
  });
});

describe('a tenant token', () => {
  it('is an invalid API key on every route that does not search (error_access_forbidden_routes)', async () => {
    const parent = await addKey(server, { indexes: ['*'], actions: ['*'], expiresAt: rfc3339In(3_600_000) });
    const token = tenantToken(parent.uid, parent.key, inAnHour(['*']));
    const routes = AUTHORIZATIONS.filter((r) => !r.opens.includes('search'));
    expect(routes.length).toBeGreaterThan(0);
    const actual: Record<string, unknown> = {};
    for (const r of routes) actual[`${r.method} ${r.path}`] = await outcome(server, r, token);
    expect(actual).toEqual(Object.fromEntries(routes.map((r) => [`${r.method} ${r.path}`, forbidden()])));
  });

  it('stops working when its parent key expires (error_access_expired_parent_key)', async () => {
    const expiresAt = rfc3339In(1000);
    const parent = await addKey(server, { indexes: ['*'], actions: ['*'], expiresAt });
    const token = tenantToken(parent.uid, parent.key, inAnHour(['*']));
    const search = AUTHORIZATIONS.find((r) => r.method === 'POST' && r.path === '/indexes/products/search')!;
    expect(await outcome(server, search, token)).toBe('allowed');
    await waitUntilPast(expiresAt);
    expect(await outcome(server, search, token)).toEqual(forbidden());
  });

  it('is refused with InvalidSignature once its payload is swapped for another (error_access_modified_token)', async () => {
    const parent = await addKey(server, { indexes: ['*'], actions: ['*'], expiresAt: rfc3339In(3_600_000) });
    const token = tenantToken(parent.uid, parent.key, inAnHour(['products']));
    const search = AUTHORIZATIONS.find((r) => r.method === 'POST' && r.path === '/indexes/products/search')!;
    expect(await outcome(server, search, token)).toBe('allowed');
    const modified = withPayloadOf(token, tenantToken(parent.uid, parent.key, inAnHour(['*'])));
    expect(await outcome(server, search, modified)).toEqual(forbidden('Could not decode tenant token, InvalidSignature.'));
  });
});
