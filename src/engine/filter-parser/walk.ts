/**
 * Read-only queries over a parsed filter, for the stages after parsing: feature gates (search
 * service), attribute checks (facet evaluator). Pure; the parser itself never calls them.
 *
 * Experimental operators and the token Meilisearch points its `feature_not_enabled` error at:
 * - `CONTAINS` / `NOT CONTAINS` (`containsFilter`): `findContainsOperator` → the CONTAINS keyword.
 *   `STARTS WITH` is not gated in v1.50.
 * - `_vectors … EXISTS` (`multimodal`): `findVectorFilter` → the `_vectors` token.
 * - `_foreign(...)` (`foreignKeys`): `findForeignFilter` → the field inside the call.
 * - `_shard = …` (`network`): `findField(ast, '_shard')`.
 * Which feature gates which operator is the caller's knowledge; these only find the tokens.
 *
 * Traversal orders follow Meilisearch where it is observable: the `find*` helpers return the
 * first match in source order, except `findForeignFilter` and `filterFields`, which walk a stack
 * like Meilisearch does (so of `a = 1 AND b = 2`, `b` comes first).
 */
import type { FilterAst, Token } from './ast.js';

/** Every operator name a filter can use; negations appear as `NOT`. */
export type FilterOperator =
  | 'AND'
  | 'OR'
  | 'NOT'
  | '='
  | '!='
  | '>'
  | '>='
  | '<'
  | '<='
  | 'TO'
  | 'EXISTS'
  | 'IS NULL'
  | 'IS EMPTY'
  | 'IN'
  | 'CONTAINS'
  | 'STARTS WITH'
  | '_vectors'
  | '_geoRadius'
  | '_geoBoundingBox'
  | '_geoPolygon'
  | '_foreign';

/** Visits every node depth-first in source order, a node before its children (`_foreign` included). */
export function walkFilter(ast: FilterAst, visit: (node: FilterAst) => void): void {
  visit(ast);
  switch (ast.type) {
    case 'and':
    case 'or':
      for (const child of ast.children) walkFilter(child, visit);
      break;
    case 'not':
      walkFilter(ast.child, visit);
      break;
    case 'foreign':
      walkFilter(ast.filter, visit);
      break;
    default:
      break;
  }
}

/** The operators a filter uses, e.g. `a NOT IN [1]` → `{NOT, IN}`. */
export function operatorsUsed(ast: FilterAst): Set<FilterOperator> {
  const used = new Set<FilterOperator>();
  walkFilter(ast, (node) => used.add(operatorOf(node)));
  return used;
}

export function operatorOf(node: FilterAst): FilterOperator {
  switch (node.type) {
    case 'and':
      return 'AND';
    case 'or':
      return 'OR';
    case 'not':
      return 'NOT';
    case 'comparison':
      return node.operator;
    case 'between':
      return 'TO';
    case 'exists':
      return 'EXISTS';
    case 'isNull':
      return 'IS NULL';
    case 'isEmpty':
      return 'IS EMPTY';
    case 'in':
      return 'IN';
    case 'contains':
      return 'CONTAINS';
    case 'startsWith':
      return 'STARTS WITH';
    case 'vectorExists':
      return '_vectors';
    case 'geoRadius':
      return '_geoRadius';
    case 'geoBoundingBox':
      return '_geoBoundingBox';
    case 'geoPolygon':
      return '_geoPolygon';
    case 'foreign':
      return '_foreign';
  }
}

/** The `CONTAINS` keyword of the first `CONTAINS`/`NOT CONTAINS` condition, or null. */
export function findContainsOperator(ast: FilterAst): Token | null {
  return findFirst(ast, (node) => (node.type === 'contains' ? node.keyword : null));
}

/** The `_vectors` token of the first vector filter, or null. */
export function findVectorFilter(ast: FilterAst): Token | null {
  return findFirst(ast, (node) => (node.type === 'vectorExists' ? node.field : null));
}

/** The first attribute token named `name` (of a condition, `IN`, or a `_foreign` call), or null. */
export function findField(ast: FilterAst, name: string): Token | null {
  return findFirst(ast, (node) => {
    if (node.type === 'vectorExists' || !('field' in node)) return null;
    return node.field.value === name ? node.field : null;
  });
}

/** The field of the `_foreign` filter Meilisearch reports first, or null. */
export function findForeignFilter(ast: FilterAst): Token | null {
  const stack: FilterAst[] = [ast];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    if (node.type === 'foreign') return node.field;
    if (node.type === 'not') stack.push(node.child);
    else if (node.type === 'and' || node.type === 'or') stack.push(...node.children);
  }
  return null;
}

/**
 * The attribute tokens an evaluator must check (conditions, `IN`, and `_foreign` fields, whose
 * inner filter belongs to another index), in Meilisearch's order: it reports the first one that
 * is not filterable, which for `a = 1 AND b = 2` is `b`.
 */
export function filterFields(ast: FilterAst): Token[] {
  const fields: Token[] = [];
  const stack: FilterAst[] = [ast];
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    switch (node.type) {
      case 'not':
        stack.push(node.child);
        break;
      case 'and':
      case 'or':
        stack.push(...node.children);
        break;
      case 'vectorExists':
      case 'geoRadius':
      case 'geoBoundingBox':
      case 'geoPolygon':
        break;
      default:
        fields.push(node.field);
    }
  }
  return fields;
}

function findFirst(ast: FilterAst, pick: (node: FilterAst) => Token | null): Token | null {
  let found: Token | null = null;
  walkFilter(ast, (node) => {
    found ??= pick(node);
  });
  return found;
}
