/**
 * Embedding a search query's text with an index's embedder (vectors.md §7), through the
 * embedders service, within what is left of the search's time budget (Meilisearch's search
 * deadline). A semantic-only search fails with the embedder's error (400
 * `vector_embedding_error`), or when the budget runs out first with an error of that code; a hybrid
 * search gets no vector back on any failure and answers with its keyword hits.
 */
import { embedQuery } from '../embedders/embed.js';
import { ApiError } from '../errors/api-error.js';
import type { EmbedderSettings } from '../types/settings.js';

/** The query's vector, null when a hybrid search could not embed its query. */
export interface QueryEmbedding {
  readonly vector: Float32Array | null;
}

export async function embedSearchQuery(
  embedders: Readonly<Record<string, EmbedderSettings>>,
  name: string,
  text: string,
  budgetMs: number,
  semanticOnly: boolean,
): Promise<QueryEmbedding> {
  const signal = AbortSignal.timeout(Math.max(Math.floor(budgetMs), 0));
  try {
    return { vector: await embedQuery(embedders, name, text, signal) };
  } catch (err) {
    if (!semanticOnly) return { vector: null };
    if (err instanceof ApiError || !signal.aborted) throw err;
    throw new ApiError('vector_embedding_error', 'Error while generating embeddings: runtime error: the search cutoff elapsed before the query was embedded');
  }
}
