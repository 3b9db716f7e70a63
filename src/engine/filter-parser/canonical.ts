/**
 * The canonical text of a parsed filter (filter.md §4, "Index prefix and re-serialization"). In
 * v1.50, `/search` and `/multi-search` parse the user's filter, print it in this form and parse the
 * result again inside the index; errors found while evaluating it (attribute not filterable, bad
 * geo argument, …) therefore locate their fragment in this text, not in what the user sent.
 *
 * Forms: `"field" op "value"` (both JSON strings, numbers included), `"field" "a" TO "b"`,
 * `"field" EXISTS` / `IS NULL` / `IS EMPTY`, `"field" CONTAINS "v"`, `"field" STARTS WITH "v"`,
 * `"field" IN ["a", "b"]`, `NOT (x)` for every negation, `(a) AND (b)` / `(a) OR (b)`, and the geo
 * functions with their numbers as written. Re-parsing the text gives back an equivalent filter.
 *
 * Example: canonicalFilter(parseFilterExpression('doggos.age > 2 AND NOT cattos IN [a]')!)
 *   === '("doggos.age" > "2") AND (NOT ("cattos" IN ["a"]))'
 */
import type { FilterAst, GeoPoint, Token, VectorTarget } from './ast.js';

/** A token as a JSON string: quoted, with JSON's escapes, which the filter grammar decodes back. */
const quoted = (token: Token): string => JSON.stringify(token.value);

const point = ([lat, lng]: GeoPoint): string => `[${lat.value}, ${lng.value}]`;

/** Embedder and fragment names are always quoted, as v1.50 prints them (`_vectors."rest".fragments."basic"`). */
function vectorPath(embedder: Token | null, target: VectorTarget): string {
  if (embedder === null) return '_vectors';
  const base = `_vectors.${quoted(embedder)}`;
  switch (target.kind) {
    case 'all':
      return base;
    case 'fragment':
      return `${base}.fragments.${quoted(target.name)}`;
    default:
      return `${base}.${target.kind}`;
  }
}

const joined = (children: readonly FilterAst[], keyword: 'AND' | 'OR'): string => children.map((child) => `(${canonicalFilter(child)})`).join(` ${keyword} `);

export function canonicalFilter(ast: FilterAst): string {
  switch (ast.type) {
    case 'and':
      return joined(ast.children, 'AND');
    case 'or':
      return joined(ast.children, 'OR');
    case 'not':
      return `NOT (${canonicalFilter(ast.child)})`;
    case 'comparison':
      return `${quoted(ast.field)} ${ast.operator} ${quoted(ast.value)}`;
    case 'between':
      return `${quoted(ast.field)} ${quoted(ast.from)} TO ${quoted(ast.to)}`;
    case 'exists':
      return `${quoted(ast.field)} EXISTS`;
    case 'isNull':
      return `${quoted(ast.field)} IS NULL`;
    case 'isEmpty':
      return `${quoted(ast.field)} IS EMPTY`;
    case 'contains':
      return `${quoted(ast.field)} CONTAINS ${quoted(ast.value)}`;
    case 'startsWith':
      return `${quoted(ast.field)} STARTS WITH ${quoted(ast.value)}`;
    case 'in':
      return `${quoted(ast.field)} IN [${ast.values.map(quoted).join(', ')}]`;
    case 'vectorExists':
      return `${vectorPath(ast.embedder, ast.target)} EXISTS`;
    case 'geoRadius': {
      const resolution = ast.resolution === null ? '' : `, ${ast.resolution.value}`;
      return `_geoRadius(${ast.center[0].value}, ${ast.center[1].value}, ${ast.radius.value}${resolution})`;
    }
    case 'geoBoundingBox':
      return `_geoBoundingBox(${point(ast.topRight)}, ${point(ast.bottomLeft)})`;
    case 'geoPolygon':
      return `_geoPolygon(${ast.points.map(point).join(', ')})`;
    case 'foreign':
      return `_foreign(${quoted(ast.field)}, ${canonicalFilter(ast.filter)})`;
  }
}
