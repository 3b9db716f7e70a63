/**
 * Where the engine gets embeddings for documents at indexing: the vector updater runs
 * synchronously inside the batch's write transaction, so it cannot await an HTTP embedder. The
 * process that hosts the index writer installs a synchronous `EmbedDocuments` with
 * `useDocumentEmbedder` (the embedders service answers it over a blocking channel); the engine
 * never imports a service.
 *
 * The installed function embeds `texts` (rendered document templates, or rendered fragments: JSON
 * values) with `embedder` and returns
 * one vector per text, in order, or throws ApiError 'vector_embedding_error' with Meilisearch's
 * message (``While embedding documents for embedder `name`: …``).
 */
import { ApiError } from '../../errors/api-error.js';
import type { EmbedderSettings } from '../../types/settings.js';

export type EmbedDocuments = (embedderName: string, embedder: EmbedderSettings, texts: readonly unknown[]) => Float32Array[];

/** Without an installed embedder no text can be embedded: the batch fails with this error. */
const noEmbedder: EmbedDocuments = (embedderName) => {
  throw new ApiError(
    'vector_embedding_error',
    `While embedding documents for embedder \`${embedderName}\`: error: no embedding service is available in this process`,
  );
};

let current: EmbedDocuments = noEmbedder;

/** Installs `fn` as the document embedder of this thread; `null` restores the default (which fails). */
export function useDocumentEmbedder(fn: EmbedDocuments | null): void {
  current = fn ?? noEmbedder;
}

/** Embeds `texts` with the installed document embedder. */
export function embedDocuments(embedderName: string, embedder: EmbedderSettings, texts: readonly unknown[]): Float32Array[] {
  return current(embedderName, embedder, texts);
}
