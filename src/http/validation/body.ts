/**
 * JSON body validation with Meilisearch's error messages and codes.
 *
 * A route declares its body as a JSON schema (ajv, draft-07, strict mode) plus a table of error
 * codes per location; `compileBody` turns both into a parser that returns the typed body or
 * throws the one `ApiError` Meilisearch would answer. Called by route handlers on the already
 * JSON-parsed body (content type, emptiness and syntax are checked before, in `http/body`).
 *
 * @example
 * ```ts
 * const parseCreateIndex = compileBody<{ uid: string; primaryKey?: string | null }>(
 *   {
 *     type: 'object',
 *     properties: { uid: { type: 'string' }, primaryKey: { type: ['string', 'null'] } },
 *     required: ['uid'],
 *     additionalProperties: false,
 *   },
 *   { '.uid': 'invalid_index_uid', '.primaryKey': 'invalid_index_primary_key' },
 *   { missing: { uid: 'missing_index_uid' }, validators: { '.uid': indexUidProblem } }, // types/index-uid.js
 * );
 * const body = parseCreateIndex(request.body); // typed, or throws ApiError
 * ```
 *
 * How ajv's findings become deserr's single error (deserr stops at its first error):
 * - deserr walks an object's keys in payload order: a wrong type, an unknown field or a failed
 *   custom check is reported when its key is met, nested values depth-first; missing fields are
 *   reported after all present keys, in declaration order (`properties` order); checks on a whole
 *   value run after its content. ajv runs with `allErrors`, and every finding gets a sort key
 *   encoding that walk; the smallest key wins.
 * - Codes: an error takes the code declared for its location or, failing that, for the nearest
 *   enclosing location (so unknown keys inside `.typoTolerance` get that setting's code);
 *   `bad_request` when none is declared. Missing fields use `options.missing` when declared,
 *   otherwise the enclosing object's code, as deserr does.
 * - Expected kinds come from the schema's `type`: `integer` with `minimum >= 0` reads "a positive
 *   integer" (a negative value is then a type error, as for a Rust `usize`), `integer` "an
 *   integer", `number` "a number"; `null` is left out next to other kinds, like an `Option<T>`.
 * - `enum` mismatches read "Unknown value". Keywords deserr has no wording for (minLength,
 *   pattern...) fall back to `Invalid value at <loc>: <ajv message>`; declare a validator when
 *   the exact Meilisearch text matters.
 * - Objects iterate keys in JavaScript order, which puts integer-like keys first.
 */
import { Ajv, type AnySchemaObject, type ErrorObject, type SchemaObject } from 'ajv';
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { isJsonObject } from '../../types/json-text.js';
import { LocationTable, renderLocation, type Segment } from './location.js';
import {
  immutableFieldMessage,
  invalidTypeMessage,
  invalidValueMessage,
  kindOf,
  missingFieldMessage,
  unknownFieldMessage,
  unknownValueMessage,
  type ValueKind,
} from './messages.js';

/** Error code per location pattern (`.uid`, `.queries[].indexUid`, `.remotes.*.url`). */
export type FieldCodes = Readonly<Record<string, ErrorCode>>;

/**
 * A post-check on a value that already matches its schema. Returns the reason it is invalid
 * (rendered as ``Invalid value at `<loc>`: <reason>``) or `undefined` when it is fine.
 */
export type FieldValidator = (value: unknown) => string | undefined;

export interface BodyOptions {
  /** Code of a missing required field, by the field's location (`uid`, `.queries[].indexUid`). */
  readonly missing?: Readonly<Record<string, ErrorCode>>;
  /**
   * Fields refused with their own code and ``Immutable field `<name>`: expected one of …``,
   * by the field's location (`PATCH /keys`: `{ uid: 'immutable_api_key_uid', … }`). They must
   * not be declared in `properties`.
   */
  readonly immutable?: Readonly<Record<string, ErrorCode>>;
  /** Custom checks by location; their failures carry the location's code. */
  readonly validators?: Readonly<Record<string, FieldValidator>>;
}

