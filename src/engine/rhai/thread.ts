/**
 * The worker-thread side of `EditionRunner` (runner.ts): compiles the edition function once
 * with Meilisearch's edition limits, then edits each batch of documents it is sent and answers
 * their outcomes, or the first Rhai error.
 *
 * Messages: in `workerData` {source, context}; out `ready` | `compile-error`, then per
 * batch `outcomes` | `runtime-error` | `failure` (a bug, not the script's fault).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { EDITION_COMPILE_OPTIONS, RhaiParseError, RhaiRuntimeError, compileScript, editDocument, type Script } from './index.js';

type JsonObject = Record<string, unknown>;

const { source, context } = workerData as { source: string; context: JsonObject | null };
const port = parentPort!;

let script: Script | null = null;
try {
  script = compileScript(source, EDITION_COMPILE_OPTIONS);
  port.postMessage({ type: 'ready' });
} catch (error) {
  if (!(error instanceof RhaiParseError)) throw error;
  port.postMessage({ type: 'compile-error', message: error.message });
}

port.on('message', (documents: JsonObject[]) => {
  try {
    port.postMessage({ type: 'outcomes', outcomes: documents.map((doc) => editDocument(script!, doc, context)) });
  } catch (error) {
    if (error instanceof RhaiRuntimeError) port.postMessage({ type: 'runtime-error', message: error.message });
    else port.postMessage({ type: 'failure', message: error instanceof Error ? error.message : String(error) });
  }
});
