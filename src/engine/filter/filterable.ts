/**
 * The "attribute not filterable" check run before a filter is evaluated (filter.md, semantic
 * errors): every attribute the filter names must match a `filterableAttributes` pattern.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { filterFields, formatFilterError, type FilterAst } from '../filter-parser/index.js';

/** `*` matches everything, `a.*` matches `a` and anything below it, otherwise exact or nested. */
export function matchesPattern(attribute: string, pattern: string): boolean {
  if (pattern === '*' || pattern === attribute) return true;
  if (pattern.endsWith('.*')) {
    const base = pattern.slice(0, -2);
    return attribute === base || attribute.startsWith(`${base}.`);
  }
  return attribute.startsWith(`${pattern}.`);
}

export function assertFilterable(ast: FilterAst, patterns: readonly string[], code: ErrorCode): void {
  for (const field of filterFields(ast)) {
    if (patterns.some((pattern) => matchesPattern(field.value, pattern))) continue;
    const available =
      patterns.length === 0
        ? 'This index does not have configured filterable attributes.'
        : `Available filterable attribute patterns are: ${[...patterns].sort().map((p) => `\`${p}\``).join(', ')}.`;
    throw new ApiError(code, formatFilterError(`Attribute \`${field.value}\` is not filterable. ${available}`, field.span));
  }
}
