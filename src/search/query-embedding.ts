/**
 * Embedding a search query's text (or its `media`, through a search fragment) with an index's
 * embedder (vectors.md §7), through the
 * embedders service, within what is left of the search's time budget (Meilisearch's search
 * deadline, which the embedder reports as v1.50's timeout). A semantic-only search fails with the
 * embedder's error (400 `vector_embedding_error`); a hybrid search gets no vector back when the
 * embedding fails and answers with its keyword hits. A budget past what a Node timer holds
 * (`searchCutoffMs` takes any u64) waits as long as one can (types/timer-delay.ts).
 */
import { embedQuery } from '../embedders/embed.js';
import type { SearchInput } from '../embedders/search-fragments.js';
import { ApiError } from '../errors/api-error.js';
import type { EmbedderSettings } from '../types/settings.js';
import { timerDelay } from '../types/timer-delay.js';

/** The query's vector, null when a hybrid search could not embed its query. */
export interface QueryEmbedding {
  readonly vector: Float32Array | null;
}

export async function embedSearchQuery(
  embedders: Readonly<Record<string, EmbedderSettings>>,
  name: string,
  input: SearchInput,
  budgetMs: number,
  semanticOnly: boolean,
): Promise<QueryEmbedding> {
  try {
    return { vector: await embedQuery(embedders, name, input, AbortSignal.timeout(timerDelay(Math.floor(budgetMs)))) };
  } catch (err) {
    // the embedder's failures are ApiErrors; anything else is a fault of ours, never a fallback
    if (semanticOnly || !(err instanceof ApiError)) throw err;
    return { vector: null };
  }
}
