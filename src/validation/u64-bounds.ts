/**
 * serde_json reads a JSON integer that does not fit 64 bits (`18446744073709551616`, `1e308`) as
 * a float, which deserr refuses where Meilisearch wants an unsigned integer (`usize`, `u64`…):
 * ``expected a positive integer, but found a number: `1e308` ``. JavaScript reads it as an
 * integer, so ajv needs the bound said: every non-negative `integer` schema gets
 * `exclusiveMaximum: 2^64`, and body.ts words that bound's failure as the kind mismatch it is.
 */
import type { AnySchemaObject } from 'ajv';

/** The first number serde_json no longer reads as a `u64`. */
export const U64_LIMIT = 2 ** 64;

// Keywords whose value is data, not a schema.
const DATA_KEYWORDS = new Set(['type', 'enum', 'const', 'default', 'required', 'examples', '$id', '$ref']);
// Keywords whose value maps names to schemas.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependentSchemas']);

/** An `integer` schema that only accepts values ≥ 0: Meilisearch's unsigned integers. */
export function isNonNegative(schema: AnySchemaObject): boolean {
  const { minimum, exclusiveMinimum } = schema as { minimum?: unknown; exclusiveMinimum?: unknown };
  return (
    (typeof minimum === 'number' && minimum >= 0) ||
    (typeof exclusiveMinimum === 'number' && exclusiveMinimum >= -1)
  );
}

function isUnboundedUnsigned(schema: AnySchemaObject): boolean {
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : [schema.type];
  return types.includes('integer') && isNonNegative(schema) && schema.maximum === undefined && schema.exclusiveMaximum === undefined;
}

// Shared fragments (one STRINGS object used by many settings) stay shared once bounded.
const bounded = new WeakMap<object, unknown>();

function boundNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(boundNode);
  if (node === null || typeof node !== 'object') return node;
  return withU64Bounds(node as AnySchemaObject);
}

/** A copy of `schema` where every unsigned `integer`, at any depth, stays below 2^64. */
export function withU64Bounds<S extends AnySchemaObject>(schema: S): S {
  const known = bounded.get(schema);
  if (known !== undefined) return known as S;
  const copy: AnySchemaObject = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword)) copy[keyword] = value;
    else if (SCHEMA_MAPS.has(keyword)) {
      copy[keyword] = Object.fromEntries(Object.entries(value as object).map(([name, sub]) => [name, boundNode(sub)]));
    } else copy[keyword] = boundNode(value);
  }
  if (isUnboundedUnsigned(copy)) copy.exclusiveMaximum = U64_LIMIT;
  bounded.set(schema, copy);
  return copy as S;
}
