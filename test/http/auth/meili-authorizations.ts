/**
 * The AUTHORIZATIONS table of Meilisearch's tests/auth/authorization.rs, which its tenant-token
 * tests share: each route and the actions that open it (keys-auth.md §4.1, §8), extended to the
 * v1.50 routes Quarry serves and to the `*.get` action; and the index scope of actions (§4.2).
 */

import type { TestServer } from '../../helpers/server.js';

export interface RouteCase {
  method: string;
  path: string;
  /** Every action that opens the route; the first is the permission it requires. */
  opens: readonly string[];
}

const route = (method: string, path: string, ...opens: string[]): RouteCase => ({ method, path, opens });
const reads = (action: string, wildcard?: string) => [action, ...(wildcard ? [wildcard] : []), '*.get', '*'];

const WEBHOOK = '/webhooks/00000000-0000-0000-0000-000000000000';
const SETTINGS = ['displayed-attributes', 'distinct-attribute', 'filterable-attributes', 'ranking-rules', 'searchable-attributes', 'sortable-attributes', 'stop-words', 'synonyms'];

/** The test file's routes (paths as it writes them, trailing slashes included), then v1.50 ones. */
export const AUTHORIZATIONS: readonly RouteCase[] = [
  route('POST', '/multi-search', ...reads('search')),
  route('POST', '/indexes/products/search', ...reads('search')),
  route('GET', '/indexes/products/search', ...reads('search')),
  route('POST', '/indexes/products/documents', 'documents.add', 'documents.*', '*'),
  route('GET', '/indexes/products/documents', ...reads('documents.get', 'documents.*')),
  route('POST', '/indexes/products/documents/fetch', ...reads('documents.get', 'documents.*')),
  route('GET', '/indexes/products/documents/0', ...reads('documents.get', 'documents.*')),
  route('DELETE', '/indexes/products/documents/0', 'documents.delete', 'documents.*', '*'),
  route('POST', '/indexes/products/documents/delete-batch', 'documents.delete', 'documents.*', '*'),
  route('POST', '/indexes/products/documents/delete', 'documents.delete', 'documents.*', '*'),
  route('GET', '/tasks', ...reads('tasks.get', 'tasks.*')),
  route('DELETE', '/tasks', 'tasks.delete', 'tasks.*', '*'),
  route('GET', '/tasks?indexUid=products', ...reads('tasks.get', 'tasks.*')),
  route('GET', '/tasks/0', ...reads('tasks.get', 'tasks.*')),
  route('PATCH', '/indexes/products/', 'indexes.update', 'indexes.*', '*'),
  route('GET', '/indexes/products/', ...reads('indexes.get', 'indexes.*')),
  route('DELETE', '/indexes/products/', 'indexes.delete', 'indexes.*', '*'),
  route('POST', '/indexes', 'indexes.create', 'indexes.*', '*'),
  route('GET', '/indexes', ...reads('indexes.get', 'indexes.*')),
  route('POST', '/swap-indexes', 'indexes.swap', 'indexes.*', '*'),
  route('GET', '/indexes/products/settings', ...reads('settings.get', 'settings.*')),
  ...SETTINGS.map((name) => route('GET', `/indexes/products/settings/${name}`, ...reads('settings.get', 'settings.*'))),
  route('DELETE', '/indexes/products/settings', 'settings.update', 'settings.*', '*'),
  route('PATCH', '/indexes/products/settings', 'settings.update', 'settings.*', '*'),
  route('PATCH', '/indexes/products/settings/typo-tolerance', 'settings.update', 'settings.*', '*'),
  ...SETTINGS.map((name) => route('PUT', `/indexes/products/settings/${name}`, 'settings.update', 'settings.*', '*')),
  route('GET', '/indexes/products/stats', ...reads('stats.get', 'stats.*')),
  route('GET', '/stats', ...reads('stats.get', 'stats.*')),
  route('POST', '/dumps', 'dumps.create', 'dumps.*', '*'),
  route('POST', '/snapshots', 'snapshots.create', 'snapshots.*', '*'),
  route('GET', '/version', ...reads('version')),
  route('GET', '/metrics', ...reads('metrics.get', 'metrics.*')),
  route('POST', '/logs/stream', ...reads('metrics.get', 'metrics.*')),
  route('DELETE', '/logs/stream', ...reads('metrics.get', 'metrics.*')),
  route('PATCH', '/keys/mykey/', 'keys.update', '*'),
  route('GET', '/keys/mykey/', 'keys.get', '*'),
  route('DELETE', '/keys/mykey/', 'keys.delete', '*'),
  route('POST', '/keys', 'keys.create', '*'),
  route('GET', '/keys', 'keys.get', '*'),
  route('GET', '/experimental-features', ...reads('experimental.get')),
  route('PATCH', '/experimental-features', 'experimental.update', '*'),
  route('GET', '/network', ...reads('network.get')),
  route('PATCH', '/network', 'network.update', '*'),
  // v1.50 routes the test file predates.
  route('POST', '/indexes/products/facet-search', ...reads('search')),
  route('PUT', '/indexes/products/documents', 'documents.add', 'documents.*', '*'),
  route('DELETE', '/indexes/products/documents', 'documents.delete', 'documents.*', '*'),
  // Requires the `documents.*` permission itself, which only `*` grants (keys-auth.md §8).
  route('POST', '/indexes/products/documents/edit', '*'),
  route('POST', '/indexes/products/compact', 'indexes.compact', 'indexes.*', '*'),
  route('POST', '/indexes/products/fields', 'fields.post', '*.get', '*'),
  route('POST', '/tasks/cancel', 'tasks.cancel', 'tasks.*', '*'),
  route('POST', '/tasks/compact', 'tasks.compact', 'tasks.*', '*'),
  route('GET', '/tasks/0/documents', ...reads('tasks.get', 'tasks.*')),
  route('GET', '/batches', ...reads('tasks.get', 'tasks.*')),
  route('GET', '/batches/0', ...reads('tasks.get', 'tasks.*')),
  route('POST', '/logs/stderr', ...reads('metrics.get', 'metrics.*')),
  route('POST', '/network/control', 'network.update', '*'),
  route('GET', '/webhooks', ...reads('webhooks.get', 'webhooks.*')),
  route('GET', WEBHOOK, ...reads('webhooks.get', 'webhooks.*')),
  route('POST', '/webhooks', 'webhooks.create', 'webhooks.*', '*'),
  route('PATCH', WEBHOOK, 'webhooks.update', 'webhooks.*', '*'),
  route('DELETE', WEBHOOK, 'webhooks.delete', 'webhooks.*', '*'),
];

