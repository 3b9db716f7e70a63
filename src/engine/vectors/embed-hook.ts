/**
 * Where the engine gets embeddings for documents at indexing: the vector updater runs
 * synchronously inside the batch's write transaction, so it cannot await an HTTP embedder. The
 * process that hosts the index writer installs a synchronous `EmbedDocuments` with
 * `useDocumentEmbedder` (the embedders service answers it over a blocking channel); the engine
 * never imports a service.
 *
 * The installed function embeds `texts` (rendered document templates, or rendered fragments: JSON
 * values) with `embedder` and hands `take` one vector per text, in text order, a run at a time as
 * the requests are answered, so that the engine stores a run while the requests after it are in
 * flight (null for a text whose request failed and was ignored, as v1.50's
 * `ignore_embedder_failures` ignores it), or throws ApiError 'vector_embedding_error' with
 * Meilisearch's message (``While embedding documents for embedder `name`: …``). It is installed
 * with the write's policy for documents whose template does not render (v1.50's
 * `ignore_document_template_failures`).
 */
import { ApiError } from '../../errors/api-error.js';
import type { EmbedderSettings } from '../../types/settings.js';

/** Takes the vectors of the texts from `from` on. */
export type TakeVectors = (from: number, vectors: readonly (Float32Array | null)[]) => void;

export type EmbedDocuments = (embedderName: string, embedder: EmbedderSettings, texts: readonly unknown[], take: TakeVectors) => void;

/** Without an installed embedder no text can be embedded: the batch fails with this error. */
const noEmbedder: EmbedDocuments = (embedderName) => {
  throw new ApiError(
    'vector_embedding_error',
    `While embedding documents for embedder \`${embedderName}\`: error: no embedding service is available in this process`,
  );
};

let current: EmbedDocuments = noEmbedder;
let templateFailuresIgnored = false;

/**
 * Installs `fn` as the document embedder of this thread, with whether a document whose template
 * does not render is left without an embedding; `null` restores the default (which fails).
 */
export function useDocumentEmbedder(fn: EmbedDocuments | null, ignoreTemplateFailures = false): void {
  current = fn ?? noEmbedder;
  templateFailuresIgnored = fn !== null && ignoreTemplateFailures;
}

/** Embeds `texts` with the installed document embedder, checking that `take` gets each text's vector once, in order. */
export function embedDocuments(embedderName: string, embedder: EmbedderSettings, texts: readonly unknown[], take: TakeVectors): void {
  let count = 0;
  const miscount = (got: number) =>
    new ApiError('vector_embedding_error', `While embedding documents for embedder \`${embedderName}\`: error: expected ${texts.length} embeddings, got ${got}`);
  current(embedderName, embedder, texts, (from, vectors) => {
    if (from !== count || count + vectors.length > texts.length) throw miscount(count + vectors.length);
    count += vectors.length;
    take(from, vectors);
  });
  if (count !== texts.length) throw miscount(count);
}

/** Whether a document whose template does not render is left without an embedding rather than failing the write. */
export function ignoresTemplateFailures(): boolean {
  return templateFailuresIgnored;
}
