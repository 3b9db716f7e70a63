/**
 * `_meiliSearchInIndex`, the one tool a chat completion gives the LLM (chats.md §4.2, §4.4): its
 * definition (every index the caller may see, with its `chat.description`, and the 10 most
 * frequent values of each filterable attribute within the caller's tenant-token filter), and a
 * call run as a search of this instance: the caller needs `search` on the index, the index's
 * `chat.searchParameters` shape the query, each hit is rendered with its `chat.documentTemplate`.
 * The LLM's arguments are read as serde_json reads them, its errors the tool result. The engine's
 * refusals of the prepared search (a filter's attribute, the sort's) are tool results alone, with
 * no source; every other failure (the index, the key, the filter's syntax, the queue, the
 * template) is a tool result *and* an error event, as in v1.50.
 */
import type { Caller } from '../auth/caller.js';
import { fromSlice, option, SerdeError, string, struct } from '../types/serde-json.js';
import { documentId } from '../engine/document-id.js';
import { computeFacets } from '../engine/facets/distribution.js';
import { searchSettings } from '../engine/index-settings.js';
import { renderTemplateText, templateContext, type RenderLimits } from '../engine/vectors/template.js';
import { searchableMatcher } from '../engine/words/extract.js';
import { ApiError } from '../errors/api-error.js';
import type { IndexSettings } from '../types/settings.js';
import { userRecord } from '../indexes/reader.js';
import type { SearchContext } from '../search/context.js';
import { hitFields } from '../search/displayed.js';
import type { MatchingStrategy } from '../engine/search/ranking.js';
import type { SearchQuery } from '../search/query.js';
import { SearchRefusal, searchIndex } from '../search/single.js';
import { TimeSlices } from '../types/time-slices.js';
import type { ChatError } from './provider.js';
import type { ChatPrompts } from './workspace-settings.js';

export const SEARCH_TOOL = '_meiliSearchInIndex';

/** What the tool needs beyond a search: the names of the indexes. */
export interface ChatSearchContext extends SearchContext {
  indexUids(): string[];
}

/** Facet values listed per filterable attribute in the tool's filter description. */
const LISTED_FACET_VALUES = 10;

/** The indexes `caller` may see, in name order. */
function visibleIndexes(ctx: ChatSearchContext, caller: Caller): string[] {
  return ctx
    .indexUids()
    .filter((uid) => caller.canSeeIndex(uid))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * `<attr>: v1, v2, ….` lines of an index's 10 most frequent values per filterable attribute of its
 * field map (`<attr>: ` when none is among the documents), within the caller's filter.
 */
async function facetLines(ctx: ChatSearchContext, caller: Caller, uid: string): Promise<string> {
  const search = await searchIndex(ctx, caller, uid, { q: '' }, { offset: 0, limit: 0, exhaustive: false });
  const settings: IndexSettings = { ...search.settings, faceting: { maxValuesPerFacet: LISTED_FACET_VALUES, sortFacetValuesBy: { '*': 'count' } } };
  const { distribution } = computeFacets(search.env, settings, search.outcome.candidates, ['*']);
  let lines = '';
  for (const [field, values] of Object.entries(distribution)) {
    const top = Object.entries(values)
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, LISTED_FACET_VALUES)
      .map(([value]) => value);
    // v1.50 ends the values with a dot: a field with none is its name alone
    lines += `${field}: ${top.length === 0 ? '' : `${top.join(', ')}.`}\n`;
  }
  return lines;
}

/**
 * The tool's definition, as the provider receives it. Every index's facets are counted: between
 * two indexes the event loop gets a turn once a slice of work has passed (time-slices.ts), as
 * between the queries of a multi-search.
 */
export async function searchToolDefinition(ctx: ChatSearchContext, caller: Caller, prompts: ChatPrompts): Promise<Record<string, unknown>> {
  const uids = visibleIndexes(ctx, caller);
  let description = prompts.searchDescription;
  let filterDescription = prompts.searchFilterParam;
  const slices = new TimeSlices();
  for (const uid of uids) {
    await slices.pause();
    description += `\n\n - ${uid}: ${chatSettingsOf(ctx, uid).description}\n\n`;
    filterDescription += `\n## Facet distributions of the ${uid} index\n${await facetLines(ctx, caller, uid)}\n`;
  }
  return {
    type: 'function',
    function: {
      name: SEARCH_TOOL,
      description,
      parameters: {
        type: 'object',
        properties: {
          index_uid: { type: 'string', enum: uids, description: prompts.searchIndexUidParam },
          q: { type: 'string', description: prompts.searchQParam },
          filter: { type: 'string', description: filterDescription },
        },
        required: ['index_uid', 'q', 'filter'],
        additionalProperties: false,
      },
      strict: true,
    },
  };
}

/**
 * What one call answered: the text the LLM reads; the documents shown to the client (null: no
 * sources are reported); the error event to emit, if any; and whether a search ran to its end,
 * cut short by its time budget or not (null: none did), for `/metrics`.
 */
export interface SearchToolOutcome {
  readonly text: string;
  readonly sources: Record<string, unknown>[] | null;
  readonly error: ChatError | null;
  readonly searched: { readonly degraded: boolean } | null;
}

/** v1.50's `SearchInIndexParameters`, which serde_json reads the LLM's arguments into. */
const SEARCH_ARGUMENTS = struct('SearchInIndexParameters', [
  { name: 'index_uid', read: string() },
  { name: 'q', read: option(string()), optional: true },
  { name: 'filter', read: option(string()), optional: true },
]);

