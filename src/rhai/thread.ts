/**
 * The worker side of edition runs (a piscina task module, see workers/pool.ts and runner.ts):
 * compiles the function with Meilisearch's edition limits and edits a chunk of documents,
 * answering their outcomes or the first Rhai error as data (errors thrown across a worker
 * boundary lose their type).
 */
import { EDITION_COMPILE_OPTIONS, RhaiParseError, RhaiRuntimeError, compileScript, editDocument, type EditOutcome } from './index.js';

type JsonObject = Record<string, unknown>;

export interface EditionJob {
  source: string;
  context: JsonObject | null;
  documents: JsonObject[];
}

export type EditionReply =
  | { type: 'outcomes'; outcomes: EditOutcome[] }
  | { type: 'compile-error'; message: string }
  | { type: 'runtime-error'; message: string };

export default function runEdition({ source, context, documents }: EditionJob): EditionReply {
  let script;
  try {
    script = compileScript(source, EDITION_COMPILE_OPTIONS);
  } catch (error) {
    if (error instanceof RhaiParseError) return { type: 'compile-error', message: error.message };
    throw error;
  }
  try {
    return { type: 'outcomes', outcomes: documents.map((doc) => editDocument(script, doc, context)) };
  } catch (error) {
    if (error instanceof RhaiRuntimeError) return { type: 'runtime-error', message: error.message };
    throw error;
  }
}
