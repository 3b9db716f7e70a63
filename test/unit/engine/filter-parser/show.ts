/**
 * Prints an AST in the notation of Meilisearch's `Display for FilterCondition` (`{field} = {value}`,
 * `AND[a, b, ]`, `NOT (x)`), so the filter-parser crate's snapshots can be used as expectations.
 */
import { parseFilterExpression, type FilterAst, type GeoPoint, type Token } from '../../../../src/engine/filter-parser/index.js';

const t = (token: Token) => `{${token.value}}`;
const point = ([lat, lng]: GeoPoint) => `[${t(lat)}, ${t(lng)}]`;
const list = (items: readonly string[]) => items.map((item) => `${item}, `).join('');

export function show(ast: FilterAst): string {
  switch (ast.type) {
    case 'and':
      return `AND[${list(ast.children.map(show))}]`;
    case 'or':
      return `OR[${list(ast.children.map(show))}]`;
    case 'not':
      return `NOT (${show(ast.child)})`;
    case 'comparison':
      return `${t(ast.field)} ${ast.operator} ${t(ast.value)}`;
    case 'between':
      return `${t(ast.field)} ${t(ast.from)} TO ${t(ast.to)}`;
    case 'exists':
      return `${t(ast.field)} EXISTS`;
    case 'isNull':
      return `${t(ast.field)} IS NULL`;
    case 'isEmpty':
      return `${t(ast.field)} IS EMPTY`;
    case 'contains':
      return `${t(ast.field)} CONTAINS ${t(ast.value)}`;
    case 'startsWith':
      return `${t(ast.field)} STARTS WITH ${t(ast.value)}`;
    case 'in':
      return `${t(ast.field)} IN[${list(ast.values.map(t))}]`;
    case 'vectorExists': {
      let text = '_vectors';
      if (ast.embedder) text += `.${JSON.stringify(ast.embedder.value)}`;
      if (ast.target.kind === 'fragment') text += `.fragments.${JSON.stringify(ast.target.name.value)}`;
      else if (ast.target.kind !== 'all') text += `.${ast.target.kind}`;
      return `${text} EXISTS`;
    }
    case 'geoRadius': {
      const resolution = ast.resolution ? `, ${t(ast.resolution)}` : '';
      return `_geoRadius(${t(ast.center[0])}, ${t(ast.center[1])}, ${t(ast.radius)}${resolution})`;
    }
    case 'geoBoundingBox':
      return `_geoBoundingBox(${point(ast.topRight)}, ${point(ast.bottomLeft)})`;
    case 'geoPolygon':
      return `_geoPolygon([${list(ast.points.map(point))}])`;
    case 'foreign':
      return `_foreign(${t(ast.field)}, ${show(ast.filter)})`;
  }
}

/** Parses and prints; for valid filters only. */
export function p(filter: string): string {
  const ast = parseFilterExpression(filter);
  if (ast === null) throw new Error(`no filter in ${JSON.stringify(filter)}`);
  return show(ast);
}

/** The full error message of an invalid filter. */
export function errorOf(filter: string): string {
  try {
    parseFilterExpression(filter);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(filter)} parsed without error`);
}