/** The search arguments the LLM sent, or serde_json's words for why they do not read as such (the text it then reads). */
function parseArguments(text: string): { index_uid: string; q: string | null; filter: string | null } | string {
  try {
    const args = fromSlice(Buffer.from(text, 'utf8'), SEARCH_ARGUMENTS) as { index_uid: string; q?: string; filter?: string };
    return { index_uid: args.index_uid, q: args.q ?? null, filter: args.filter ?? null };
  } catch (err) {
    if (err instanceof SerdeError) return err.message;
    throw err;
  }
}

/** The query `chat.searchParameters` and the LLM's `q` and `filter` make (an empty string is none). */
function chatQuery(parameters: Record<string, unknown>, q: string | null, filter: string | null): SearchQuery & { limit: number } {
  const query: SearchQuery & { limit: number } = { limit: (parameters.limit as number | undefined) ?? 20, matchingStrategy: (parameters.matchingStrategy as MatchingStrategy | undefined) ?? 'last' };
  if (parameters.hybrid !== undefined) query.hybrid = parameters.hybrid as SearchQuery['hybrid'];
  if (parameters.sort !== undefined) query.sort = parameters.sort as string[];
  if (parameters.distinct !== undefined) query.distinct = parameters.distinct as string;
  if (parameters.attributesToSearchOn !== undefined) query.attributesToSearchOn = parameters.attributesToSearchOn as string[];
  if (parameters.rankingScoreThreshold !== undefined) query.rankingScoreThreshold = parameters.rankingScoreThreshold as number;
  if (q !== null && q !== '') query.q = q;
  if (filter !== null && filter !== '') query.filter = filter;
  return query;
}

const failed = (err: ApiError): SearchToolOutcome => ({
  text: `the search tool call failed with ${err.message}`,
  sources: null,
  error: { type: 'response_error', code: String(err.status), message: err.message, param: null },
  searched: null,
});

/**
 * Time for rendering one search's hits with the chat template, in ms, and for one hit (Quarry's
 * bounds: v1.50 renders on a blocking thread without either). Renders run on the thread answering
 * requests, which gets a turn between hits: a template looping a million times over 20 hits held
 * it 5.8 s (audit).
 */
const SEARCH_RENDER_MS = 1_000;
const HIT_RENDER_MS = 250;

/**
 * Runs one call of the tool with the LLM's arguments (JSON text). `charsLeft` is what the
 * conversation may still add of results: a hit's render is cut there, and the hits past it are
 * not rendered.
 */
export async function runSearchTool(ctx: ChatSearchContext, caller: Caller, argumentsText: string, charsLeft: number): Promise<SearchToolOutcome> {
  const args = parseArguments(argumentsText);
  if (typeof args === 'string') return { text: args, sources: null, error: null, searched: null };
  let permit: { release(): void } | null = null;
  try {
    const { uid, primaryKey } = userRecord((name) => ctx.indexReader.get(name), args.index_uid);
    if (!caller.canPerform('search', uid)) throw new ApiError('invalid_api_key', 'The provided API key is invalid.');
    const chat = chatSettingsOf(ctx, uid);
    const query = chatQuery(chat.searchParameters, args.q, args.filter);
    permit = await ctx.searchQueue.permit();
    const search = await searchIndex(ctx, caller, uid, query, { offset: 0, limit: query.limit, exhaustive: false }, { filterErrorsNameIndex: true });
    const isSearchable = searchableMatcher(search.settings.searchableAttributes);
    const shown = hitFields(search.settings, null);
    // read before the first turn given away: the index's environment is borrowed for this turn only
    const docs = search.outcome.hits.map((hit) => search.env.documents.get(hit.docid) ?? {});
    permit.release();
    permit = null;
    const texts: string[] = [];
    const sources: Record<string, unknown>[] = [];
    const slices = new TimeSlices();
    const start = performance.now();
    let chars = 0;
    for (const doc of docs) {
      await slices.pause();
      if (chars >= charsLeft) break;
      // a stored document has its id: the render error names it, as v1.50's
      const docId = primaryKey === null ? undefined : documentId(doc, primaryKey);
      const renderMs = Math.max(1, Math.min(HIT_RENDER_MS, SEARCH_RENDER_MS - (performance.now() - start)));
      const rendered = renderDocument(chat.documentTemplate, templateContext(doc, isSearchable), docId, { renderMs, memory: charsLeft - chars });
      // liquidjs' memory bound counts what filters make, not what is output: cut at the bound
      const text = rendered.length > charsLeft - chars ? rendered.slice(0, charsLeft - chars) : rendered;
      texts.push(text);
      chars += text.length + 1;
      sources.push(shown(doc));
    }
    return { text: texts.join('\n'), sources, error: null, searched: { degraded: search.outcome.degraded } };
  } catch (err) {
    // the engine's refusal of the prepared search: its own words, and no documents
    if (err instanceof SearchRefusal) return { text: err.refusal.message, sources: [], error: null, searched: null };
    if (err instanceof ApiError) return failed(err);
    throw err;
  } finally {
    permit?.release();
  }
}

/** A hit rendered with the index's chat template (not cut: v1.50 does not apply `documentTemplateMaxBytes` here). */
function renderDocument(template: string, context: Record<string, unknown>, docId: string | undefined, limits: RenderLimits): string {
  try {
    return renderTemplateText(template, context, docId, limits);
  } catch (err) {
    if (err instanceof ApiError) throw new ApiError('invalid_chat_setting_document_template', err.message);
    throw err;
  }
}

/** The `chat` setting of index `uid`. */
function chatSettingsOf(ctx: ChatSearchContext, uid: string): IndexSettings['chat'] {
  return searchSettings(ctx.indexReader.open(uid)).chat;
}
