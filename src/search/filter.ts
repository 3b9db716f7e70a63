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

/** A search's filters on index `uid`: `filter` (the query's) and the tenant token's, checked; `_foreign` calls are left for foreign.ts. */
export function searchFilterAsts(features: SearchContext['features'], caller: Pick<Caller, 'searchFilter'>, uid: string, filter: unknown): FilterAst[] {
  return [filter, caller.searchFilter(uid)].flatMap((sent) => checkedFilter(features, sent, 'invalid_search_filter', { foreign: true }) ?? []);
}
