/**
 * The multimodal fragments of an embedder's settings (vectors.md §3.1, milli's `indexingFragments`
 * / `searchFragments`): `{name: {value: <JSON template>}}`, where a `null` entry removes a fragment
 * in a patch. One reading for every layer (settings checks, the embedders, the vector store, the
 * render route), so they agree on what "has fragments" means: an entry counts only when set, as
 * milli filters the `null` ones out.
 */
import { compareBytes } from './bytes.js';
import type { EmbedderSettings } from './settings.js';

export type FragmentSide = 'indexingFragments' | 'searchFragments';

/** The set fragments of one side's map (`null` entries skipped), in name order (milli's BTreeMap). */
export function fragmentEntries(fragments: unknown): [name: string, value: unknown][] {
  if (fragments === null || typeof fragments !== 'object' || Array.isArray(fragments)) return [];
  const out: [string, unknown][] = [];
  for (const [name, fragment] of Object.entries(fragments as Record<string, unknown>)) {
    if (fragment !== null && typeof fragment === 'object' && 'value' in fragment) out.push([name, (fragment as { value: unknown }).value]);
  }
  return out.sort(([a], [b]) => compareBytes(a, b));
}

/** The settings that hold a side's fragments: the embedder's own, or a composite's indexing/search embedder's. */
function holder(embedder: EmbedderSettings, side: FragmentSide): EmbedderSettings {
  if (embedder.source !== 'composite') return embedder;
  const sub = side === 'indexingFragments' ? embedder.indexingEmbedder : embedder.searchEmbedder;
  return sub !== null && typeof sub === 'object' ? (sub as EmbedderSettings) : {};
}

/** The set fragments of `side` that the embedder uses (a composite's come from its sub-embedders). */
export function fragmentsOf(embedder: EmbedderSettings, side: FragmentSide): [name: string, value: unknown][] {
  return fragmentEntries(holder(embedder, side)[side]);
}

/** Whether the embedder declares at least one indexing or search fragment (milli's `WithFragments::Yes`). */
export function hasFragments(embedder: EmbedderSettings): boolean {
  return fragmentsOf(embedder, 'indexingFragments').length > 0 || fragmentsOf(embedder, 'searchFragments').length > 0;
}
