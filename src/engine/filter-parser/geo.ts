/**
 * The geo operations `_geoRadius(...)`, `_geoBoundingBox(...)`, `_geoPolygon(...)`. Internal to
 * the parser, called by `parsePrimary`.
 *
 * Once the function name is read as a whole word, the call is committed: any later problem is a
 * `failure` with the operation's "must be in the form" message, located where parsing stopped.
 * The name and its `(` must be adjacent; spaces, tabs and newlines are allowed around numbers.
 * Arguments are kept as the number text (nom's `recognize_float`: `-1`, `+.5`, `12.`, `1e-3`);
 * their ranges are checked later, by the evaluator.
 */
import type { GeoPoint, Token } from './ast.js';
import { cutAs, isSoft, type Fail, type Res, type Scan } from './scan.js';

type List<T> = Res<T[]>;

/** `geoRadius = "_geoRadius(" float "," float "," float ( "," float )? ")"` */
export function parseGeoRadius(s: Scan, pos: number): Res<{ center: GeoPoint; radius: Token; resolution: Token | null }> {
  const open = functionCall(s, pos, '_geoRadius');
  if (open < 0) return s.mismatch(pos);
  if (s.input[open] !== '(') return s.failure({ kind: 'geoRadius' }, open);
  const args = floatList(s, open + 1);
  if (!args.ok) return cutAs(args, { kind: 'geoRadius' });
  if (s.input[args.pos] !== ')') return s.failure({ kind: 'geoRadius' }, args.pos);
  const end = args.pos + 1;
  const [lat, lng, radius, resolution] = args.value;
  if (args.value.length > 4 || radius === undefined) {
    return s.failure({ kind: 'geoRadiusArgumentCount', count: args.value.length }, end);
  }
  return s.ok(end, { center: [lat!, lng!], radius, resolution: resolution ?? null });
}

/** `geoBoundingBox = "_geoBoundingBox(" point "," point ")"` */
export function parseGeoBoundingBox(s: Scan, pos: number): Res<{ topRight: GeoPoint; bottomLeft: GeoPoint }> {
  const open = functionCall(s, pos, '_geoBoundingBox');
  if (open < 0) return s.mismatch(pos);
  const kind = { kind: 'geoBoundingBox' } as const;
  if (s.input[open] !== '(') return s.failure(kind, open);
  const points = pointList(s, open + 1);
  if (!points.ok) return cutAs(points, kind);
  if (s.input[points.pos] !== ')') return s.failure(kind, points.pos);
  const end = points.pos + 1;
  if (points.value.length !== 2) return s.failure(kind, end);
  const pairs = coordinatePairs(s, points.value);
  if (!Array.isArray(pairs)) return pairs;
  return s.ok(end, { topRight: pairs[0]!, bottomLeft: pairs[1]! });
}

/** `geoPolygon = "_geoPolygon(" point ( "," point )+ ","? ")"`, at least 3 points. */
export function parseGeoPolygon(s: Scan, pos: number): Res<readonly GeoPoint[]> {
  const open = functionCall(s, pos, '_geoPolygon');
  if (open < 0) return s.mismatch(pos);
  const kind = { kind: 'geoPolygon' } as const;
  if (s.input[open] !== '(') return s.failure(kind, open);
  const points = pointList(s, open + 1);
  if (!points.ok) return cutAs(points, kind);
  let close = points.pos;
  // A trailing comma is tolerated.
  const comma = s.spaces(close);
  if (s.input[comma] === ',') close = s.spaces(comma + 1);
  if (s.input[close] !== ')') return s.failure(kind, close);
  const end = close + 1;
  const count = points.value.length;
  if (count < 3) {
    const lastNumber = points.value[count - 1]!.at(-1)!;
    return s.failure({ kind: 'geoPolygonNotEnoughPoints', count }, lastNumber.span.start, lastNumber.span.end);
  }
  const pairs = coordinatePairs(s, points.value);
  if (!Array.isArray(pairs)) return pairs;
  return s.ok(end, pairs);
}

