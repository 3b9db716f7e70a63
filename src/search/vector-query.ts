/**
 * Which search a query runs on an index (search.md §6, Meilisearch's `search_kind`): keyword,
 * semantic only or hybrid, decided from `q`, `hybrid`, `vector` and `media` in Meilisearch's
 * order. The embedder is looked up, and a given `vector` checked against its dimensions, only
 * when the search is semantic or hybrid: a ratio of 0 or a placeholder query never looks at it.
 * `media` (multimodal search) is gated and refused here too.
 */
import { embedderDimensions } from '../engine/vectors/index.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import type { SearchQuery } from './query.js';

export type SearchKind =
  | { readonly kind: 'keyword' }
  | { readonly kind: 'semantic'; readonly embedder: string }
  | { readonly kind: 'hybrid'; readonly embedder: string; readonly semanticRatio: number };

/** `semanticRatio` when absent (search.md §2). */
const DEFAULT_SEMANTIC_RATIO = 0.5;

/** The search kind of `query` on an index with `settings` (the `media`/`vector`/`hybrid` errors come first, checks.ts). */
export function searchKind(query: SearchQuery, env: IndexReadEnv, settings: IndexSettings): SearchKind {
  const hybrid = query.hybrid ?? null;
  if (hybrid === null) return { kind: 'keyword' };
  // an f32 in Meilisearch: 0.999999999 is 1
  const ratio = Math.fround(hybrid.semanticRatio ?? DEFAULT_SEMANTIC_RATIO);
  const vector = query.vector ?? null;
  const media = query.media !== undefined && query.media !== null;
  const placeholder = (query.q ?? '').trim() === '';
  if (ratio === 0) return { kind: 'keyword' };
  if (!media && placeholder && vector === null) return { kind: 'keyword' };
  checkEmbedder(env, settings, hybrid.embedder, vector?.length ?? null, 'invalid_search_embedder');
  if (ratio === 1 || placeholder) return { kind: 'semantic', embedder: hybrid.embedder };
  return { kind: 'hybrid', embedder: hybrid.embedder, semanticRatio: ratio };
}

/**
 * The embedder `name` must be configured (`code` for an unknown one: search or similar), and a
 * query vector of `length` components must match its dimensions.
 */
export function checkEmbedder(env: IndexReadEnv, settings: IndexSettings, name: string, length: number | null, code: ErrorCode): void {
  if (!Object.hasOwn(settings.embedders, name)) throw new ApiError(code, `Cannot find embedder with name \`${name}\`.`);
  if (length === null) return;
  // the store's dimensions once it holds vectors, else those the settings give
  const configured = settings.embedders[name]!.dimensions;
  const expected = embedderDimensions(env, settings, name) ?? (typeof configured === 'number' ? configured : undefined);
  if (expected !== undefined && expected !== length) {
    throw new ApiError('invalid_vector_dimensions', `Invalid vector dimensions: expected: \`${expected}\`, found: \`${length}\`.`);
  }
}

/**
 * `media` needs the experimental `multimodal` feature, whatever the search kind (Meilisearch checks
 * it before anything is embedded). Quarry's embedders embed text only (no search fragments), so a
 * semantic or hybrid media search is refused rather than answered from its `q` alone.
 */
export function checkMedia(ctx: SearchContext, query: SearchQuery, kind: SearchKind): void {
  if (query.media === undefined || query.media === null) return;
  if (!ctx.features.enabled('multimodal')) {
    throw new ApiError(
      'feature_not_enabled',
      'passing `media` in a search query requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
    );
  }
  // a keyword search (semanticRatio 0) does not use it
  if (kind.kind === 'keyword') return;
  throw new ApiError('vector_embedding_error', 'Error while generating embeddings: user error: Quarry cannot embed `media`: search fragments are not supported');
}
