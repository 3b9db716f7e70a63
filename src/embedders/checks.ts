/**
 * The embedder checks a settings change runs without any I/O (src/settings calls them): the REST
 * request/response templates (milli's `RequestData::new` + `Response::new`, in the fragment mode
 * the settings imply, fragment templates included) and the Ollama URL suffix. They answer milli's message, fault words included.
 */
import type { EmbedderSettings } from '../types/settings.js';
import { EmbedError } from './embed-error.js';
import { fragmentParseError } from '../engine/vectors/fragment-template.js';
import { parseFragmentRequestTemplate, parseRequestTemplate, parseResponseTemplate, parseRestTemplates } from './rest.js';
import { ollamaRestShape } from './sources.js';

/** The fragments a request is checked with: each side's set entries, in name order. */
export interface FragmentTemplates {
  readonly indexing: readonly [string, unknown][];
  readonly search: readonly [string, unknown][];
}

const fragmentProblem = (side: string, [name, value]: readonly [string, unknown]): string | undefined =>
  fragmentParseError(value)?.parsingError(`.${side}.${name}`);

/** milli's `RequestData::new` with fragments: the indexing fragments, the request, the search fragments, then the response. */
function fragmentRequestProblem(request: unknown, response: unknown, fragments: FragmentTemplates): string | undefined {
  try {
    for (const fragment of fragments.indexing) {
      const problem = fragmentProblem('indexingFragments', fragment);
      if (problem !== undefined) throw new EmbedError('user', problem);
    }
    const parsed = parseFragmentRequestTemplate(request);
    for (const fragment of fragments.search) {
      const problem = fragmentProblem('searchFragments', fragment);
      if (problem !== undefined) throw new EmbedError('user', problem);
    }
    if (response !== undefined) parseResponseTemplate(response, parsed);
    return undefined;
  } catch (error) {
    if (error instanceof EmbedError) return error.message;
    throw error;
  }
}

function textRequestProblem(request: unknown, response: unknown): string | undefined {
  try {
    // Without a response the request is checked alone, as milli does.
    if (response === undefined) parseRequestTemplate(request);
    else parseRestTemplates(request, response);
    return undefined;
  } catch (error) {
    if (error instanceof EmbedError) return error.message;
    throw error;
  }
}

/**
 * Why a REST `request` (and `response`, when given) cannot be used, or undefined: with
 * `fragments`, the fragment templates and a request holding `{{fragment}}`; `text`, a request
 * holding `{{text}}`; `either`, a partial update that does not say whether fragments are used:
 * the request may then hold `{{fragment}}` or `{{text}}`, and the `{{text}}` reading's error is
 * reported (milli's `WithFragments::Maybe`).
 */
export function restTemplatesProblem(request: unknown, response: unknown, mode: FragmentTemplates | 'text' | 'either'): string | undefined {
  if (mode !== 'text' && mode !== 'either') return fragmentRequestProblem(request, response, mode);
  if (mode === 'either' && fragmentRequestProblem(request, response, { indexing: [], search: [] }) === undefined) return undefined;
  return textRequestProblem(request, response);
}

/** v1.50's refusal of an `ollama` embedder whose URL ends neither in `/api/embed` nor `/api/embeddings`. */
export function unsupportedOllamaUrl(settings: EmbedderSettings, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (settings.source !== 'ollama') return undefined;
  try {
    ollamaRestShape(settings, env.MEILI_OLLAMA_URL);
    return undefined;
  } catch (error) {
    if (error instanceof EmbedError) return error.message;
    throw error;
  }
}
