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
 *   value run after its content. Every finding gets a sort key encoding that walk; the smallest
 *   key wins.
 * - The work stays proportional to the body, however many errors it holds (issue 25: 100,000 bad
 *   array elements blocked the server for minutes). A first-error ajv says whether the body is
 *   valid; a valid body then runs its custom checks in walk order, up to the first failure. An
 *   invalid one is walked child by child (schema-steps.ts), each child checked on its own, and
 *   only the first bad child is looked into; where the walk cannot step further, an `allErrors`
 *   ajv lists that value's errors, which are now few, and their sort keys decide.
 * - Codes: an error takes the code declared for its location or, failing that, for the nearest
 *   enclosing location (so unknown keys inside `.typoTolerance` get that setting's code);
 *   `bad_request` when none is declared. Missing fields use `options.missing` when declared,
 *   otherwise the enclosing object's code, as deserr does.
 * - Expected kinds come from the schema's `type`: `integer` with `minimum >= 0` reads "a positive
 *   integer" (a negative value, or one past 2^64 (u64-bounds.ts), is then a type error, as for a
 *   Rust `usize`), `integer` "an integer", `number` "a number"; `null` is left out next to other
 *   kinds, like an `Option<T>`.
 * - `enum` mismatches read "Unknown value". Keywords deserr has no wording for (minLength,
 *   pattern...) fall back to `Invalid value at <loc>: <ajv message>`; declare a validator when
 *   the exact Meilisearch text matters.
 * - Objects iterate keys in JavaScript order, which puts integer-like keys first.
 */
