/**
 * v1.50's `MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES`, which milli reads when it embeds a
 * batch's documents: a comma list of
 * - `ignore_document_template_failures`: a document whose template does not render gets no
 *   embedding (and loses the one it had) instead of failing its batch;
 * - `ignore_embedder_failures`: a request of documents the embedder fails is logged and skipped,
 *   those documents keeping what they had, instead of failing the batch.
 * Segments are trimmed as Rust trims them, and empty ones skipped. v1.50 panics on any other
 * segment when it first indexes; Quarry refuses to start with it.
 */
import { rustTrim } from '../types/rust-whitespace.js';

export interface EmbedderFailureModes {
  readonly ignoreDocumentTemplateFailures: boolean;
  readonly ignoreEmbedderFailures: boolean;
}

export const STRICT_FAILURE_MODES: EmbedderFailureModes = { ignoreDocumentTemplateFailures: false, ignoreEmbedderFailures: false };

export const FAILURE_MODES_VARIABLE = 'MEILI_EXPERIMENTAL_CONFIG_EMBEDDER_FAILURE_MODES';

/** The modes of the variable's value (unset: none); throws v1.50's panic message on an unknown segment. */
export function parseFailureModes(raw: string | undefined): EmbedderFailureModes {
  if (raw === undefined) return STRICT_FAILURE_MODES;
  let ignoreDocumentTemplateFailures = false;
  let ignoreEmbedderFailures = false;
  for (const piece of raw.split(',')) {
    const segment = rustTrim(piece);
    if (segment === 'ignore_document_template_failures') ignoreDocumentTemplateFailures = true;
    else if (segment === 'ignore_embedder_failures') ignoreEmbedderFailures = true;
    else if (segment !== '') throw new Error(`Unrecognized segment value for \`${FAILURE_MODES_VARIABLE}\`: ${segment}`);
  }
  return { ignoreDocumentTemplateFailures, ignoreEmbedderFailures };
}
