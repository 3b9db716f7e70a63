/**
 * Port of Meilisearch's tests/auth/tenant_token_multi_search.rs: tenant tokens on `POST
 * /multi-search`, plain and federated, over `sales` alone and `sales` + `products`: rules and their
 * filters apply per query, and a query on an index the token or its parent key does not open fails
 * the whole request with ``Inside `.queries[<i>]`: The provided API key is invalid.``
 * Adapted to v1.50 as tenant_token.rs is (meili-tenant-token.test.ts): the restricted parent keys
 * "without search" keep only index-scopable actions, and the messages the test file blanks are
 * asserted as keys-auth.md §7 and §9 word them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  anHourAgo,
  expectRefused,
  forbidden,
  inAnHour,
  noExp,
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
import { RESTRICTED_WITHOUT_SEARCH, WITHOUT_SEARCH } from './meili-authorizations.js';
import { call, type CallResult } from './request.js';

type Query = { indexUid: string; filter?: string | null };

/** The test file's own datasets (no `_vectors`, `Glass` without umlaut). */
const DOCUMENTS = [
  { title: 'Shazam!', id: '287947', color: ['green', 'blue'] },
  { title: 'Captain Marvel', id: '299537', color: ['yellow', 'blue'] },
  { title: 'Escape Room', id: '522681', color: ['yellow', 'red'] },
  { title: 'How to Train Your Dragon: The Hidden World', id: '166428', color: ['green', 'red'] },
  { title: 'Glass', id: '450465', color: ['blue', 'red'] },
];
const NESTED_DOCUMENTS = [
  { id: 852, father: 'jean', mother: 'michelle', doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], cattos: 'pesti' },
  { id: 654, father: 'pierre', mother: 'sabine', doggos: [{ name: 'gros bill', age: 8 }], cattos: ['simba', 'pestiféré'] },
  { id: 750, father: 'romain', mother: 'michelle', cattos: ['enigma'] },
  { id: 951, father: 'jean-baptiste', mother: 'sophie', doggos: [{ name: 'turbo', age: 5 }, { name: 'fast', age: 6 }], cattos: ['moumoute', 'gomez'] },
];

/** `ACCEPTED_KEYS_SINGLE`: the parent keys a token may search `sales` with. */
const ACCEPTED_KEYS_SINGLE = SALES_ACCEPTED_KEYS;
const ACCEPTED_KEYS_BOTH = [
  { indexes: ['*'], actions: ['*'] },
  { indexes: ['*'], actions: ['search'] },
  { indexes: ['sales', 'products'], actions: ['*'] },
  { indexes: ['sales', 'products'], actions: ['search'] },
  { indexes: ['sal*', 'prod*'], actions: ['search'] },
];

const inQuery = (i: number) => `Inside \`.queries[${i}]\`: The provided API key is invalid.`;

/** Parent keys refused by every token searching `sales` and `products`. */
const BOTH_REFUSED_KEYS: [object, string][] = [
  [{ indexes: ['*'], actions: WITHOUT_SEARCH }, INVALID_API_KEY],
  [{ indexes: ['sales', 'products'], actions: RESTRICTED_WITHOUT_SEARCH }, INVALID_API_KEY],
  [{ indexes: ['sales'], actions: ['*'] }, inQuery(1)],
  [{ indexes: ['sales'], actions: ['search'] }, inQuery(1)],
  [{ indexes: ['sal*', 'proa*'], actions: ['search'] }, inQuery(1)],
  [{ indexes: ['products'], actions: ['*'] }, inQuery(0)],
  [{ indexes: ['prod*', 'p*'], actions: ['*'] }, inQuery(0)],
  [{ indexes: ['products'], actions: ['search'] }, inQuery(0)],
];

let server: TestServer;
/** Keys created with the master key, one per body (the test file's key lists share bodies). */
const keys = new Map<string, CreatedKey>();

beforeAll(async () => {
  server = await startServer({ masterKey: MASTER_KEY });
  await succeed(server, 'POST', '/indexes/sales/documents', DOCUMENTS);
  await succeed(server, 'PATCH', '/indexes/sales/settings', { filterableAttributes: ['color'] });
  await succeed(server, 'POST', '/indexes/products/documents', NESTED_DOCUMENTS);
  await succeed(server, 'PATCH', '/indexes/products/settings', { filterableAttributes: ['doggos'] });
});
afterAll(async () => {
  await server.dispose();
});

async function parentKey(body: object): Promise<CreatedKey> {
  const id = JSON.stringify(body);
  if (!keys.has(id)) keys.set(id, await addKey(server, { ...body, expiresAt: rfc3339In(86_400_000) }));
  return keys.get(id)!;
}

