/**
 * Filter expression string → AST. PURE: knows no index, attribute or experimental feature.
 * Callers go through `index.ts` (`parseFilter`, `parseFilterExpression`).
 *
 * BNF grammar (behaviour of Meilisearch v1.50 `filter-parser`). `WS` is a space, tab, CR or LF;
 * `UWS` is any Unicode whitespace.
 *
 *   filter          = expression EOF            -- an empty or UWS-only string is "no filter"
 *   expression      = or
 *   or              = and ( WS* "OR" WS* and )*             -- after OR, an `and` MUST follow
 *   and             = not ( WS* "AND" WS* not )*            -- after AND, a `not` MUST follow
 *   not             = WS* "NOT" WS* not | primary           -- NOT NOT x is x
 *   primary         = WS* "(" WS* expression WS* ")" WS*
 *                   | geoRadius | geoBoundingBox | geoPolygon
 *                   | in | not_in | condition
 *                   | is_null | is_not_null | is_empty | is_not_empty
 *                   | vectors_exists | exists | not_exists
 *                   | to | contains | not_contains | starts_with | not_starts_with
 *                   | foreign
 *   in              = value "IN" WS* "[" value_list "]" WS*
 *   not_in          = value "NOT" WS* "IN" WS* "[" value_list "]" WS*
 *   condition       = value ( "<=" | ">=" | "!=" | "<" | ">" | "=" ) value
 *   is_null         = value "IS" WS+ "NULL"
 *   is_not_null     = value "IS" WS+ "NOT" WS+ "NULL"
 *   is_empty        = value "IS" WS+ "EMPTY"
 *   is_not_empty    = value "IS" WS+ "NOT" WS+ "EMPTY"
 *   exists          = value "EXISTS"
 *   not_exists      = value "NOT" WS+ "EXISTS"
 *   to              = value value "TO" WS+ value           -- field from TO to, both inclusive
 *   contains        = value "CONTAINS" value
 *   not_contains    = value "NOT" WS+ "CONTAINS" value
 *   starts_with     = value "STARTS WITH" value            -- exactly one space inside
 *   not_starts_with = value "NOT" WS+ "STARTS WITH" value
 *   foreign         = WS* "_foreign(" WS* value "," WS* or WS* ")"
 *   value_list      = ( value ( WS* "," WS* value )* ( WS* "," WS* )? )?
 *   value           = UWS* ( word | "'" chars "'" | '"' chars '"' ) WS*     -- see value.ts
 *   word            = ( alphanumeric | "_" | "-" | "." )+  but not a keyword
 *   keyword         = "AND" | "OR" | "IN" | "NOT" | "TO" | "EXISTS" | "IS" | "NULL" | "EMPTY"
 *                   | "CONTAINS" | "STARTS" | "WITH"                         -- upper case only
 *   geoRadius       = WS* "_geoRadius(" float "," float "," float ( "," float )? ")"
 *   geoBoundingBox  = WS* "_geoBoundingBox(" point "," point ")"
 *   geoPolygon      = WS* "_geoPolygon(" point ( "," point )+ ( WS* "," WS* )? ")"   -- ≥ 3 points
 *   point           = WS* "[" float "," float "]" WS*
 *   float           = WS* [+-]? ( digit+ ( "." digit* )? | "." digit+ ) ( [eE] [+-]? digit+ )? WS*
 *   vectors_exists  = WS* "_vectors" … ( "EXISTS" | "NOT" WS+ "EXISTS" )      -- see vectors.ts
 *
 * Things the BNF does not show, all reproduced on purpose because they decide what users see:
 * - `AND`, `OR`, `NOT`, `IN` and the function names must be whole words (`ORdog` is a word);
 *   the operators after a value (`TO`, `EXISTS`, `IS`, `NULL`, `CONTAINS`, …) are plain text.
 * - Nothing consumes the spaces after `EXISTS`, `NULL`, `EMPTY` or a geo `)`, so a trailing
 *   space after them is "unexpected characters at the end of the filter".
 * - Alternatives are tried in the order above. One that fails after its committing token (nom's
 *   `cut`: the `(`, an operator, a function name, `IN`, `_vectors.`) stops the search with its own
 *   message; otherwise the primary fails with "Was expecting an operation …".
 * - Depth: `or`, `and`, `not` and `primary` each add 1 and may not go past MAX_FILTER_DEPTH, so
 *   36 nested parentheses parse and 37 do not; each `NOT` costs 1.
 */
import type { ComparisonOperator, FilterAst, Token } from './ast.js';
import { isBlank, toParseError } from './errors.js';
import { parseGeoBoundingBox, parseGeoPolygon, parseGeoRadius } from './geo.js';
import { ConditionBudget, cut, cutAs, isSoft, Scan, type Res } from './scan.js';
import { parseValue } from './value.js';
import { parseVectorsExists } from './vectors.js';

