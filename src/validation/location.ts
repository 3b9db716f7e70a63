/**
 * Locations inside a JSON body and the per-route tables keyed by them.
 *
 * A concrete location is a list of segments (object keys and array indexes), rendered the way
 * deserr prints it: `.queries[0].indexUid`, root = "". Route tables use patterns in the same
 * syntax where `[]` stands for any array index and `.*` for any key of a map-like object:
 * `.queries[].indexUid`, `.remotes.*.url`. A pattern without a leading `.` or `[` names a
 * top-level field (`uid` = `.uid`).
 */
import { isJsonObject } from '../types/json-text.js';

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

  /**
   * Walks `node`, found at `path`, in the order deserr reports checks (children before their
   * parent, array elements and object keys in payload order) and returns the first result `test`
   * gives for a location a pattern matches, with the value declared for it. Only the branches some
   * pattern reaches are visited, and the walk stops at the first result.
   * @param path the location of `node`; the walk pushes and pops segments on it while it runs
   */
  firstIn<R>(node: unknown, path: Segment[], test: (value: V, target: unknown, path: readonly Segment[]) => R | undefined): R | undefined {
    const started = this.entries
      .filter(({ pattern }) => pattern.length >= path.length && path.every((s, i) => segmentMatches(pattern[i]!, s)))
      .map((entry) => ({ entry, at: path.length }));
    return firstInBranch(node, path, started, test);
  }
}

/** A pattern whose first `at` segments match the current location. */
interface Progress<V> {
  readonly entry: { readonly pattern: PatternSegment[]; readonly value: V };
  readonly at: number;
}

function firstInBranch<V, R>(
  node: unknown,
  path: Segment[],
  progress: readonly Progress<V>[],
  test: (value: V, target: unknown, path: readonly Segment[]) => R | undefined,
): R | undefined {
  const open = progress.filter(({ entry, at }) => at < entry.pattern.length);
  const visit = (segment: Segment, next: readonly Progress<V>[]): R | undefined => {
    if (next.length === 0) return undefined;
    path.push(segment);
    const found = firstInBranch((node as Record<Segment, unknown>)[segment], path, next, test);
    path.pop();
    return found;
  };
  if (open.length > 0 && Array.isArray(node)) {
    // Every index matches the same patterns.
    const next = advance(open, 0);
    for (let i = 0; i < node.length; i++) {
      const found = visit(i, next);
      if (found !== undefined) return found;
    }
  } else if (open.length > 0 && isJsonObject(node)) {
    for (const key of keysReached(node, open)) {
      const found = visit(key, advance(open, key));
      if (found !== undefined) return found;
    }
  }
  for (const { entry, at } of progress) {
    if (at !== entry.pattern.length) continue;
    const found = test(entry.value, node, path);
    if (found !== undefined) return found;
  }
  return undefined;
}

function advance<V>(open: readonly Progress<V>[], segment: Segment): Progress<V>[] {
  return open.filter(({ entry, at }) => segmentMatches(entry.pattern[at]!, segment)).map(({ entry, at }) => ({ entry, at: at + 1 }));
}

/** The keys of `node` some open pattern may step into, in payload order. */
function keysReached<V>(node: Record<string, unknown>, open: readonly Progress<V>[]): string[] {
  const heads = open.map(({ entry, at }) => entry.pattern[at]!);
  if (heads.some((head) => 'anyKey' in head)) return Object.keys(node);
  const named = new Set(heads.flatMap((head) => ('key' in head && Object.hasOwn(node, head.key) ? [head.key] : [])));
  return named.size <= 1 ? [...named] : Object.keys(node).filter((key) => named.has(key));
}
