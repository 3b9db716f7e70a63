/**
 * What a compiled parser accepts, kept for the API document (/openapi.json): `compileBody` and
 * `compileQuery` record the schema or parameter spec they compiled, keyed by the parser they
 * return, so the document is generated from the very schemas the routes validate with.
 * A route that wraps a parser says so with `describedLike`.
 */
import type { SchemaObject } from 'ajv';
import type { ErrorCode } from '../errors/codes.js';

export interface BodyDescription {
  kind: 'body';
  schema: SchemaObject;
  /** error code per location (body.ts's FieldCodes) */
  codes: Readonly<Record<string, ErrorCode>>;
}

export interface QueryDescription {
  kind: 'query';
  /** each parameter's value parser and error code (query.ts's QuerySpec) */
  spec: Readonly<Record<string, { parse: (raw: string) => unknown; code: ErrorCode }>>;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
const descriptions = new WeakMap<Function, BodyDescription | QueryDescription>();

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function describe<F extends Function>(parser: F, description: BodyDescription | QueryDescription): F {
  descriptions.set(parser, description);
  return parser;
}

/** `outer` (a wrapper of `inner`) accepts what `inner` accepts. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function describedLike<F extends Function>(inner: Function, outer: F): F {
  const description = descriptions.get(inner);
  if (description !== undefined) descriptions.set(outer, description);
  return outer;
}

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function descriptionOf(parser: Function | undefined): BodyDescription | QueryDescription | undefined {
  return parser === undefined ? undefined : descriptions.get(parser);
}
