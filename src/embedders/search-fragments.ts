/**
 * What a search query sends to its embedder (vectors.md §7, milli's `Embedder::embed_search` and
 * `RequestFromFragments::render_search_fragment`): the query text, or — for a REST embedder with
 * fragments — the one search fragment that renders against the query's `q` and/or `media`. No
 * fragment rendering, or two, is the user's error with the query in the note; `media` needs a
 * REST embedder with fragments.
 */
import { FragmentTemplateError, renderFragment, searchFragmentContext } from '../engine/vectors/fragment-template.js';
import { fragmentsOf, hasFragments } from '../types/fragments.js';
import type { EmbedderSettings } from '../types/settings.js';
import { EmbedError } from './embed-error.js';

/** A search query to embed: its `q` (null when absent) and `media` (undefined or null when absent). */
export interface SearchInput {
  readonly q: string | null;
  readonly media?: unknown;
}

const given = (media: unknown): boolean => media !== undefined && media !== null;

/** Whether the query is a plain text (milli's `SearchQuery::Text`): a `q` and no `media`. */
export function isTextQuery(query: SearchInput): query is { q: string } {
  return query.q !== null && !given(query.media);
}

/** The settings of the embedder that embeds queries: a composite's search embedder. */
function querySide(settings: EmbedderSettings): EmbedderSettings {
  return settings.source === 'composite' ? (settings.searchEmbedder as EmbedderSettings) : settings;
}

/** The one search fragment of `settings` that renders for the query; throws `EmbedError`. */
function renderedSearchFragment(settings: EmbedderSettings, query: SearchInput): unknown {
  const context = searchFragmentContext(query.q, query.media);
  const matched: [string, unknown][] = [];
  for (const [name, template] of fragmentsOf(settings, 'searchFragments')) {
    try {
      matched.push([name, renderFragment(template, context)]);
    } catch (error) {
      if (!(error instanceof FragmentTemplateError)) throw error;
    }
    if (matched.length === 2) break;
  }
  const note = `\n  - Note: ${JSON.stringify({ q: query.q, media: given(query.media) ? query.media : null })}`;
  if (matched.length === 0) throw new EmbedError('user', `Query matches no search fragment.${note}`);
  if (matched.length > 1) {
    throw new EmbedError('user', `Query matches multiple search fragments.\n  - Note: First matched fragment \`${matched[0]![0]}\`.\n  - Note: Second matched fragment \`${matched[1]![0]}\`.${note}`);
  }
  return matched[0]![1];
}

/** What is embedded for `query` with the embedder of `settings`: its text, or a rendered search fragment. Throws `EmbedError`. */
export function queryInput(settings: EmbedderSettings, query: SearchInput): unknown {
  if (isTextQuery(query)) {
    const side = querySide(settings);
    return side.source === 'rest' && hasFragments(side) ? renderedSearchFragment(side, query) : query.q;
  }
  // a composite embedder is no REST embedder, whatever its search embedder
  if (settings.source !== 'rest') throw new EmbedError('user', "`media` requested but the configuration doesn't have source `rest`");
  if (!hasFragments(settings)) {
    throw new EmbedError('user', "`media` requested, and the configuration has source `rest`, but the configuration doesn't have `searchFragments`.");
  }
  return renderedSearchFragment(settings, query);
}