import type { Ajv, AnySchemaObject, ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { ajvClass } from './ajv-class.js';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { isJsonObject } from '../types/json-text.js';
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
import { describe, descriptionOf } from './described.js';
import { integralFloatPaths, sentValueAt } from './sent-values.js';
import { childSteps, isSteppable } from './schema-steps.js';
import { isNonNegative, U64_LIMIT, withU64Bounds } from './u64-bounds.js';

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

// Two instances for every route, so fragments added with `addSharedSchema` resolve by `$id`: one
// answers "valid or not" and stops at its first error, the other lists a value's every error.
// Made when first needed, with ajv itself (ajv-class.ts): a precompiled validator needs neither.
export const FIRST_ERROR_OPTIONS = { strict: true, allowUnionTypes: true } as const;
let instances: { readonly firstError: Ajv; readonly allErrors: Ajv } | undefined;
const sharedSchemas: AnySchemaObject[] = [];

function ajv(): { readonly firstError: Ajv; readonly allErrors: Ajv } {
  if (instances === undefined) {
    const Ajv = ajvClass();
    instances = { firstError: new Ajv(FIRST_ERROR_OPTIONS), allErrors: new Ajv({ allErrors: true, verbose: true, strict: true, allowUnionTypes: true }) };
    for (const fragment of sharedSchemas) addTo(instances, fragment);
  }
  return instances;
}

function addTo(made: { readonly firstError: Ajv; readonly allErrors: Ajv }, fragment: AnySchemaObject): void {
  made.firstError.addSchema(fragment);
  made.allErrors.addSchema(fragment);
}

/** Registers a schema fragment that route schemas can `$ref` by its `$id`. */
export function addSharedSchema(schema: AnySchemaObject & { $id: string }): void {
  const bounded = withU64Bounds(schema);
  sharedSchemas.push(bounded);
  if (instances !== undefined) addTo(instances, bounded);
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
 * Makes a parser of a body schema, compiled on its first call (where ajv's strict mode refuses a
 * schema with an unknown keyword).
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
  const root = withU64Bounds(schema);
  rootSchemas.add(root);
  rootOf.set(schema, root);
  const codes = new LocationTable(fieldCodes);
  const missing = new LocationTable(options.missing ?? {});
  const immutable = new LocationTable(options.immutable ?? {});
  const validators = new LocationTable(options.validators ?? {});
  const codeAt = (path: readonly Segment[]): ErrorCode => codes.nearest(path) ?? 'bad_request';

  const parse = (value: unknown): T => {
    const first = rootValidator(root)(value) ? firstCheck(value, value, []) : firstFinding(value, root, value, []);
    const float = integralFloatFinding(value);
    const found = float !== undefined && (first === undefined || compareOrder(float.order, first.order) < 0) ? float : first;
    if (found !== undefined) throw new ApiError(found.code, found.message);
    return value as T;
  };
  return describe(parse, { kind: 'body', schema, codes: fieldCodes });

  /**
   * The first custom check failing inside `node` (at `path` in `body`), which matches its schema;
   * checks at the locations in `skip` do not run.
   */
  function firstCheck(body: unknown, node: unknown, path: Segment[], skip?: ReadonlySet<string>): Finding | undefined {
    return validators.firstIn(node, path, (check, target, at) => {
      if (skip?.has(JSON.stringify(at))) return undefined;
      const reason = check(target);
      if (reason === undefined) return undefined;
      return { order: [...orderOf(body, at), PHASE_CHECK], code: codeAt(at), message: invalidValueMessage(renderLocation(at), reason) };
    });
  }

  /**
   * deserr's first error inside `node`, a value that does not match `nodeSchema`: children are
   * tried one by one in payload order, and only the first bad one is looked into.
   */
  function firstFinding(body: unknown, nodeSchema: SchemaObject, node: unknown, path: Segment[]): Finding | undefined {
    if (!isSteppable(nodeSchema, node)) return leafFinding(body, nodeSchema, node, path);
    for (const child of childSteps(nodeSchema, node)) {
      if (child.schema === false) {
        return unknownField(nodeSchema, node, path, orderOf(body, path), child.segment as string);
      }
      path.push(child.segment);
      const found =
        child.schema !== undefined && !compiled(ajv().firstError, child.schema)(child.value)
          ? firstFinding(body, child.schema, child.value, path)
          : firstCheck(body, child.value, path);
      path.pop();
      if (found !== undefined) return found;
    }
    // Every child is fine: what is left concerns the value as a whole (missing fields, sizes).
    return leafFinding(body, nodeSchema, node, path);
  }

  /** deserr's first error inside `node`, from every error ajv finds there and the checks left. */
  function leafFinding(body: unknown, nodeSchema: SchemaObject, node: unknown, path: Segment[]): Finding | undefined {
    const validate = compiled(ajv().allErrors, nodeSchema);
    const findings: Finding[] = [];
    // A check only sees values that passed the schema, all the way down.
    const failed = new Set<string>();
    if (!validate(node)) {
      for (const error of validate.errors ?? []) {
        const at = [...path, ...resolvePointer(node, error.instancePath)];
        for (let length = 0; length <= at.length; length++) failed.add(JSON.stringify(at.slice(0, length)));
        findings.push(translate(body, error, at, orderOf(body, at)));
      }
    }
    const check = firstCheck(body, node, path, failed);
    if (check !== undefined) findings.push(check);
    return findings.reduce<Finding | undefined>(
      (best, f) => (best === undefined || compareOrder(f.order, best.order) < 0 ? f : best),
      undefined,
    );
  }

  function unknownField(objectSchema: AnySchemaObject, object: unknown, path: Segment[], order: number[], field: string): Finding {
    const accepted = Object.keys((objectSchema.properties as object | undefined) ?? {});
    const fieldPath = [...path, field];
    const fieldOrder = [...order, PHASE_CHILD, keyIndex(object, field), PHASE_TYPE];
    const immutableCode = immutable.get(fieldPath);
    return immutableCode === undefined
      ? { order: fieldOrder, code: codeAt(path), message: unknownFieldMessage(renderLocation(path), field, accepted) }
      : { order: fieldOrder, code: immutableCode, message: immutableFieldMessage(field, accepted) };
  }

  function translate(body: unknown, error: ErrorObject, path: Segment[], order: number[]): Finding {
    const location = renderLocation(path);
    const parent = error.parentSchema ?? {};
    switch (error.keyword) {
      case 'type':
        return typeFinding(body, order, path, kindsOf(parent), error.data);
      case 'additionalProperties':
        return unknownField(parent, error.data, path, order, (error.params as { additionalProperty: string }).additionalProperty);
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
          return typeFinding(body, order, path, optionLike((error.schema as unknown[]).map(kindOf)), error.data);
        }
        const message = unknownValueMessage(location, error.data, allowed);
        return { order: [...order, PHASE_CHECK], code: codeAt(path), message };
      }
      case 'minimum':
      case 'exclusiveMinimum':
        // A negative number where only non-negative integers are allowed is a kind mismatch for deserr.
        if (typeof error.data === 'number' && error.data < 0 && kindsOf(parent).includes('positiveInteger')) {
          return typeFinding(body, order, path, kindsOf(parent), error.data);
        }
        break;
      case 'exclusiveMaximum':
        // 2^64 and beyond are floats for serde_json (u64-bounds.ts), another kind mismatch.
        if (parent.exclusiveMaximum === U64_LIMIT) return typeFinding(body, order, path, kindsOf(parent), error.data);
        break;
    }
    const message = invalidValueMessage(location, error.message ?? 'invalid');
    return { order: [...order, PHASE_CHECK], code: codeAt(path), message };
  }

  /**
   * The first number sent as a float with an integer value (`20.0`, `1e2`, `-0`) where only
   * integers are accepted: JSON.parse made it an integer, serde_json keeps it a float, which
   * deserr refuses for a Rust integer. Only bodies whose text is known (sent-values.ts).
   */
  function integralFloatFinding(body: unknown): Finding | undefined {
    let best: Finding | undefined;
    for (const path of integralFloatPaths(body)) {
      const schema = schemaAt(root, body, path);
      if (schema === undefined) continue;
      const kinds = kindsOf(schema);
      if (!kinds.includes('positiveInteger') || kinds.includes('float')) continue;
      const finding = typeFinding(body, orderOf(body, path), path, kinds, undefined);
      if (best === undefined || compareOrder(finding.order, best.order) < 0) best = finding;
    }
    return best;
  }

  /** The value is quoted as sent (`1.0`, not `1`) when the body's text is known (sent-values.ts). */
  function typeFinding(body: unknown, order: number[], path: Segment[], kinds: readonly ValueKind[], data: unknown): Finding {
    const message = invalidTypeMessage(renderLocation(path), kinds, sentValueAt(body, path)?.value ?? data);
    return { order: [...order, PHASE_TYPE], code: codeAt(path), message };
  }
}