export const ALL_ACTIONS: readonly string[] = [...new Set(AUTHORIZATIONS.flatMap((r) => r.opens))];

/** Actions an index-restricted key may not hold (keys-auth.md §4.2, "Global only"). */
export const GLOBAL_ONLY = new Set([
  'tasks.compact', 'metrics.*', 'metrics.get', 'dumps.*', 'dumps.create', 'snapshots.*', 'snapshots.create', 'version',
  'keys.create', 'keys.get', 'keys.update', 'keys.delete', 'experimental.get', 'experimental.update', 'export',
  'network.get', 'network.update', 'webhooks.get', 'webhooks.update', 'webhooks.delete', 'webhooks.create', 'webhooks.*',
]);
/** Every action of the table but those granting `search` (the tenant-token tests' parent keys "without search"). */
export const WITHOUT_SEARCH: readonly string[] = ALL_ACTIONS.filter((action) => !['search', '*', '*.get'].includes(action));
/** {@link WITHOUT_SEARCH} less the global-only actions, which an index-restricted key may not hold. */
export const RESTRICTED_WITHOUT_SEARCH: readonly string[] = WITHOUT_SEARCH.filter((action) => !GLOBAL_ONLY.has(action));

/** Permissions whose index-less routes an index-restricted key may call (keys-auth.md §4.2, "Handler-checked"). */
export const HANDLER_CHECKED = new Set([
  'search', 'documents.get', 'indexes.create', 'indexes.get', 'indexes.swap', 'tasks.get', 'tasks.cancel', 'tasks.delete',
  'settings.get', 'stats.*', 'stats.get',
]);

/**
 * Meilisearch's `dummy_request` (an empty JSON object as the body of methods that take one):
 * `allowed`, or the refusal (status and error body) when the answer is 401 or 403. Other answers
 * are not read: `/metrics` is not JSON.
 */
export async function outcome(server: TestServer, r: RouteCase, key: string): Promise<unknown> {
  const withBody = ['POST', 'PUT', 'PATCH'].includes(r.method);
  const res = await fetch(`${server.url}${r.path}`, {
    method: r.method,
    headers: { authorization: `Bearer ${key}`, ...(withBody ? { 'content-type': 'application/json' } : {}) },
    body: withBody ? '{}' : undefined,
  });
  const text = await res.text();
  return res.status === 401 || res.status === 403 ? { status: res.status, body: JSON.parse(text) } : 'allowed';
}
