/**
 * The steps the body validator can take from a schema into a value's children, so that a bad
 * body is explained by checking one child at a time instead of collecting every error ajv finds
 * (100,000 bad array elements are 100,000 errors; deserr stops at the first).
 *
 * A schema is stepped into only when it says nothing about its value as a whole beyond `type`,
 * `required`, `minItems`/`maxItems` (own-level findings, which come after the children anyway):
 * plain objects (`properties`, `additionalProperties`) and plain arrays (`items`). Anything else
 * (`if`, `enum`, `$ref`…) is a leaf, explained with all of ajv's errors at once.
 */
import type { SchemaObject } from 'ajv';
import { isJsonObject } from '../types/json-text.js';
import type { Segment } from './location.js';

const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties']);
const ARRAY_KEYWORDS = new Set(['type', 'items', 'minItems', 'maxItems']);

/**
 * A child met in payload order: its schema, `false` for a key the schema refuses (an unknown
 * field), or `undefined` for a value the schema leaves free.
 */
export interface ChildStep {
  readonly segment: Segment;
  readonly value: unknown;
  readonly schema: SchemaObject | false | undefined;
}

function allows(schema: SchemaObject, kind: 'object' | 'array'): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(kind) : schema.type === kind;
}

function only(schema: SchemaObject, keywords: ReadonlySet<string>): boolean {
  return Object.keys(schema).every((keyword) => keywords.has(keyword));
}

/** Whether `schema` can be stepped into for `value` (see the module header). */
export function isSteppable(schema: SchemaObject, value: unknown): boolean {
  if (Array.isArray(value)) return allows(schema, 'array') && only(schema, ARRAY_KEYWORDS) && isJsonObject(schema.items);
  return isJsonObject(value) && allows(schema, 'object') && only(schema, OBJECT_KEYWORDS);
}

/** The children of a value `isSteppable` accepted, lazily: the walk usually stops early. */
export function* childSteps(schema: SchemaObject, value: unknown): Generator<ChildStep> {
  if (Array.isArray(value)) {
    const items = schema.items as SchemaObject;
    for (let index = 0; index < value.length; index++) yield { segment: index, value: value[index], schema: items };
    return;
  }
  const object = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, SchemaObject>;
  const others = schema.additionalProperties as SchemaObject | boolean | undefined;
  const rest = others === false ? false : others === true ? undefined : others;
  for (const key of Object.keys(object)) {
    yield { segment: key, value: object[key], schema: Object.hasOwn(properties, key) ? properties[key] : rest };
  }
}
