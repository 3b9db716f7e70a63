/**
 * `POST /render-template` (misc-routes.md §11, Meilisearch's routes/render.rs; feature
 * `renderRoute`): a document template or an embedder fragment — fetched from an index's settings
 * or given inline — rendered against a stored or inline document, or against a search query.
 * A preview: nothing is stored, the template is never cut to `documentTemplateMaxBytes` (as in
 * v1.50). Checks run in v1.50's order: the feature, the key's indexes, fetching the template,
 * fetching the input, rendering; each stage's errors carry its prefix.
 */
import { DocumentStore } from '../engine/documents/store.js';
import type { IndexEnv } from '../engine/index-env.js';
import { readSettings } from '../engine/index-settings.js';
import { FragmentTemplateError, documentFragmentContext, fragmentParseError, renderFragment, searchFragmentContext } from '../engine/vectors/fragment-template.js';
import { LiquidError, renderLiquid, templateContext, templateParseProblem } from '../engine/vectors/template.js';
import { searchableMatcher } from '../engine/words/extract.js';
import { invalidApiKey } from '../auth/auth-errors.js';
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import type { FeatureName } from '../types/features.js';
import { fragmentsOf, hasFragments, type FragmentSide } from '../types/fragments.js';
import { ownValue } from '../types/own-record.js';
import { DEFAULT_DOCUMENT_TEMPLATE, type EmbedderSettings, type IndexSettings } from '../types/settings.js';
import type { JsonObject } from '../types/task.js';

export type TemplateKind = 'documentTemplate' | 'chatDocumentTemplate' | 'indexingFragment' | 'searchFragment' | 'inlineDocumentTemplate' | 'inlineFragment';
export type InputKind = 'indexDocument' | 'inlineDocument' | 'inlineSearch';

export interface RenderTemplateQuery {
  template: {
    kind: TemplateKind;
    indexUid?: string | null;
    embedder?: string | null;
    fragment?: string | null;
    inline?: unknown;
    documentTemplateMaxBytes?: number | null;
  };
  input?: { kind: InputKind; indexUid?: string | null; id?: string | null; inline?: unknown } | null;
}

export interface RenderTemplateResult {
  template: unknown;
  rendered: unknown;
}

/** What the service needs from its host: index reads, the experimental flags, the key's indexes. */
export interface RenderDeps {
  /** the environment of an existing index, else throws `index_not_found` (IndexReader.open) */
  open(uid: string): IndexEnv;
  require(name: FeatureName, action: string, featureWords: string, link: string): void;
  /** whether the caller's key covers index `uid` */
  canSeeIndex(uid: string): boolean;
}

const MULTIMODAL_LINK = 'https://github.com/orgs/meilisearch/discussions/846';

/** Sentinel for `Option::is_some()` on the query: present and not null. */
const given = (value: unknown): boolean => value !== undefined && value !== null;

type Stage = 'template' | 'input' | 'render';
const STAGE_PREFIX: Readonly<Record<Stage, string>> = {
  template: 'error while fetching template: ',
  input: 'error while fetching input: ',
  render: 'error while rendering template: ',
};

const fail = (stage: Stage, code: ErrorCode, message: string) => new ApiError(code, STAGE_PREFIX[stage] + message);
const stageCode = (stage: Stage): ErrorCode => (stage === 'template' ? 'invalid_render_template' : 'invalid_render_input');

function refuse(stage: Stage, kind: string, param: string): ApiError {
  return fail(stage, stageCode(stage), `parameter \`${param}\` disallowed for kind \`${kind}\``);
}

function missing(stage: Stage, kind: string, param: string): ApiError {
  return fail(stage, stageCode(stage), `parameter \`${param}\` missing for kind \`${kind}\``);
}

/** Feature failures keep their own code and message behind the stage prefix. */
function requireIn(stage: Stage, deps: RenderDeps, action: string): void {
  try {
    deps.require('multimodal', action, 'multimodal', MULTIMODAL_LINK);
  } catch (error) {
    if (error instanceof ApiError) throw fail(stage, error.code, error.message);
    throw error;
  }
}

interface Fetched {
  /** a Liquid text, or a JSON fragment */
  template: { liquid: string } | { fragment: unknown };
  index?: { uid: string; env: IndexEnv; settings: IndexSettings };
}

function openIndex(deps: RenderDeps, uid: string, stage: Stage): { uid: string; env: IndexEnv; settings: IndexSettings } {
  try {
    const env = deps.open(uid);
    return { uid, env, settings: readSettings(env) };
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'index_not_found') throw error;
    // The template side says "cannot open index", the input side "Cannot open index", as v1.50.
    if (stage === 'template') throw fail('template', 'index_not_found', `cannot open index \`${uid}\`: ${error.message}`);
    throw new ApiError('index_not_found', `Cannot open index \`${uid}\`: ${error.message}`);
  }
}

