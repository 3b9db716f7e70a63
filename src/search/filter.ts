/**
 * A request's filter before any index is read: parsed, then refused when it uses an operator whose
 * experimental feature is off or a foreign-key filter. Search, the document list, delete by filter
 * and edit by function check their filters this same way, each with its own error code.
 */
import type { ErrorCode } from '../errors/codes.js';
import { assertFilterFeatures, rejectForeignFilter } from '../engine/filter/gates.js';
import { parseFilter, type FilterAst } from '../engine/filter-parser/index.js';
import type { SearchContext } from './context.js';

/** The filter's syntax tree, or null when there is none (absent, null, blank, empty array). */
export function checkedFilter(features: SearchContext['features'], filter: unknown, code: ErrorCode): FilterAst | null {
  const ast = parseFilter(filter, { code });
  if (ast !== null) {
    assertFilterFeatures(ast, (feature) => features.enabled(feature));
    rejectForeignFilter(ast, code);
  }
  return ast;
}
