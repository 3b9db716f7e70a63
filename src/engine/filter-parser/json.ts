/**
 * The `filter` request parameter as JSON → AST: a string, or the array form (outer array = AND,
 * inner arrays = OR), or null. Callers: every route that takes a filter (search, multi-search,
 * facet-search, similar, documents fetch/delete, tenant-token rules), with their own error code.
 *
 * Rules (Meilisearch `Filter::from_json` / `from_array`):
 * - null/absent, an empty or whitespace-only string, and an array whose strings are all empty
 *   mean "no filter" (null). Routes that forbid an empty filter check for null themselves.
 * - The whole array's shape is checked before any string is parsed, so a type error wins over a
 *   syntax error. Only two levels: strings, or arrays of strings.
 * - Each string is parsed on its own: error positions are relative to that string.
 * - Empty strings are skipped; an inner array left empty is skipped; a single remaining element is
 *   used as is, without an `and`/`or` around it.
 * - Quarry's bound: MAX_FILTER_UNITS characters in all, checked before parsing.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import type { FilterAst } from './ast.js';
import { FilterParseError } from './errors.js';
import { parseFilterExpression } from './parser.js';
import { ConditionBudget } from './scan.js';

/** The array form: `["a = 1", ["b = 2", "b = 3"]]` is `a = 1 AND (b = 2 OR b = 3)`. */
export type FilterArray = ReadonlyArray<string | ReadonlyArray<string>>;

/** What a route receives in its `filter` parameter (before validation it may be any JSON). */
export type FilterJson = string | FilterArray | null;

export interface ParseFilterOptions {
  /** The error code of the route's filter parameter. Default: `invalid_search_filter`. */
  readonly code?: ErrorCode;
}

/**
 * Parses the `filter` parameter of a request.
 *
 * @param input the parameter's JSON value (`unknown` because it is validated here).
 * @returns the AST, or null when there is no filter.
 * @throws ApiError(options.code) with Meilisearch's exact message, for a syntax error (two-line
 *   message with the `line:col` locator) or a wrong JSON type
 *   (``Invalid syntax for the filter parameter: `expected String, Array, found: true`.``).
 *
 * @example
 *   parseFilter('genre = horror AND year > 2000');
 *   // { type: 'and', children: [{ type: 'comparison', field: {value: 'genre', …}, operator: '=', … }, …] }
 *   parseFilter(['a = 1', ['b = 2', 'b = 3']], { code: 'invalid_document_filter' });
 */
export function parseFilter(input: unknown, options: ParseFilterOptions = {}): FilterAst | null {
  const code = options.code ?? 'invalid_search_filter';
  if (input === null || input === undefined) return null;
  try {
    if (typeof input === 'string') return parseFilterExpression(checkLength(code, input.length, input));
    if (!Array.isArray(input)) throw typeError(code, ['String', 'Array'], input);
    const array = checkArray(code, input);
    checkLength(code, array.flat().reduce((sum, rule) => sum + rule.length, 0), array);
    return parseArray(array);
  } catch (error) {
    if (error instanceof FilterParseError) throw new ApiError(code, error.message);
    throw error;
  }
}

/**
 * UTF-16 units one filter may hold (the array form's strings together). Quarry's bound, not
 * Meilisearch's: a filter is parsed and its values normalised on the thread that answers
 * requests, ~60 ms per million units (a 30 MB value held it 1.9 s). 10,000 `IN` values of 400
 * characters still fit.
 */
const MAX_FILTER_UNITS = 4 * 1024 * 1024;

function checkLength<T>(code: ErrorCode, units: number, input: T): T {
  if (units <= MAX_FILTER_UNITS) return input;
  throw new ApiError(code, `The filter exceeded the maximum length of ${MAX_FILTER_UNITS} characters. Try rewriting the filter so that it is shorter.`);
}

function checkArray(code: ErrorCode, array: readonly unknown[]): FilterArray {
  for (const element of array) {
    if (typeof element === 'string') continue;
    if (!Array.isArray(element)) throw typeError(code, ['String', '[String]'], element);
    for (const inner of element) {
      if (typeof inner !== 'string') throw typeError(code, ['String'], inner);
    }
  }
  return array as FilterArray;
}

function parseArray(array: FilterArray): FilterAst | null {
  const ands: FilterAst[] = [];
  const budget = new ConditionBudget();
  for (const element of array) {
    if (typeof element === 'string') {
      const ast = parseFilterExpression(element, budget);
      if (ast !== null) ands.push(ast);
      continue;
    }
    const ors: FilterAst[] = [];
    for (const rule of element) {
      const ast = parseFilterExpression(rule, budget);
      if (ast !== null) ors.push(ast);
    }
    if (ors.length === 1) ands.push(ors[0]!);
    else if (ors.length > 1) ands.push({ type: 'or', children: ors });
  }
  if (ands.length === 0) return null;
  return ands.length === 1 ? ands[0]! : { type: 'and', children: ands };
}

function typeError(code: ErrorCode, expected: readonly string[], found: unknown): ApiError {
  // `found` is printed as compact JSON, like serde_json's Display.
  const shown = JSON.stringify(found) ?? String(found);
  return new ApiError(code, `Invalid syntax for the filter parameter: \`expected ${expected.join(', ')}, found: ${shown}\`.`);
}
