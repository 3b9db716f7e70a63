/**
 * A Rhai interpreter for Meilisearch's "edit documents by function" (documents.md §6): the
 * subset of Rhai scripts use, with Rhai's syntax, semantics, limits and error messages.
 *
 * - `compileScript(source, options)` parses a script; throws `RhaiParseError` (its message is
 *   Rhai's `ParseError` text, e.g. ``Expecting ';' to terminate this statement (line 1, position 9)``).
 *   The route compiles with Rhai's default engine limits, the task with `EDITION_COMPILE_OPTIONS`.
 * - `editionContext(context)` converts an edition's context to Rhai values, once for all the
 *   documents of a run.
 * - `editDocument(script, document, context)` runs it on one document (`doc`, and the constant
 *   `context` when given) and says what became of the document; throws `RhaiRuntimeError`.
 *
 * Example:
 *   const script = compileScript('doc.title = doc.title.to_upper(); if doc.id % 2 == 0 { doc = (); }');
 *   editDocument(script, { id: 1, title: 'carol' }, null); // { kind: 'replace', document: { id: 1, title: 'CAROL' } }
 */
import type { Script } from './ast.js';
import { Interpreter, type RunLimits, type Slot } from './interpreter.js';
import { DEFAULT_COMPILE_OPTIONS, parseScript, type CompileOptions } from './parser.js';
import { Cell, fromJson, isMap, toJson, type Value } from './values.js';

export { RhaiParseError, RhaiRuntimeError } from './errors.js';
export { DEFAULT_COMPILE_OPTIONS, type CompileOptions } from './parser.js';
export type { RunLimits } from './interpreter.js';
export type { Script } from './ast.js';

type JsonObject = Record<string, unknown>;

/** The limits Meilisearch sets on its edition engine (`update_by_function.rs`): when compiling, and when running (`EDITION_LIMITS`). */
export const EDITION_COMPILE_OPTIONS: CompileOptions = {
  maxExprDepth: 100,
  maxFunctionExprDepth: 1000,
  maxFunctions: 30,
  maxArraySize: 10_000,
  maxMapSize: 10_000,
};

/**
 * Meilisearch's edition limits, but strings: 64 MiB, not 1 GiB. A string's characters are
 * spread into an array by most string functions here, and V8 aborts the whole process (not a
 * catchable error) on an array of 2^27 elements, which a string of 1 GiB (or past V8's own
 * 2^29-unit strings) would reach; 64 MiB keeps every such array under half of it.
 */
export const EDITION_LIMITS: RunLimits = {
  maxOperations: 1_000_000,
  maxCallLevels: 1000,
  maxVariables: 1000,
  maxStringSize: 64 * 1024 * 1024,
  maxArraySize: 10_000,
  maxMapSize: 10_000,
};

export function compileScript(source: string, options: CompileOptions = DEFAULT_COMPILE_OPTIONS): Script {
  return parseScript(source, options);
}

/** What a script did to a document: deleted it (`doc = ()`), left a map, or left something else. */
export type EditOutcome = { kind: 'delete' } | { kind: 'replace'; document: JsonObject } | { kind: 'notAnObject' };

/** An edition's context as Rhai values. */
export interface EditionContext {
  readonly value: Value;
}

/**
 * `context` as Rhai values, shared by every document of a run (v1.50 clones it for each): the
 * conversion cost 100 ms per document for 100,000 keys, and a script cannot change it, as a
 * constant refuses assignment and mutating methods and the interpreter copies whatever is taken
 * out of it (into a variable, a field, an argument, a literal, a loop variable, a result).
 */
export function editionContext(context: JsonObject): EditionContext {
  return { value: fromJson(context) };
}

export function editDocument(script: Script, document: JsonObject, context: EditionContext | null, limits: RunLimits = EDITION_LIMITS): EditOutcome {
  const scope: Slot[] = [];
  if (context !== null) scope.push({ name: 'context', value: context.value, constant: true });
  scope.push({ name: 'doc', value: fromJson(document), constant: false });
  new Interpreter(script, limits).run(scope);
  // The script's own `let doc` shadows the original, as Rhai's `scope.remove("doc")` finds it.
  const slot = scope.findLast((s) => s.name === 'doc')!;
  const doc = slot.value instanceof Cell ? slot.value.value : slot.value;
  if (doc === null) return { kind: 'delete' };
  if (isMap(doc)) return { kind: 'replace', document: toJson(doc) as JsonObject };
  return { kind: 'notAnObject' };
}
