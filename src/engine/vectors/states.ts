/**
 * Helpers of the vector store's writers: an embedder's state created on first use, the settings
 * its generated vectors depend on, the ids of its indexing fragments, and the external ids of documents (for error messages and
 * document rewrites, which the vector records know only by docid).
 */
import type { EmbedderSettings, IndexSettings } from '../../types/settings.js';
import { ApiError } from '../../errors/api-error.js';
import { fragmentsOf, hasFragments } from '../../types/fragments.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { freeEmbedderId, type EmbedderState, type EmbedderStates } from './store.js';
import { ownValue, setField } from '../../types/own-record.js';

/**
 * The settings whose change makes every generated vector stale (vectors.md §3.5): all but the
 * template and the fragments (a changed rendering is detected per document), the credentials and headers, the
 * distribution, the quantization, a userProvided/rest/ollama/huggingFace `dimensions` (a hint)
 * and OpenAI's url.
 */
export function generationKey(embedder: EmbedderSettings): string {
  const source = (embedder.source as string | undefined) ?? 'openAi';
  // fragments changed one by one are re-rendered per document (renderingKey); gaining or losing them all regenerates everything
  const kept: Record<string, unknown> = { withFragments: hasFragments(embedder) };
  for (const [name, value] of Object.entries(embedder)) {
    if (['apiKey', 'headers', 'distribution', 'binaryQuantized', 'documentTemplate', 'documentTemplateMaxBytes', 'indexingFragments', 'searchFragments'].includes(name)) continue;
    if (name === 'dimensions' && source !== 'openAi') continue;
    if (name === 'url' && source === 'openAi') continue;
    kept[name] = value;
  }
  return JSON.stringify(Object.fromEntries(Object.entries(kept).sort(([a], [b]) => (a < b ? -1 : 1))));
}

/** What the rendered document texts depend on: the template, its byte limit, the searchable fields, the indexing fragments. */
export function renderingKey(embedder: EmbedderSettings, settings: IndexSettings): string {
  const source = embedder.source === 'composite' ? (embedder.indexingEmbedder as EmbedderSettings) : embedder;
  return JSON.stringify([source.documentTemplate ?? null, source.documentTemplateMaxBytes ?? null, settings.searchableAttributes, fragmentsOf(embedder, 'indexingFragments')]);
}

/** Fragment ids are one byte, as milli's. */
const MAX_FRAGMENTS = 255;

/**
 * The ids of the embedder's indexing fragments (milli's `FragmentConfigs`): a kept fragment keeps
 * its id, a removed one frees it, new ones (in name order) take the lowest free ids; `afresh`
 * (everything regenerated) numbers them from 0 in name order.
 */
export function syncFragmentIds(state: EmbedderState, embedder: EmbedderSettings, afresh: boolean): void {
  const names = fragmentsOf(embedder, 'indexingFragments').map(([name]) => name);
  const kept = afresh ? [] : (state.fragments ?? []).filter((fragment) => names.includes(fragment.name));
  const used = new Set(kept.map((fragment) => fragment.id));
  const added = names.filter((name) => !kept.some((fragment) => fragment.name === name));
  if (used.size + added.length > MAX_FRAGMENTS) {
    throw new ApiError('invalid_settings_embedders', `Too many fragments in the configuration. Found ${used.size + added.length}, but limited to 256.`);
  }
  let next = 0;
  for (const name of added) {
    while (used.has(next)) next++;
    used.add(next);
    kept.push({ id: next, name });
  }
  if (kept.length === 0) delete state.fragments;
  else state.fragments = kept;
}

/** `states[name]`, created empty for a new embedder (named by users: `__proto__` or `constructor` like any other). */
export function stateFor(states: EmbedderStates, name: string, embedder: EmbedderSettings, settings: IndexSettings): EmbedderState {
  let state = ownValue(states, name);
  if (state === undefined) {
    state = {
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
    setField(states, name, state);
  }
  if (state.fragments === undefined) syncFragmentIds(state, embedder, true);
  return state;
}

/** docid → external id of every document. */
export function externalIds(env: IndexReadEnv): Map<number, string> {
  const ids = new Map<number, string>();
  for (const { key, value } of env.externalIds.getRange({})) ids.set(value, key);
  return ids;
}
