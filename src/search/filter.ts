/**
 * A request's filter before any index is read: parsed, then refused when it uses an operator whose
 * experimental feature is off. A foreign-key filter (`_foreign(...)`) is refused too, unless the
 * route resolves it (`foreign: true`: search, facet search, similar, the document list, through
 * foreign.ts); delete by filter and edit by function refuse it, as in v1.50. Each route passes its
 * own error code.
 */
import type { ErrorCode } from '../errors/codes.js';
import { assertFilterFeatures, rejectForeignFilter } from '../engine/filter/gates.js';
import { parseFilter, type FilterAst } from '../engine/filter-parser/index.js';
import type { Caller } from '../auth/caller.js';
import type { SearchContext } from './context.js';

/** The filter's syntax tree, or null when there is none (absent, null, blank, empty array). */
export function checkedFilter(features: SearchContext['features'], filter: unknown, code: ErrorCode, { foreign = false } = {}): FilterAst | null {
  const ast = parseFilter(filter, { code });
  if (ast !== null) {
    assertFilterFeatures(ast, (feature) => features.enabled(feature));
    if (!foreign) rejectForeignFilter(ast, code);
  }
  return ast;
}

/**
 * Two filters ANDed as v1.50's `fuse_filters` joins JSON filters (a query's and its tenant token's,
 * a query's and its shard's): either alone when the other is absent, else one array holding the
 * elements of both (a non-array side counts as one element), parsed as one filter, where an
 * element neither a string nor an array of strings is refused as an array's (``expected String, [String]``).
 */
export function fuseFilters(left: unknown, right: unknown): unknown {
  if (left === undefined || left === null) return right ?? null;
  if (right === undefined || right === null) return left;
  return [...(Array.isArray(left) ? left : [left]), ...(Array.isArray(right) ? right : [right])];
}

/** A search's filter on index `uid`: `filter` (the query's) fused with the tenant token's, checked; `_foreign` calls are left for foreign.ts. */
export function searchFilterAsts(features: SearchContext['features'], caller: Pick<Caller, 'searchFilter'>, uid: string, filter: unknown): FilterAst[] {
  const ast = checkedFilter(features, fuseFilters(filter, caller.searchFilter(uid)), 'invalid_search_filter', { foreign: true });
  return ast === null ? [] : [ast];
}