function embedderOf(index: { uid: string; settings: IndexSettings }, name: string, missingMessage: string): EmbedderSettings {
  const embedder = ownValue(index.settings.embedders, name);
  if (embedder === undefined) throw fail('template', 'invalid_render_template', missingMessage);
  return embedder;
}

function fragmentOf(embedder: EmbedderSettings, side: FragmentSide, name: string): unknown {
  const found = fragmentsOf(embedder, side).find(([fragment]) => fragment === name);
  return found === undefined ? undefined : found[1];
}

function fetchTemplate(query: RenderTemplateQuery['template'], deps: RenderDeps): Fetched {
  const { kind } = query;
  const need = (param: 'index_uid' | 'embedder' | 'fragment' | 'inline', value: unknown): void => {
    if (!given(value)) throw missing('template', kind, param);
  };
  const forbid = (param: string, value: unknown): void => {
    if (given(value)) throw refuse('template', kind, param);
  };
  switch (kind) {
    case 'documentTemplate': {
      forbid('fragment', query.fragment);
      forbid('inline', query.inline);
      need('index_uid', query.indexUid);
      need('embedder', query.embedder);
      const index = openIndex(deps, query.indexUid!, 'template');
      const name = query.embedder!;
      const embedder = embedderOf(index, name, `cannot find embedder \`${name}\` in index \`${index.uid}\``);
      const templated = embedder.source === 'composite' ? (embedder.indexingEmbedder as EmbedderSettings) : embedder;
      if (['userProvided', 'composite'].includes((templated.source as string | undefined) ?? 'openAi') || hasFragments(embedder)) {
        throw fail('template', 'invalid_render_template', `embedder \`${name}\` in index \`${index.uid}\` does not use a document template.`);
      }
      return { template: { liquid: (templated.documentTemplate as string | undefined) ?? DEFAULT_DOCUMENT_TEMPLATE }, index };
    }
    case 'chatDocumentTemplate': {
      try {
        deps.require('chatCompletions', 'accessing chat settings', 'chat completions', 'https://github.com/orgs/meilisearch/discussions/835');
      } catch (error) {
        if (error instanceof ApiError) throw fail('template', error.code, error.message);
        throw error;
      }
      need('index_uid', query.indexUid);
      forbid('embedder', query.embedder);
      forbid('fragment', query.fragment);
      forbid('inline', query.inline);
      const index = openIndex(deps, query.indexUid!, 'template');
      return { template: { liquid: index.settings.chat.documentTemplate }, index };
    }
    case 'indexingFragment':
    case 'searchFragment': {
      requireIn('template', deps, 'accessing fragments');
      need('index_uid', query.indexUid);
      need('embedder', query.embedder);
      need('fragment', query.fragment);
      forbid('inline', query.inline);
      forbid('document_template_max_bytes', query.documentTemplateMaxBytes);
      const index = openIndex(deps, query.indexUid!, 'template');
      const [name, fragmentName] = [query.embedder!, query.fragment!];
      const side = kind === 'indexingFragment' ? 'indexing' : 'search';
      const notFound = (which: string) => `cannot find ${which} fragment \`${fragmentName}\` for embedder \`${name}\` in index \`${index.uid}\``;
      // sic: v1.50 reports an unknown embedder of a search fragment as a missing indexing fragment
      const embedder = embedderOf(index, name, side === 'indexing' ? `cannot find embedder \`${name}\` in index \`${index.uid}\`` : notFound('indexing'));
      if (!hasFragments(embedder)) throw fail('template', 'invalid_render_template', `embedder \`${name}\` in index \`${index.uid}\` does not use fragments.`);
      const fragment = fragmentOf(embedder, side === 'indexing' ? 'indexingFragments' : 'searchFragments', fragmentName);
      if (fragment === undefined) throw fail('template', 'invalid_render_template', notFound(side));
      return { template: { fragment }, index };
    }
    case 'inlineDocumentTemplate': {
      forbid('index_uid', query.indexUid);
      forbid('embedder', query.embedder);
      forbid('fragment', query.fragment);
      need('inline', query.inline);
      if (typeof query.inline !== 'string') throw fail('template', 'invalid_render_template', 'inline document templates must be strings');
      const problem = templateParseProblem(query.inline);
      if (problem !== undefined) throw fail('template', 'template_parsing_error', problem);
      return { template: { liquid: query.inline } };
    }
    case 'inlineFragment': {
      requireIn('template', deps, 'rendering an inline fragment');
      forbid('index_uid', query.indexUid);
      forbid('embedder', query.embedder);
      forbid('fragment', query.fragment);
      need('inline', query.inline);
      forbid('document_template_max_bytes', query.documentTemplateMaxBytes);
      const problem = fragmentParseError(query.inline);
      if (problem !== undefined) throw fail('template', 'template_parsing_error', problem.parsingError(''));
      return { template: { fragment: query.inline } };
    }
  }
}

