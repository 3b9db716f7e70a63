/**
 * The worker side of edition runs (a piscina task module, see workers/pool.ts and runner.ts):
 * compiles the function with Meilisearch's edition limits and edits a chunk of documents,
 * answering their outcomes or the first Rhai error as data (errors thrown across a worker
 * boundary lose their type). Documents cross the boundary as JSON text both ways, so that the
 * numbers they write as floats (`9.0`) stay floats: a copy between threads drops their marks.
 * The context crosses as its text too, and is converted once per thread and edition: a thread
 * keeps the last one it converted for the jobs that bring the same text.
 */
import { stringifyReply } from '../types/reply-text.js';
import { parseWithFloats } from '../types/written-floats.js';
import { EDITION_COMPILE_OPTIONS, RhaiParseError, RhaiRuntimeError, compileScript, editDocument, editionContext, type EditionContext, type EditOutcome } from './index.js';

type JsonObject = Record<string, unknown>;

export interface EditionJob {
  source: string;
  /** the context's JSON text */
  context: string | null;
  /** each document's JSON text, its floats written as floats (`stringifyReply`) */
  documents: string[];
}

/** An outcome as it crosses back: a document kept as its JSON text. */
export type SentOutcome = Exclude<EditOutcome, { kind: 'replace' }> | { kind: 'replace'; text: string };

export type EditionReply =
  | { type: 'outcomes'; outcomes: SentOutcome[] }
  | { type: 'compile-error'; message: string }
  | { type: 'runtime-error'; message: string };

function sent(outcome: EditOutcome): SentOutcome {
  return outcome.kind === 'replace' ? { kind: 'replace', text: stringifyReply(outcome.document) } : outcome;
}

/** The context this thread converted last, and its text. */
let converted: { text: string; context: EditionContext } | null = null;

function contextOf(text: string): EditionContext {
  if (converted?.text !== text) converted = { text, context: editionContext(parseWithFloats(text) as JsonObject) };
  return converted.context;
}

export default function runEdition({ source, context: text, documents }: EditionJob): EditionReply {
  let script;
  try {
    script = compileScript(source, EDITION_COMPILE_OPTIONS);
  } catch (error) {
    if (error instanceof RhaiParseError) return { type: 'compile-error', message: error.message };
    throw error;
  }
  try {
    const context = text === null ? null : contextOf(text);
    return { type: 'outcomes', outcomes: documents.map((doc) => sent(editDocument(script, parseWithFloats(doc) as JsonObject, context))) };
  } catch (error) {
    if (error instanceof RhaiRuntimeError) return { type: 'runtime-error', message: error.message };
    throw error;
  }
}