/** The multi-search of `queries` with `token`, plain then federated. */
async function multiSearch(token: string, queries: Query[]): Promise<[CallResult, CallResult]> {
  return [
    await call(server, 'POST', '/multi-search', { key: token, body: { queries } }),
    await call(server, 'POST', '/multi-search', { key: token, body: { federation: {}, queries } }),
  ];
}

/**
 * Each token, signed by each parent key, finds `counts[i]` documents for query `i`, and their sum
 * when the same queries are federated.
 */
async function expectAuthorized(parents: readonly object[], tokens: Claims[], queries: Query[], counts: number[]): Promise<void> {
  const actual: string[] = [];
  const expected: string[] = [];
  for (const body of parents) {
    const parent = await parentKey(body);
    for (const claims of tokens) {
      const label = `key ${JSON.stringify(body)}, token ${JSON.stringify(claims.searchRules)}`;
      const [plain, federated] = await multiSearch(tenantToken(parent.uid, parent.key, claims), queries);
      const results = (plain.body as { results?: { hits: unknown[] }[] }).results;
      actual.push(`${label}: ${plain.status} ${results?.map((r) => r.hits.length).join(',') ?? JSON.stringify(plain.body)}`);
      actual.push(`${label}, federated: ${federated.status} ${(federated.body as { hits?: unknown[] }).hits?.length ?? JSON.stringify(federated.body)}`);
      expected.push(`${label}: 200 ${counts.join(',')}`, `${label}, federated: 200 ${counts.reduce((a, b) => a + b)}`);
    }
  }
  expect(actual).toEqual(expected);
}

/** Each token, signed by each parent key, is refused `queries`, plain and federated, with `messageFor`'s message. */
async function expectForbidden(parents: readonly object[], tokens: Claims[], queries: Query[], messageFor: (parent: number, token: number) => string | RegExp): Promise<void> {
  for (const [p, body] of parents.entries()) {
    const parent = await parentKey(body);
    for (const [t, claims] of tokens.entries()) {
      const message = messageFor(p, t);
      const context = `key ${JSON.stringify(body)}, token ${JSON.stringify(claims)}`;
      for (const res of await multiSearch(tenantToken(parent.uid, parent.key, claims), queries)) {
        expectRefused(res, message, context);
      }
    }
  }
}

const SALES: Query[] = [{ indexUid: 'sales', filter: null }];
const BOTH: Query[] = [{ indexUid: 'sales', filter: null }, { indexUid: 'products', filter: null }];