type Renderable = { document: JsonObject; isSearchable: (field: string) => boolean } | { search: { q?: string; media?: unknown } };

/** serde's words for a value that is not a map, with the position after it in its JSON text. */
function notAMap(value: unknown): string {
  const text = JSON.stringify(value);
  const kind =
    typeof value === 'string'
      ? `string ${text}`
      : typeof value === 'boolean'
        ? `boolean \`${text}\``
        : typeof value === 'number'
          ? `${Number.isInteger(value) ? 'integer' : 'floating point'} \`${text}\``
          : Array.isArray(value)
            ? 'sequence'
            : 'null';
  return `invalid type: ${kind}, expected a map at line 1 column ${text.length}`;
}

const isMap = (value: unknown): value is JsonObject => value !== null && typeof value === 'object' && !Array.isArray(value);

function fetchInput(input: NonNullable<RenderTemplateQuery['input']>, fetched: Fetched, deps: RenderDeps): Renderable {
  const { kind } = input;
  // The input's index is opened before its parameters are looked at, as in v1.50.
  const index =
    given(input.indexUid) ? (fetched.index?.uid === input.indexUid ? fetched.index : openIndex(deps, input.indexUid!, 'input')) : undefined;
  const forbid = (param: string, value: unknown): void => {
    if (given(value)) throw refuse('input', kind, param);
  };
  const need = (param: string, value: unknown): void => {
    if (!given(value)) throw missing('input', kind, param);
  };
  switch (kind) {
    case 'indexDocument': {
      need('indexUid', input.indexUid);
      need('id', input.id);
      forbid('inline', input.inline);
      const document = new DocumentStore(index!.env).get(input.id!);
      if (document === undefined) throw fail('input', 'render_document_not_found', `document \`${input.id}\` not found in \`${index!.uid}\``);
      return { document, isSearchable: searchableMatcher(index!.settings.searchableAttributes) };
    }
    case 'inlineDocument': {
      forbid('index_uid', input.indexUid);
      forbid('id', input.id);
      need('inline', input.inline);
      if (!isMap(input.inline)) throw fail('input', 'invalid_render_input', `parsing inline document: ${notAMap(input.inline)}\n  - Note: the inline document must be a JSON map`);
      return { document: input.inline, isSearchable: () => true };
    }
    case 'inlineSearch': {
      requireIn('input', deps, 'rendering search');
      forbid('index_uid', input.indexUid);
      forbid('id', input.id);
      need('inline', input.inline);
      if (!isMap(input.inline)) {
        throw fail(
          'input',
          'invalid_render_input',
          `parsing inline search: ${notAMap(input.inline)}\n  - Note: the inline search query must be a JSON map containing \`q\` and/or \`media\``,
        );
      }
      const { q, media } = input.inline;
      if (q !== undefined && typeof q !== 'string') throw fail('input', 'invalid_render_input', '`q` is not a string');
      return { search: { ...(q === undefined ? {} : { q }), ...(media === undefined ? {} : { media }) } };
    }
  }
}

/** A fragment rendered, its failure framed as the route's rendering error. */
function renderedFragment(fragment: unknown, context: Record<string, unknown>): unknown {
  try {
    return renderFragment(fragment, context);
  } catch (error) {
    if (error instanceof FragmentTemplateError) throw fail('render', 'template_rendering_error', error.renderingError(''));
    throw error;
  }
}

function render(fetched: Fetched, input: Renderable): unknown {
  if ('search' in input) {
    if ('liquid' in fetched.template) throw fail('render', 'template_rendering_error', 'cannot render a document template with a search query');
    return renderedFragment(fetched.template.fragment, searchFragmentContext(input.search.q, input.search.media));
  }
  if ('fragment' in fetched.template) return renderedFragment(fetched.template.fragment, documentFragmentContext(input.document));
  const context = templateContext(input.document, input.isSearchable);
  try {
    return renderLiquid(fetched.template.liquid, context);
  } catch (error) {
    if (!(error instanceof LiquidError)) throw error;
    throw fail('render', 'template_rendering_error', `user error: missing field in document: ${error.message}`);
  }
}

/** Renders the query's template against its input (`rendered: null` without an input). */
export function renderTemplate(query: RenderTemplateQuery, deps: RenderDeps): RenderTemplateResult {
  deps.require('renderRoute', 'calling the /render-template route', 'render_route', 'https://github.com/orgs/meilisearch/discussions/888');
  for (const uid of [query.template.indexUid, query.input?.indexUid]) {
    if (typeof uid === 'string' && !deps.canSeeIndex(uid)) throw invalidApiKey();
  }
  const fetched = fetchTemplate(query.template, deps);
  const rendered = query.input === undefined || query.input === null ? null : render(fetched, fetchInput(query.input, fetched, deps));
  return { template: 'liquid' in fetched.template ? fetched.template.liquid : fetched.template.fragment, rendered };
}
