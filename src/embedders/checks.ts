/**
 * The embedder checks a settings change runs without any I/O (src/settings calls them): the REST
 * request/response templates (milli's `RequestData::new` + `Response::new`, in the fragment mode
 * the settings imply) and the Ollama URL suffix. They answer milli's message, fault words included.
 */
import type { EmbedderSettings } from '../types/settings.js';
import { EmbedError } from './embed-error.js';
import { FRAGMENT_PLACEHOLDER, TEXT_PLACEHOLDER, TemplateParseError, parseInjectable } from './json-template.js';
import { parseRequestTemplate, parseResponseTemplate, parseRestTemplates } from './rest.js';
import { ollamaRestShape } from './sources.js';

const FRAGMENT_NOTE = `\n  - Note: this template is using fragments, and so expects to contain the placeholder "${FRAGMENT_PLACEHOLDER}" rathern than "${TEXT_PLACEHOLDER}"`;

function fragmentRequestProblem(request: unknown, response: unknown): string | undefined {
  try {
    const parsed = parseInjectable(request, 'request', FRAGMENT_PLACEHOLDER);
    if (response !== undefined) parseResponseTemplate(response, parsed);
    return undefined;
  } catch (error) {
    if (error instanceof TemplateParseError) return new EmbedError('user', error.message + FRAGMENT_NOTE).message;
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
 * Why a REST `request` (and `response`, when given) cannot be used, or undefined. `either`: a
 * partial update that does not say whether fragments are used; the request may then hold
 * `{{fragment}}` or `{{text}}`, and the `{{text}}` reading's error is reported.
 */
export function restTemplatesProblem(request: unknown, response: unknown, mode: 'text' | 'fragment' | 'either'): string | undefined {
  if (mode === 'fragment') return fragmentRequestProblem(request, response);
  if (mode === 'either' && fragmentRequestProblem(request, response) === undefined) return undefined;
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
