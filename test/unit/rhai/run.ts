/** Test helpers: run a script on a document the way the edition task does. */
import {
  EDITION_COMPILE_OPTIONS,
  EDITION_LIMITS,
  compileScript,
  editDocument,
  editionContext,
  type EditOutcome,
  type RunLimits,
} from '../../../src/rhai/index.js';

export type Json = Record<string, unknown>;

export function run(source: string, doc: Json = {}, context: Json | null = null, limits: RunLimits = EDITION_LIMITS): EditOutcome {
  return editDocument(compileScript(source, EDITION_COMPILE_OPTIONS), doc, context === null ? null : editionContext(context), limits);
}

/** The edited document; fails the test when the script deleted it or left a non-object. */
export function edited(source: string, doc: Json = {}, context: Json | null = null): Json {
  const outcome = run(source, doc, context);
  if (outcome.kind !== 'replace') throw new Error(`expected a document, got ${outcome.kind}`);
  return outcome.document;
}

/** The JSON value of a Rhai expression. */
export function value(expression: string, doc: Json = {}, context: Json | null = null): unknown {
  return edited(`doc.__v = ${expression};`, doc, context).__v;
}

/** Rhai's type name and print form of an expression. */
export function typed(expression: string): [string, string] {
  const out = edited(`let __x = ${expression}; doc.t = type_of(__x); doc.s = __x.to_string();`);
  return [out.t as string, out.s as string];
}

/** The message of the error a script raises (compile or run). */
export function errorOf(source: string, doc: Json = {}, context: Json | null = null, limits: RunLimits = EDITION_LIMITS): string {
  try {
    run(source, doc, context, limits);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('the script did not fail');
}
