/**
 * Helpers of the vector store's writers: an embedder's state created on first use, the settings
 * its generated vectors depend on, and the external ids of documents (for error messages and
 * document rewrites, which the vector records know only by docid).
 */
import type { EmbedderSettings, IndexSettings } from '../../types/settings.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { freeEmbedderId, type EmbedderState, type EmbedderStates } from './store.js';

/**
 * The settings whose change makes every generated vector stale (vectors.md §3.5): all but the
 * template (a changed rendering is detected per document), the credentials and headers, the
 * distribution, the quantization, a userProvided/rest/ollama/huggingFace `dimensions` (a hint)
 * and OpenAI's url.
 */
export function generationKey(embedder: EmbedderSettings): string {
  const source = (embedder.source as string | undefined) ?? 'openAi';
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(embedder)) {
    if (['apiKey', 'headers', 'distribution', 'binaryQuantized', 'documentTemplate', 'documentTemplateMaxBytes'].includes(name)) continue;
    if (name === 'dimensions' && source !== 'openAi') continue;
    if (name === 'url' && source === 'openAi') continue;
    kept[name] = value;
  }
  return JSON.stringify(Object.fromEntries(Object.entries(kept).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** What the rendered document texts depend on: the template, its byte limit, the searchable fields. */
export function renderingKey(embedder: EmbedderSettings, settings: IndexSettings): string {
  const source = embedder.source === 'composite' ? (embedder.indexingEmbedder as EmbedderSettings) : embedder;
  return JSON.stringify([source.documentTemplate ?? null, source.documentTemplateMaxBytes ?? null, settings.searchableAttributes]);
}

/** `states[name]`, created empty for a new embedder. */
export function stateFor(states: EmbedderStates, name: string, embedder: EmbedderSettings, settings: IndexSettings): EmbedderState {
  states[name] ??= {
    id: freeEmbedderId(states),
    dimensions: 0,
    quantized: embedder.binaryQuantized === true,
    generation: generationKey(embedder),
    rendering: renderingKey(embedder, settings),
    nextItem: 0,
    free: [],
    entry: -1,
    maxLevel: -1,
    items: 0,
    documents: 0,
  };
  return states[name];
}

/** docid → external id of every document. */
export function externalIds(env: IndexReadEnv): Map<number, string> {
  const ids = new Map<number, string>();
  for (const { key, value } of env.externalIds.getRange({})) ids.set(value, key);
  return ids;
}
