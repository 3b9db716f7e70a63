/**
 * Locations inside a JSON body and the per-route tables keyed by them.
 *
 * A concrete location is a list of segments (object keys and array indexes), rendered the way
 * deserr prints it: `.queries[0].indexUid`, root = "". Route tables use patterns in the same
 * syntax where `[]` stands for any array index and `.*` for any key of a map-like object:
 * `.queries[].indexUid`, `.remotes.*.url`. A pattern without a leading `.` or `[` names a
 * top-level field (`uid` = `.uid`).
 */
import { isJsonObject } from '../../types/json-text.js';

export type Segment = string | number;

type PatternSegment = { key: string } | { anyKey: true } | { anyIndex: true };

export function renderLocation(path: readonly Segment[]): string {
  return path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('');
}

function parsePattern(pattern: string): PatternSegment[] {
  const source = pattern === '' || pattern.startsWith('.') || pattern.startsWith('[') ? pattern : `.${pattern}`;
  const segments: PatternSegment[] = [];
  const token = /\.([^.[\]]+)|\[\]/y;
  for (let at = 0; at < source.length; at = token.lastIndex) {
    token.lastIndex = at;
    const match = token.exec(source);
    if (match === null) throw new Error(`invalid location pattern ${JSON.stringify(pattern)}`);
    if (match[1] === undefined) segments.push({ anyIndex: true });
    else if (match[1] === '*') segments.push({ anyKey: true });
    else segments.push({ key: match[1] });
  }
  return segments;
}

function segmentMatches(pattern: PatternSegment, segment: Segment): boolean {
  if ('anyIndex' in pattern) return typeof segment === 'number';
  if ('anyKey' in pattern) return typeof segment === 'string';
  return pattern.key === segment;
}

/** Literal keys outrank `*`, so `.remotes.main.url` can refine `.remotes.*.url`. */
function specificity(pattern: PatternSegment[]): number {
  return pattern.filter((s) => 'key' in s).length;
}

/** A route table keyed by location patterns, answering lookups for concrete locations. */
export class LocationTable<V> {
  private readonly entries: { pattern: PatternSegment[]; value: V }[];

  constructor(table: Readonly<Record<string, V>>) {
    this.entries = Object.entries(table).map(([pattern, value]) => ({ pattern: parsePattern(pattern), value }));
  }

  /** The value declared for exactly this location. */
  get(path: readonly Segment[]): V | undefined {
    let best: { pattern: PatternSegment[]; value: V } | undefined;
    for (const entry of this.entries) {
      if (entry.pattern.length !== path.length) continue;
      if (!entry.pattern.every((p, i) => segmentMatches(p, path[i]!))) continue;
      if (best === undefined || specificity(entry.pattern) > specificity(best.pattern)) best = entry;
    }
    return best?.value;
  }

  /** The value declared for this location or, failing that, for its nearest enclosing one. */
  nearest(path: readonly Segment[]): V | undefined {
    for (let length = path.length; length >= 0; length--) {
      const value = this.get(path.slice(0, length));
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** Every concrete location of `value` matched by a pattern, with the declared value. */
  *matchesIn(root: unknown): Generator<{ path: Segment[]; target: unknown; value: V }> {
    for (const { pattern, value } of this.entries) {
      for (const [path, target] of walk(root, pattern, [])) yield { path, target, value };
    }
  }
}

function* walk(node: unknown, pattern: PatternSegment[], path: Segment[]): Generator<[Segment[], unknown]> {
  if (pattern.length === 0) {
    yield [path, node];
    return;
  }
  const [head, ...rest] = pattern as [PatternSegment, ...PatternSegment[]];
  if ('anyIndex' in head) {
    if (Array.isArray(node)) for (let i = 0; i < node.length; i++) yield* walk(node[i], rest, [...path, i]);
  } else if (isJsonObject(node)) {
    const keys = 'anyKey' in head ? Object.keys(node) : Object.hasOwn(node, head.key) ? [head.key] : [];
    for (const key of keys) yield* walk(node[key], rest, [...path, key]);
  }
}