// One instance for every route, so fragments added with `addSharedSchema` resolve by `$id`.
const ajv = new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true });

/** Registers a schema fragment that route schemas can `$ref` by its `$id`. */
export function addSharedSchema(schema: AnySchemaObject & { $id: string }): void {
  ajv.addSchema(schema);
}

// Sort-key phases within one value, mirroring deserr's walk (see the module header).
const PHASE_TYPE = 0;
const PHASE_CHILD = 1;
const PHASE_MISSING = 2;
const PHASE_CHECK = 3;

interface Finding {
  readonly order: readonly number[];
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * Compiles a body schema into a parser.
 * @param schema JSON schema of the body; objects should set `additionalProperties: false`.
 * @param fieldCodes error code per location, inherited by everything inside that location.
 * @param options missing-field codes, immutable fields and custom validators.
 * @returns a function returning its argument typed as `T`, or throwing the `ApiError`
 *   Meilisearch would report first.
 */
export function compileBody<T>(
  schema: SchemaObject,
  fieldCodes: FieldCodes = {},
  options: BodyOptions = {},
): (value: unknown) => T {
  const validate = ajv.compile(schema);
  const codes = new LocationTable(fieldCodes);
  const missing = new LocationTable(options.missing ?? {});
  const immutable = new LocationTable(options.immutable ?? {});
  const validators = new LocationTable(options.validators ?? {});
  const codeAt = (path: readonly Segment[]): ErrorCode => codes.nearest(path) ?? 'bad_request';

  return (value: unknown): T => {
    const findings: Finding[] = [];
    const failedPaths: Segment[][] = [];
    if (!validate(value)) {
      for (const error of validate.errors ?? []) {
        const path = resolvePointer(value, error.instancePath);
        failedPaths.push(path);
        findings.push(translate(error, path, orderOf(value, path)));
      }
    }
    for (const { path, target, value: check } of validators.matchesIn(value)) {
      // A check only sees values that passed the schema, all the way down.
      if (failedPaths.some((failed) => startsWith(failed, path))) continue;
      const reason = check(target);
      if (reason !== undefined) {
        findings.push({
          order: [...orderOf(value, path), PHASE_CHECK],
          code: codeAt(path),
          message: invalidValueMessage(renderLocation(path), reason),
        });
      }
    }
    const first = findings.reduce<Finding | undefined>(
      (best, f) => (best === undefined || compareOrder(f.order, best.order) < 0 ? f : best),
      undefined,
    );
    if (first !== undefined) throw new ApiError(first.code, first.message);
    return value as T;
  };

  function translate(error: ErrorObject, path: Segment[], order: number[]): Finding {
    const location = renderLocation(path);
    const parent = error.parentSchema ?? {};
    switch (error.keyword) {
      case 'type':
        return typeFinding(order, path, kindsOf(parent), error.data);
      case 'additionalProperties': {
        const field = (error.params as { additionalProperty: string }).additionalProperty;
        const accepted = Object.keys((parent.properties as object | undefined) ?? {});
        const fieldPath = [...path, field];
        const fieldOrder = [...order, PHASE_CHILD, keyIndex(error.data, field), PHASE_TYPE];
        const immutableCode = immutable.get(fieldPath);
        return immutableCode === undefined
          ? { order: fieldOrder, code: codeAt(path), message: unknownFieldMessage(location, field, accepted) }
          : { order: fieldOrder, code: immutableCode, message: immutableFieldMessage(field, accepted) };
      }
      case 'required': {
        const field = (error.params as { missingProperty: string }).missingProperty;
        return {
          order: [...order, PHASE_MISSING, declarationIndex(parent, field)],
          code: missing.get([...path, field]) ?? codeAt(path),
          message: missingFieldMessage(location, field),
        };
      }
      case 'enum': {
        const allowed = (error.schema as unknown[]).map(String);
        if (typeof error.data !== 'string') {
          return typeFinding(order, path, optionLike((error.schema as unknown[]).map(kindOf)), error.data);
        }
        const message = unknownValueMessage(location, error.data, allowed);
        return { order: [...order, PHASE_CHECK], code: codeAt(path), message };
      }
      case 'minimum':
      case 'exclusiveMinimum':
        // A negative number where only non-negative integers are allowed is a kind mismatch for deserr.
        if (typeof error.data === 'number' && error.data < 0 && kindsOf(parent).join() === 'positiveInteger') {
          return typeFinding(order, path, ['positiveInteger'], error.data);
        }
        break;
    }
    const message = invalidValueMessage(location, error.message ?? 'invalid');
    return { order: [...order, PHASE_CHECK], code: codeAt(path), message };
  }

  function typeFinding(order: number[], path: Segment[], kinds: readonly ValueKind[], data: unknown): Finding {
    const message = invalidTypeMessage(renderLocation(path), kinds, data);
    return { order: [...order, PHASE_TYPE], code: codeAt(path), message };
  }
}

/** Accepted kinds of a schema, as deserr would list them for the matching Rust type. */
function kindsOf(schema: AnySchemaObject): ValueKind[] {
  const declared: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  const kinds = declared.flatMap((type): ValueKind[] => {
    switch (type) {
      case 'integer':
        return isNonNegative(schema) ? ['positiveInteger'] : ['positiveInteger', 'negativeInteger'];
      case 'number':
        return ['positiveInteger', 'negativeInteger', 'float'];
      case 'null':
      case 'boolean':
      case 'string':
      case 'array':
      case 'object':
        return [type];
      default:
        return [];
    }
  });
  return optionLike(kinds);
}

/** `null` next to other kinds is an `Option<T>` in Meilisearch, and deserr lists only `T`'s kinds. */
function optionLike(kinds: ValueKind[]): ValueKind[] {
  return kinds.some((k) => k !== 'null') ? kinds.filter((k) => k !== 'null') : kinds;
}

function isNonNegative(schema: AnySchemaObject): boolean {
  const { minimum, exclusiveMinimum } = schema as { minimum?: unknown; exclusiveMinimum?: unknown };
  return (
    (typeof minimum === 'number' && minimum >= 0) ||
    (typeof exclusiveMinimum === 'number' && exclusiveMinimum >= -1)
  );
}

/** Position of a required field among the declared ones; undeclared ones go last. */
function declarationIndex(schema: AnySchemaObject, field: string): number {
  const declared = Object.keys((schema.properties as object | undefined) ?? {});
  const index = declared.indexOf(field);
  return index === -1 ? declared.length : index;
}

function keyIndex(object: unknown, key: string): number {
  return isJsonObject(object) ? Object.keys(object).indexOf(key) : 0;
}

/** Turns an ajv instance path (JSON pointer) into a location, reading array levels as indexes. */
function resolvePointer(data: unknown, instancePath: string): Segment[] {
  const path: Segment[] = [];
  if (instancePath === '') return path;
  let node = data;
  for (const raw of instancePath.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path.push(Number(key));
      node = node[Number(key)];
    } else {
      path.push(key);
      node = isJsonObject(node) ? node[key] : undefined;
    }
  }
  return path;
}

/** Sort-key prefix of a location: at each level, the key's rank in its object or the array index. */
function orderOf(data: unknown, path: readonly Segment[]): number[] {
  const order: number[] = [];
  let node = data;
  for (const segment of path) {
    order.push(PHASE_CHILD, typeof segment === 'number' ? segment : keyIndex(node, segment));
    node = (node as Record<string | number, unknown> | null | undefined)?.[segment];
  }
  return order;
}

function startsWith(path: readonly Segment[], prefix: readonly Segment[]): boolean {
  return prefix.length <= path.length && prefix.every((s, i) => path[i] === s);
}

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