/** Meilisearch's recursion budget (`MAX_FILTER_DEPTH` in filter-parser). */
const MAX_FILTER_DEPTH = 150;

/** The expressions parsed last, by their text (at most PARSED_KEPT of at most PARSED_KEPT_UNITS each), with the conditions each took from its budget. */
const parsed = new Map<string, { ast: FilterAst; conditions: number }>();
const PARSED_KEPT = 256;
const PARSED_KEPT_UNITS = 1024;

/**
 * Parses one filter expression. Returns null for an empty or whitespace-only string. The ASTs of
 * recent expressions are kept, frozen and shared (a front end sends the same facet filters again
 * and again; parsing `genres = action` took ~40 µs of a 4-document index's 300 µs search).
 * @throws FilterParseError with Meilisearch's message and the offending span.
 */
export function parseFilterExpression(input: string, budget: ConditionBudget = new ConditionBudget()): FilterAst | null {
  if (input.length > PARSED_KEPT_UNITS) return parseExpression(input, budget);
  const kept = parsed.get(input);
  // a budget that cannot pay for the kept AST parses again, to fail where the budget runs out
  if (kept !== undefined && budget.remaining >= kept.conditions) {
    budget.take(kept.conditions);
    parsed.delete(input);
    parsed.set(input, kept);
    return kept.ast;
  }
  const before = budget.remaining;
  const ast = parseExpression(input, budget);
  if (ast === null) return null;
  if (parsed.size >= PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
  parsed.set(input, { ast: deepFreeze(ast), conditions: before - budget.remaining });
  return ast;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

function parseExpression(input: string, budget: ConditionBudget): FilterAst | null {
  if (isBlank(input)) return null;
  const s = new Scan(input, input, budget);
  const result = parseOr(s, 0, 0);
  if (!result.ok) throw toParseError(result);
  if (result.pos < input.length) throw toParseError(s.error({ kind: 'expectedEof' }, result.pos));
  return result.value;
}

function tooDeep(s: Scan, pos: number): Res<never> {
  return s.error({ kind: 'depthLimitReached' }, pos);
}

/** Located on the first word of the condition or value that spent the budget. */
function tooManyConditions(s: Scan, pos: number): Res<never> {
  return s.failure({ kind: 'tooManyConditions' }, s.spaces(pos), 'word');
}

/** `or = and ( "OR" and )*` */
function parseOr(s: Scan, pos: number, depth: number): Res<FilterAst> {
  if (depth > MAX_FILTER_DEPTH) return tooDeep(s, pos);
  return parseChain(s, pos, depth, 'OR', parseAnd);
}

/** `and = not ( "AND" not )*` */
function parseAnd(s: Scan, pos: number, depth: number): Res<FilterAst> {
  if (depth > MAX_FILTER_DEPTH) return tooDeep(s, pos);
  return parseChain(s, pos, depth, 'AND', parseNot);
}

/** One operand, then as many `keyword operand` as follow; a keyword commits to its operand. */
function parseChain(
  s: Scan,
  pos: number,
  depth: number,
  keyword: 'AND' | 'OR',
  operand: (s: Scan, pos: number, depth: number) => Res<FilterAst>,
): Res<FilterAst> {
  const first = operand(s, pos, depth + 1);
  if (!first.ok) return first;
  const children = [first.value];
  let end = first.pos;
  for (let next = s.spacedWord(end, keyword); next >= 0; next = s.spacedWord(end, keyword)) {
    const item = operand(s, next, depth + 1);
    if (!item.ok) return cut(item);
    children.push(item.value);
    end = item.pos;
  }
  if (children.length === 1) return first;
  return s.ok(end, { type: keyword === 'OR' ? 'or' : 'and', children });
}

/** `not = "NOT" not | primary` */
function parseNot(s: Scan, pos: number, depth: number): Res<FilterAst> {
  if (depth > MAX_FILTER_DEPTH) return tooDeep(s, pos);
  const afterNot = s.spacedWord(pos, 'NOT');
  if (afterNot < 0) return parsePrimary(s, pos, depth + 1);
  const inner = parseNot(s, afterNot, depth + 1);
  if (!inner.ok) return cut(inner);
  return s.ok(inner.pos, negate(inner.value));
}

function negate(node: FilterAst): FilterAst {
  return node.type === 'not' ? node.child : { type: 'not', child: node };
}

/**
 * An alternative of `primary` that starts with a value (the field). The value is parsed once
 * per primary and shared, since every such alternative would parse the same one.
 */
type FieldAlternative = (s: Scan, field: Token, at: number) => Res<FilterAst>;
/** An alternative of `primary` that reads its own start. */
type OwnAlternative = (s: Scan, pos: number, depth: number) => Res<FilterAst>;

function parsePrimary(s: Scan, pos: number, depth: number): Res<FilterAst> {
  if (depth > MAX_FILTER_DEPTH) return tooDeep(s, pos);
  const open = s.spaces(pos);
  if (s.input[open] === '(') {
    const inner = parseOr(s, s.spaces(open + 1), depth + 1);
    if (!inner.ok) return cut(inner);
    const close = s.spaces(inner.pos);
    // Located on the whole parenthesised expression, opening parenthesis included.
    if (s.input[close] !== ')') return s.failure({ kind: 'missingClosingDelimiter', delimiter: ')' }, pos);
    return s.ok(s.spaces(close + 1), inner.value);
  }

  const geo = parseGeo(s, pos);
  if (!isSoft(geo)) return geo;

  const field = parseValue(s, pos);
  // A value that fails hard (unclosed quote, misused geo name) fails the whole primary.
  if (!field.ok && field.mode !== 'error') return field;
  for (const alternative of ALTERNATIVES) {
    const result =
      alternative.kind === 'field'
        ? field.ok
          ? alternative.parse(s, field.value, field.pos)
          : field
        : alternative.parse(s, pos, depth);
    if (!isSoft(result)) return result.ok && !s.budget.take(1) ? tooManyConditions(s, pos) : result;
  }
  // A reserved keyword in first position gets its own message rather than the generic one.
  if (!field.ok && field.kind.kind === 'expectedValue' && field.kind.reservedKeyword) return cut(field);
  return s.error({ kind: 'invalidPrimary' }, pos);
}

function parseGeo(s: Scan, pos: number): Res<FilterAst> {
  const radius = parseGeoRadius(s, pos);
  if (radius.ok) return s.ok(radius.pos, { type: 'geoRadius', ...radius.value });
  if (!isSoft(radius)) return radius;
  const box = parseGeoBoundingBox(s, pos);
  if (box.ok) return s.ok(box.pos, { type: 'geoBoundingBox', ...box.value });
  if (!isSoft(box)) return box;
  const polygon = parseGeoPolygon(s, pos);
  if (polygon.ok) return s.ok(polygon.pos, { type: 'geoPolygon', points: polygon.value });
  return polygon;
}

/** `"IN" WS* "[" value_list "]"`: committed once `IN` is read. */
function parseInBody(s: Scan, at: number): Res<Token[]> {
  const open = s.spacedWord(at, 'IN');
  if (open < 0) return s.mismatch(at);
  if (s.input[open] !== '[') return s.failure({ kind: 'inOpeningBracket' }, open);
  const values: Token[] = [];
  let end = open + 1;
  const first = parseValue(s, end);
  if (first.ok) {
    values.push(first.value);
    end = first.pos;
    for (;;) {
      const comma = s.spaces(end);
      if (s.input[comma] !== ',') break;
      const next = parseValue(s, s.spaces(comma + 1));
      if (isSoft(next)) break;
      if (!next.ok) return next;
      // Each value after the first counts as a condition; the primary counts the first.
      if (!s.budget.take(1)) return tooManyConditions(s, next.value.span.start);
      values.push(next.value);
      end = next.pos;
    }
    const trailingComma = s.spaces(end);
    if (s.input[trailingComma] === ',') end = s.spaces(trailingComma + 1);
  } else if (!isSoft(first)) {
    return first;
  }
  const close = s.spaces(end);
  if (s.input[close] === ']') return s.ok(s.spaces(close + 1), values);
  return s.failure({ kind: end === s.input.length ? 'inClosingBracket' : 'inExpectedValue' }, end);
}

/** The offset after `word` and at least one WS, or -1. */
function wordThenSpaces(s: Scan, at: number, word: string): number {
  return s.at(at, word) ? s.spaces1(at + word.length) : -1;
}

/** The offset after `words` separated by WS+ (plain text, not whole words), or -1. */
function keywords(s: Scan, at: number, ...words: [string, ...string[]]): number {
  let end = at;
  for (const word of words.slice(0, -1)) {
    end = wordThenSpaces(s, end, word);
    if (end < 0) return -1;
  }
  const last = words[words.length - 1]!;
  return s.at(end, last) ? end + last.length : -1;
}

const COMPARISON_OPERATORS: readonly ComparisonOperator[] = ['<=', '>=', '!=', '<', '>', '='];

/** `field <op> value`, `field CONTAINS value`, …: the operator commits to the value after it. */
function committedValue(s: Scan, at: number, build: (value: Token) => FilterAst): Res<FilterAst> {
  const value = parseValue(s, at);
  return value.ok ? s.ok(value.pos, build(value.value)) : cut(value);
}

/** `[NOT] keyword value`, keyword being `CONTAINS` or `STARTS WITH`. */
function textOperator(type: 'contains' | 'startsWith', keyword: string, negated: boolean): FieldAlternative {
  return (s, field, at) => {
    const keywordStart = negated ? wordThenSpaces(s, at, 'NOT') : at;
    if (keywordStart < 0 || !s.at(keywordStart, keyword)) return s.mismatch(at);
    const keywordToken = s.token(keywordStart, keywordStart + keyword.length);
    return committedValue(s, keywordToken.span.end, (value) => {
      const node: FilterAst = { type, field, keyword: keywordToken, value };
      return negated ? { type: 'not', child: node } : node;
    });
  };
}

/** A condition made of keywords only (`IS NULL`, `NOT EXISTS`, …). */
function keywordCondition(
  type: 'isNull' | 'isEmpty' | 'exists',
  negated: boolean,
  ...words: [string, ...string[]]
): FieldAlternative {
  return (s, field, at) => {
    const end = keywords(s, at, ...words);
    if (end < 0) return s.mismatch(at);
    const node: FilterAst = { type, field };
    return s.ok(end, negated ? { type: 'not', child: node } : node);
  };
}

/** In Meilisearch's order: the first one that commits decides the outcome. */
const ALTERNATIVES: readonly ({ kind: 'field'; parse: FieldAlternative } | { kind: 'own'; parse: OwnAlternative })[] = [
  {
    kind: 'field',
    parse: (s, field, at) => {
      const values = parseInBody(s, at);
      return values.ok ? s.ok(values.pos, { type: 'in', field, values: values.value }) : values;
    },
  },
  {
    kind: 'field',
    parse: (s, field, at) => {
      if (!s.isWord(at, 'NOT')) return s.mismatch(at);
      const values = parseInBody(s, at + 'NOT'.length);
      if (!values.ok) return values;
      return s.ok(values.pos, { type: 'not', child: { type: 'in', field, values: values.value } });
    },
  },
  {
    kind: 'field',
    parse: (s, field, at) => {
      const operator = COMPARISON_OPERATORS.find((op) => s.at(at, op));
      if (operator === undefined) return s.mismatch(at);
      return committedValue(s, at + operator.length, (value) => ({ type: 'comparison', field, operator, value }));
    },
  },
  { kind: 'field', parse: keywordCondition('isNull', false, 'IS', 'NULL') },
  { kind: 'field', parse: keywordCondition('isNull', true, 'IS', 'NOT', 'NULL') },
  { kind: 'field', parse: keywordCondition('isEmpty', false, 'IS', 'EMPTY') },
  { kind: 'field', parse: keywordCondition('isEmpty', true, 'IS', 'NOT', 'EMPTY') },
  { kind: 'own', parse: (s, pos) => parseVectorsExists(s, pos) },
  { kind: 'field', parse: keywordCondition('exists', false, 'EXISTS') },
  { kind: 'field', parse: keywordCondition('exists', true, 'NOT', 'EXISTS') },
  {
    kind: 'field',
    parse: (s, field, at) => {
      const from = parseValue(s, at);
      if (!from.ok) return from;
      const to = wordThenSpaces(s, from.pos, 'TO');
      if (to < 0) return s.mismatch(from.pos);
      return committedValue(s, to, (value) => ({ type: 'between', field, from: from.value, to: value }));
    },
  },
  { kind: 'field', parse: textOperator('contains', 'CONTAINS', false) },
  { kind: 'field', parse: textOperator('contains', 'CONTAINS', true) },
  { kind: 'field', parse: textOperator('startsWith', 'STARTS WITH', false) },
  { kind: 'field', parse: textOperator('startsWith', 'STARTS WITH', true) },
  { kind: 'own', parse: parseForeign },
];

/**
 * `_foreign(field, filter)`: committed once the name is read. Every error inside the call becomes
 * the `_foreign` message, located where it happened; like Meilisearch, its echo is the filter from
 * this primary on, not the whole filter.
 */
function parseForeign(s: Scan, pos: number, depth: number): Res<FilterAst> {
  const name = s.spaces(pos);
  if (!s.isWord(name, '_foreign')) return s.mismatch(pos);
  const inner = s.withEcho(s.input.slice(pos));
  const kind = { kind: 'foreign' } as const;
  const open = name + '_foreign'.length;
  if (s.input[open] !== '(') return inner.failure(kind, open);
  const field = parseValue(inner, inner.spaces(open + 1));
  if (!field.ok) return cutAs(field, kind);
  const comma = inner.spaces(field.pos);
  if (s.input[comma] !== ',') return inner.failure(kind, comma);
  const filter = parseOr(inner, inner.spaces(comma + 1), depth);
  if (!filter.ok) return cutAs(filter, kind);
  const close = inner.spaces(filter.pos);
  if (s.input[close] !== ')') return inner.failure(kind, close);
  return s.ok(close + 1, { type: 'foreign', field: field.value, filter: filter.value });
}