/** The offset right after `name` (optionally preceded by spaces) read as a whole word, or -1. */
function functionCall(s: Scan, pos: number, name: string): number {
  const start = s.spaces(pos);
  return s.isWord(start, name) ? start + name.length : -1;
}

/** Each point must have exactly two numbers; the error points at the first number of the culprit. */
function coordinatePairs(s: Scan, points: readonly Token[][]): GeoPoint[] | Fail {
  const offending = points.find((point) => point.length !== 2);
  if (offending !== undefined) {
    const first = offending[0]!;
    return s.failure({ kind: 'geoCoordinatesNotPair', count: offending.length }, first.span.start, first.span.end);
  }
  return points.map(([lat, lng]) => [lat!, lng!] as const);
}

/** `point ( "," point )*` where `point = WS* "[" float ( "," float )* "]" WS*`. */
function pointList(s: Scan, pos: number): List<Token[]> {
  return separatedList(s, pos, (at) => {
    const open = s.spaces(at);
    if (s.input[open] !== '[') return s.mismatch(open);
    const numbers = floatList(s, open + 1);
    if (!numbers.ok) return numbers;
    if (s.input[numbers.pos] !== ']') return s.mismatch(numbers.pos);
    return s.ok(s.spaces(numbers.pos + 1), numbers.value);
  });
}

/** `float ( "," float )*`, each float surrounded by optional spaces. */
function floatList(s: Scan, pos: number): List<Token> {
  return separatedList(s, pos, (at) => {
    const start = s.spaces(at);
    const end = recognizeFloat(s, start);
    if (typeof end !== 'number') return end;
    return s.ok(s.spaces(end), s.token(start, end));
  });
}

/**
 * nom's `separated_list1` with a `,` separator: the first item is required; after that, an item
 * that does not parse ends the list before its comma (the caller then fails on that comma).
 */
function separatedList<T>(s: Scan, pos: number, item: (pos: number) => Res<T>): List<T> {
  const first = item(pos);
  if (!first.ok) return first;
  const items = [first.value];
  let end = first.pos;
  while (s.input[end] === ',') {
    const next = item(end + 1);
    if (isSoft(next)) break;
    if (!next.ok) return next;
    items.push(next.value);
    end = next.pos;
  }
  return s.ok(end, items);
}

/**
 * nom's `recognize_float`: `[+-]? ( digits ( "." digits? )? | "." digits ) ( [eE] [+-]? digits )?`.
 * Returns the end offset, an `error` when no number starts here, or a `failure` for an exponent
 * without digits (nom cuts there).
 */
function recognizeFloat(s: Scan, pos: number): number | Fail {
  const { input } = s;
  let i = pos;
  if (input[i] === '+' || input[i] === '-') i++;
  const intEnd = digitsEnd(input, i);
  if (intEnd > i) {
    i = intEnd;
    if (input[i] === '.') i = digitsEnd(input, i + 1);
  } else if (input[i] === '.' && digitsEnd(input, i + 1) > i + 1) {
    i = digitsEnd(input, i + 1);
  } else {
    // Where nom's last alternative (`"." digits`) stopped.
    return s.mismatch(input[i] === '.' ? i + 1 : i);
  }
  if (input[i] === 'e' || input[i] === 'E') {
    let exp = i + 1;
    if (input[exp] === '+' || input[exp] === '-') exp++;
    const expEnd = digitsEnd(input, exp);
    if (expEnd === exp) return s.failure({ kind: 'mismatch' }, exp);
    i = expEnd;
  }
  return i;
}

function digitsEnd(input: string, pos: number): number {
  let i = pos;
  while (i < input.length && input.charCodeAt(i) >= 48 && input.charCodeAt(i) <= 57) i++;
  return i;
}
