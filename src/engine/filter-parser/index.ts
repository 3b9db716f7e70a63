/**
 * Meilisearch filter expressions → AST: a pure leaf module (grammar → AST, no engine knowledge),
 * like Meilisearch's `filter-parser` crate. The grammar is written at the top of `parser.ts`.
 *
 * Entry points:
 * - `parseFilter(json, { code })`: the request parameter (string, array form, or null). Throws
 *   `ApiError(code, message)` with Meilisearch's exact message; routes pass their own code
 *   (`invalid_search_filter` by default, `invalid_document_filter`, `invalid_similar_filter`, …).
 * - `parseFilterExpression(string)`: one expression. Throws `FilterParseError { description,
 *   span, message }`, for callers that need the span.
 * - `formatFilterError(description, token.span)`: the same `<description>\n<start>:<end> <filter>`
 *   message for errors found after parsing (attribute not filterable, feature not enabled, …).
 * - walk helpers (`walk.ts`) to find experimental operators and the attributes to check.
 * - `canonicalFilter(ast)`: the text v1.50's search re-parses inside the index (`canonical.ts`).
 *
 * Example:
 *   const ast = parseFilter('doggo != echo AND doggo CONTAINS kefir');
 *   const contains = ast && findContainsOperator(ast);
 *   if (contains && !features.containsFilter)
 *     throw new ApiError('feature_not_enabled', formatFilterError(
 *       'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. ' +
 *       'See https://github.com/orgs/meilisearch/discussions/763', contains.span));
 *   // message ends with "\n25:33 doggo != echo AND doggo CONTAINS kefir"
 */
export type { ComparisonOperator, FilterAst, GeoPoint, Span, Token, VectorTarget } from './ast.js';
export { canonicalFilter } from './canonical.js';
export { FilterParseError, formatFilterError } from './errors.js';
export { parseFilter, type FilterArray, type FilterJson, type ParseFilterOptions } from './json.js';
export { parseFilterExpression } from './parser.js';
export {
  filterFields,
  findContainsOperator,
  findField,
  findForeignFilter,
  findVectorFilter,
  operatorOf,
  operatorsUsed,
  walkFilter,
  type FilterOperator,
} from './walk.js';