describe('multi-search with a tenant token', () => {
  it('finds every document of sales with rules opening it (single_search_authorized_simple_token)', async () => {
    const tokens = salesTokens();
    await expectAuthorized([...ACCEPTED_KEYS_SINGLE, ...ACCEPTED_KEYS_BOTH], tokens, SALES, [5]);
  });

  it('finds every document of both indexes with rules opening them (multi_search_authorized_simple_token)', async () => {
    const tokens = [
      inAnHour({ '*': {} }),
      inAnHour(['*']),
      inAnHour({ sales: {}, products: {} }),
      inAnHour(['sales', 'products']),
      noExp({ '*': {} }),
      noExp({ '*': null }),
      noExp(['*']),
      noExp({ sales: {}, products: {} }),
      noExp({ sales: null, products: null }),
      noExp(['sales', 'products']),
      noExp(['sa*', 'pro*']),
    ];
    await expectAuthorized(ACCEPTED_KEYS_BOTH, tokens, BOTH, [5, 4]);
  });

  it('applies the most specific rule filter of sales (single_search_authorized_filter_token)', async () => {
    const tokens = salesBlueTokens();
    await expectAuthorized([...ACCEPTED_KEYS_SINGLE, ...ACCEPTED_KEYS_BOTH], tokens, SALES, [3]);
  });

  it('applies each index\'s own rule filter (multi_search_authorized_filter_token)', async () => {
    const tokens = [
      inAnHour({ sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ sales: { filter: ['color = blue'] }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ '*': { filter: 'color = green' }, sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ '*': {}, sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ '*': { filter: 'color = green' }, sales: { filter: ['color = blue'] }, products: { filter: ['doggos.age <= 5'] } }),
      inAnHour({ '*': {}, sales: { filter: ['color = blue'] }, products: { filter: ['doggos.age <= 5'] } }),
    ];
    await expectAuthorized(ACCEPTED_KEYS_BOTH, tokens, BOTH, [3, 2]);
  });

  it('ANDs the rule filter with the query filter (filter_single_search_authorized_filter_token)', async () => {
    const tokens = salesBlueTokensWithPattern();
    await expectAuthorized([...ACCEPTED_KEYS_SINGLE, ...ACCEPTED_KEYS_BOTH], tokens, [{ indexUid: 'sales', filter: 'color = yellow' }], [1]);
  });

  it('ANDs each rule filter with its query\'s filter (filter_multi_search_authorized_filter_token)', async () => {
    const tokens = [
      inAnHour({ sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ sales: { filter: ['color = blue'] }, products: { filter: ['doggos.age <= 5'] } }),
      inAnHour({ '*': { filter: 'color = green' }, sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ '*': {}, sales: { filter: 'color = blue' }, products: { filter: 'doggos.age <= 5' } }),
      inAnHour({ '*': { filter: 'color = green' }, sales: { filter: ['color = blue'] }, products: { filter: ['doggos.age <= 5'] } }),
      inAnHour({ '*': {}, sales: { filter: ['color = blue'] }, products: { filter: ['doggos.age <= 5'] } }),
      inAnHour({ '*': {}, 'sal*': { filter: ['color = blue'] }, 'pro*': { filter: ['doggos.age <= 5'] } }),
    ];
    const queries = [{ indexUid: 'sales', filter: 'color = yellow' }, { indexUid: 'products', filter: 'doggos.age > 4' }];
    await expectAuthorized(ACCEPTED_KEYS_BOTH, tokens, queries, [1, 1]);
  });

  it('is refused for sales when the parent key cannot search it (error_single_search_token_forbidden_parent_key)', async () => {
    const tokens = salesTokensForRefusedKeys();
    await expectForbidden(SALES_REFUSED_KEYS, tokens, SALES, (p) => (p < SALES_REFUSED_KEYS_WITHOUT_SEARCH ? INVALID_API_KEY : inQuery(0)));
  });

  it('is refused for both indexes when the parent key cannot search one (error_multi_search_token_forbidden_parent_key)', async () => {
    const tokens = [
      inAnHour({ '*': {} }),
      inAnHour({ '*': null }),
      inAnHour(['*']),
      inAnHour({ sales: {}, products: {} }),
      inAnHour({ sales: null, products: null }),
      inAnHour(['sales', 'products']),
      inAnHour(['sali*', 's*', 'sales*', 'pro*', 'proa*', 'products*']),
    ];
    await expectForbidden(BOTH_REFUSED_KEYS.map(([body]) => body), tokens, BOTH, (p) => BOTH_REFUSED_KEYS[p]![1]);
  });

  it('is refused for sales when the rules do not open it or the token expired (error_single_search_forbidden_token)', async () => {
    const tokens = salesForbiddenTokens();
    await expectForbidden(ACCEPTED_KEYS_SINGLE, tokens, SALES, (_, t) => (t < SALES_FORBIDDEN_BY_RULES ? inQuery(0) : EXPIRED_TOKEN));
  });

  it('is refused for both indexes when the rules miss one or the token expired (error_multi_search_forbidden_token)', async () => {
    const tokens = [
      inAnHour({ products: {} }),
      inAnHour(['products']),
      noExp({ products: {} }),
      noExp({ products: null }),
      noExp(['products']),
      inAnHour({ sales: {} }),
      inAnHour(['sales']),
      noExp({ sales: {} }),
      noExp({ sales: null }),
      noExp(['sales']),
      anHourAgo({ '*': {} }),
      anHourAgo({ '*': null }),
      anHourAgo(['*']),
      anHourAgo({ sales: {}, products: {} }),
      anHourAgo({ sales: null, products: {} }),
      anHourAgo(['sales', 'products']),
    ];
    await expectForbidden(ACCEPTED_KEYS_BOTH, tokens, BOTH, (_, t) => (t < 5 ? inQuery(0) : t < 10 ? inQuery(1) : EXPIRED_TOKEN));
  });
});

describe('a tenant token on multi-search', () => {
  it('stops working when its parent key expires (error_access_expired_parent_key)', async () => {
    const expiresAt = rfc3339In(1000);
    const parent = await addKey(server, { indexes: ['*'], actions: ['*'], expiresAt });
    const token = tenantToken(parent.uid, parent.key, inAnHour(['*']));
    const queries = [{ indexUid: 'sales' }, { indexUid: 'products' }];
    expect((await call(server, 'POST', '/multi-search', { key: token, body: { queries } })).status).toBe(200);
    await waitUntilPast(expiresAt);
    expect(await call(server, 'POST', '/multi-search', { key: token, body: { queries } })).toEqual(forbidden());
  });

  it('is refused with InvalidSignature once its payload is swapped for another (error_access_modified_token)', async () => {
    const parent = await addKey(server, { indexes: ['*'], actions: ['*'], expiresAt: rfc3339In(3_600_000) });
    const token = tenantToken(parent.uid, parent.key, inAnHour(['products']));
    const body = { queries: [{ indexUid: 'products' }] };
    expect((await call(server, 'POST', '/multi-search', { key: token, body })).status).toBe(200);
    const modified = withPayloadOf(token, tenantToken(parent.uid, parent.key, inAnHour(['*'])));
    expect(await call(server, 'POST', '/multi-search', { key: modified, body })).toEqual(
      forbidden('Could not decode tenant token, InvalidSignature.'),
    );
  });
});