// Validators by schema, per instance, compiled when first needed: a route's on its first request,
// not at startup (compiling every route's took a third of a server's start), and the finer ones
// when an invalid body reaches them.
const compiledBy = new Map<Ajv, WeakMap<SchemaObject, ValidateFunction>>();

function compiled(instance: Ajv, schema: SchemaObject): ValidateFunction {
  let cache = compiledBy.get(instance);
  if (cache === undefined) compiledBy.set(instance, (cache = new WeakMap()));
  let validate = cache.get(schema);
  if (validate === undefined) cache.set(schema, (validate = instance.compile(schema)));
  return validate;
}

// Every body's whole schema, as `compileBody` was given it (bounded): what the build precompiles.
const rootSchemas = new Set<SchemaObject>();
// each schema `compileBody` was given → its bounded root
const rootOf = new WeakMap<SchemaObject, SchemaObject>();

/**
 * Loads (or compiles) the whole-schema validator of a body parser made by `compileBody` (or one
 * `describedLike` it), without parsing anything: an invalid sample body would also compile the
 * finer validators that locate its error (~70 ms for `/multi-search`'s), which only an invalid
 * request needs.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function loadBodyValidator(parser: Function): void {
  const description = descriptionOf(parser);
  const root = description?.kind === 'body' ? rootOf.get(description.schema) : undefined;
  if (root !== undefined) rootValidator(root);
}

/** The schemas of the `compileBody` calls made so far, and the shared fragments they may `$ref`. */
export function declaredBodySchemas(): { roots: readonly SchemaObject[]; shared: readonly AnySchemaObject[] } {
  return { roots: [...rootSchemas], shared: [...sharedSchemas] };
}

// Where a body's "valid or not" validator is looked up before it is compiled (the build's
// precompiled ones: validation/precompiled-bodies.ts), when the host has set one.
let precompiledValidator: ((root: SchemaObject) => ValidateFunction | undefined) | null = null;

/** Makes `find` the first place a body's whole-schema validator comes from; it answers undefined for a schema it lacks. */
export function usePrecompiledValidators(find: (root: SchemaObject) => ValidateFunction | undefined): void {
  precompiledValidator = find;
}

const rootValidators = new WeakMap<SchemaObject, ValidateFunction>();

function rootValidator(root: SchemaObject): ValidateFunction {
  let validate = rootValidators.get(root);
  if (validate === undefined) {
    validate = precompiledValidator?.(root) ?? compiled(ajv().firstError, root);
    rootValidators.set(root, validate);
  }
  return validate;
}

/**
 * The schema `body`'s value at `path` matches under `schema`, through `properties`,
 * `additionalProperties`, `items` and `if`/`then`/`else`; undefined where none says.
 */
function schemaAt(schema: SchemaObject, body: unknown, path: readonly Segment[]): SchemaObject | undefined {
  let node = body;
  let current: SchemaObject | undefined = branchOf(schema, node);
  for (const segment of path) {
    if (current === undefined) return undefined;
    if (typeof segment === 'number') {
      current = isJsonObject(current.items) ? (current.items as SchemaObject) : undefined;
    } else {
      const properties = (current.properties ?? {}) as Record<string, SchemaObject>;
      const others: unknown = current.additionalProperties;
      current = Object.hasOwn(properties, segment) ? properties[segment] : isJsonObject(others) ? (others as SchemaObject) : undefined;
    }
    node = (node as Record<string | number, unknown> | null | undefined)?.[segment];
    current = current === undefined ? undefined : branchOf(current, node);
  }
  return current;
}

/** The branch of an `if`/`then`/`else` schema `value` takes; any other schema itself. */
function branchOf(schema: SchemaObject, value: unknown): SchemaObject | undefined {
  if (schema.if === undefined) return schema;
  const branch = (compiled(ajv().firstError, schema.if as SchemaObject)(value) ? schema.then : schema.else) as SchemaObject | undefined;
  return branch === undefined ? undefined : branchOf(branch, value);
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

function compareOrder(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return a.length - b.length;
}
