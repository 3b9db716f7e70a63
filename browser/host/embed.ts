/**
 * The browser's src/embedders/embed.ts, for the one function the search side calls: a query's
 * text is never sent to an embedder from the page (no request leaves it once the bundle is
 * loaded), so a semantic search fails as an embedder that cannot be reached does, and a hybrid
 * one answers with its keyword hits (src/search/query-embedding.ts). A search that brings its
 * own `vector` needs no embedding.
 */
import { ApiError } from '../../src/errors/api-error.js';
import type { EmbedderSettings } from '../../src/types/settings.js';

export async function embedQuery(embedders: Readonly<Record<string, EmbedderSettings>>, name: string): Promise<Float32Array> {
  if (embedders[name] === undefined) throw new ApiError('invalid_search_embedder', `Cannot find embedder with name \`${name}\`.`);
  throw new ApiError('vector_embedding_error', 'Error while generating embeddings: the browser build embeds no query text; send `vector` instead.');
}
