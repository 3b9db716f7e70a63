/**
 * The filter AST produced by the parser, and the spans every token keeps.
 *
 * Callers: the facet evaluator (engine/search/filters), the search service (feature gates), the
 * document routes. They read it, never build it: only the parser constructs these nodes.
 *
 * Invariants:
 * - Negated operators are not node types of their own. `NOT x`, `x NOT IN [..]`, `x NOT EXISTS`,
 *   `x IS NOT NULL`, `x IS NOT EMPTY`, `x NOT CONTAINS v`, `x NOT STARTS WITH v` all become a `not`
 *   node around the positive form, and `NOT NOT x` collapses to `x` (as in Meilisearch, whose
 *   canonical re-serialization prints them all as `NOT (…)`).
 * - Parentheses leave no node; `and`/`or` keep the nesting the user wrote (no flattening).
 * - `value` of a token is the decoded text (quotes removed, escapes applied); `span` points at
 *   the raw text in the input (inside the quotes for a quoted value), so errors raised after
 *   parsing can use the same `line:col` locator as syntax errors.
 */

/** Where a token (or an error's fragment) sits in the filter string. */
export interface Span {
  /** The whole string that was parsed (one element of the array form); offsets index into it. */
  readonly input: string;
  /** UTF-16 offsets of the fragment in `input`, end excluded. */
  readonly start: number;
  readonly end: number;
  /**
   * The text printed after the locator in error messages: `input`, except for tokens inside a
   * `_foreign(...)` filter, where Meilisearch echoes the input from the `_foreign` call onwards.
   */
  readonly echo: string;
}

export interface Token {
  /** Decoded text of the token. */
  readonly value: string;
  readonly span: Span;
}

export type ComparisonOperator = '=' | '!=' | '>' | '>=' | '<' | '<=';

/** `[latitude, longitude]`, both tokens holding the number text exactly as written. */
export type GeoPoint = readonly [lat: Token, lng: Token];

/** Which part of an embedder's vectors `_vectors.<embedder>[.<part>] EXISTS` asks about. */
export type VectorTarget =
  | { readonly kind: 'all' }
  | { readonly kind: 'fragment'; readonly name: Token }
  | { readonly kind: 'userProvided' }
  | { readonly kind: 'documentTemplate' }
  | { readonly kind: 'regenerate' };

export type FilterAst =
  | { readonly type: 'and'; readonly children: readonly FilterAst[] }
  | { readonly type: 'or'; readonly children: readonly FilterAst[] }
  | { readonly type: 'not'; readonly child: FilterAst }
  | { readonly type: 'comparison'; readonly field: Token; readonly operator: ComparisonOperator; readonly value: Token }
  /** `field from TO to`, both bounds inclusive. */
  | { readonly type: 'between'; readonly field: Token; readonly from: Token; readonly to: Token }
  | { readonly type: 'exists'; readonly field: Token }
  | { readonly type: 'isNull'; readonly field: Token }
  | { readonly type: 'isEmpty'; readonly field: Token }
  /** `keyword` is the `CONTAINS` token itself: feature-gate errors point at it. */
  | { readonly type: 'contains'; readonly field: Token; readonly keyword: Token; readonly value: Token }
  | { readonly type: 'startsWith'; readonly field: Token; readonly keyword: Token; readonly value: Token }
  | { readonly type: 'in'; readonly field: Token; readonly values: readonly Token[] }
  /** `field` is the `_vectors` token; `embedder` is null for a bare `_vectors EXISTS`. */
  | { readonly type: 'vectorExists'; readonly field: Token; readonly embedder: Token | null; readonly target: VectorTarget }
  | {
      readonly type: 'geoRadius';
      readonly center: GeoPoint;
      readonly radius: Token;
      readonly resolution: Token | null;
    }
  /** First point written = top-right (north-east) corner, second = bottom-left (south-west). */
  | { readonly type: 'geoBoundingBox'; readonly topRight: GeoPoint; readonly bottomLeft: GeoPoint }
  | { readonly type: 'geoPolygon'; readonly points: readonly GeoPoint[] }
  /** `_foreign(field, filter)`: `filter` applies to the documents `field` refers to. */
  | { readonly type: 'foreign'; readonly field: Token; readonly filter: FilterAst };

