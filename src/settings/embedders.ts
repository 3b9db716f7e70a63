/**
 * Embedder settings (vectors.md §3): which fields each source accepts or requires, the checks run
 * when a request is received and again on the merged result in the task, the per-field merge,
 * and the GET form with the per-source defaults. Vector search itself is not implemented; these
 * rules keep the settings round-trip and Meilisearch's errors. Pure.
 */
import {
  DEFAULT_DOCUMENT_TEMPLATE,
  DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES,
  type EmbedderSettings,
} from '../types/settings.js';
import { EMBEDDER_FIELDS, EMBEDDER_SOURCES } from './schemas.js';
import type { EmbedderPatch } from './patch.js';

type Source = (typeof EMBEDDER_SOURCES)[number];

const ALL: readonly Source[] = EMBEDDER_SOURCES;
const TEMPLATED: readonly Source[] = ['openAi', 'huggingFace', 'ollama', 'rest'];

/** Sources accepting each field, in the order Meilisearch lists a source's available fields. */
const AVAILABILITY: readonly (readonly [string, readonly Source[]])[] = [
  ['source', ALL],
  ['model', ['openAi', 'huggingFace', 'ollama']],
  ['revision', ['huggingFace']],
  ['pooling', ['huggingFace']],
  ['apiKey', ['openAi', 'ollama', 'rest']],
  ['dimensions', ['openAi', 'ollama', 'userProvided', 'rest']],
  ['documentTemplate', TEMPLATED],
  ['documentTemplateMaxBytes', TEMPLATED],
  ['url', ['openAi', 'ollama', 'rest']],
  ['indexingFragments', ['rest']],
  ['searchFragments', ['rest']],
  ['request', ['rest']],
  ['response', ['rest']],
  ['headers', ['rest']],
  ['searchEmbedder', ['composite']],
  ['indexingEmbedder', ['composite']],
  ['distribution', ALL],
  ['binaryQuantized', ALL],
];

const MANDATORY: Readonly<Record<Source, readonly string[]>> = {
  openAi: [],
  huggingFace: [],
  ollama: ['model'],
  userProvided: ['dimensions'],
  rest: ['url', 'request', 'response'],
  composite: ['searchEmbedder', 'indexingEmbedder'],
};

const OPENAI_MODELS: Readonly<Record<string, { dimensions: number; overridable: boolean }>> = {
  'text-embedding-ada-002': { dimensions: 1536, overridable: false },
  'text-embedding-3-small': { dimensions: 1536, overridable: true },
  'text-embedding-3-large': { dimensions: 3072, overridable: true },
};
const DEFAULT_OPENAI_MODEL = 'text-embedding-3-small';
const DEFAULT_HUGGING_FACE_MODEL = 'BAAI/bge-base-en-v1.5';
const DEFAULT_HUGGING_FACE_REVISION = '617ca489d9e86b49b8167676d8220688b99db36e';

const list = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');

function availableFor(source: Source): string[] {
  return AVAILABILITY.filter(([, sources]) => sources.includes(source)).map(([field]) => field);
}

/** Why the fields present in `embedder` do not fit `source`, or undefined. */
function availabilityProblem(name: string, embedder: EmbedderPatch, source: Source): string | undefined {
  for (const [field, sources] of AVAILABILITY) {
    if (embedder[field] === undefined || embedder[field] === null || sources.includes(source)) continue;
    return (
      `\`.embedders.${name}\`: Field \`${field}\` unavailable for source \`${source}\`.\n` +
      `  - note: \`${field}\` is available for sources: ${list(sources)}\n` +
      `  - note: available fields for source \`${source}\`: ${list(availableFor(source))}`
    );
  }
  return undefined;
}

function openAiProblem(name: string, embedder: EmbedderPatch): string | undefined {
  const model = (embedder.model as string | undefined) ?? DEFAULT_OPENAI_MODEL;
  const known = OPENAI_MODELS[model];
  if (known === undefined) {
    const supported = Object.keys(OPENAI_MODELS).map((m) => JSON.stringify(m)).join(', ');
    return `\`.embedders.${name}.model\`: Invalid model \`${model}\` for OpenAI. Supported models: [${supported}]`;
  }
  const dimensions = embedder.dimensions;
  if (typeof dimensions !== 'number' || dimensions === known.dimensions) return undefined;
  if (!known.overridable) {
    return `\`.embedders.${name}.dimensions\`: Model \`${model}\` does not support overriding its native dimensions of ${known.dimensions}. Found ${dimensions}`;
  }
  if (dimensions > known.dimensions) {
    return `\`.embedders.${name}.dimensions\`: Model \`${model}\` does not support overriding its dimensions to a value higher than ${known.dimensions}. Found ${dimensions}`;
  }
  return undefined;
}

/** The url crate's reason for rejecting a URL, for the common cases. */
function urlProblem(url: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(url)) return 'relative URL without a base';
  try {
    new URL(url);
    return undefined;
  } catch {
    return /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[/?#]?$/.test(url) ? 'empty host' : 'invalid domain character';
  }
}

/**
 * The request-time checks of one submitted embedder (vectors.md §3.2 "validation order"): zero
 * sizes, URL syntax, then — when the request names the source — field availability and OpenAI's
 * model rules. Returns Meilisearch's message or undefined.
 */
export function embedderRequestProblem(name: string, embedder: EmbedderPatch): string | undefined {
  for (const field of ['dimensions', 'documentTemplateMaxBytes']) {
    if (embedder[field] === 0) return `\`.embedders.${name}.${field}\`: \`${field}\` cannot be zero`;
  }
  if (typeof embedder.url === 'string') {
    const problem = urlProblem(embedder.url);
    if (problem !== undefined) return `\`.embedders.${name}.url\`: could not parse \`${embedder.url}\`: ${problem}`;
  }
  const source = embedder.source as Source | null | undefined;
  if (source === undefined || source === null) return undefined;
  return availabilityProblem(name, embedder, source) ?? (source === 'openAi' ? openAiProblem(name, embedder) : undefined);
}

/** The stored embedder after a patch: per-field merge, a new source starting afresh. */
export function mergeEmbedder(stored: EmbedderSettings | undefined, patch: EmbedderPatch): EmbedderSettings {
  const sourceChanged = patch.source !== undefined && (patch.source ?? 'openAi') !== (stored?.source ?? 'openAi');
  const merged: Record<string, unknown> = { ...(sourceChanged ? {} : stored) };
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else merged[field] = value;
  }
  const ordered: EmbedderSettings = {};
  for (const field of EMBEDDER_FIELDS) if (merged[field] !== undefined) ordered[field] = merged[field];
  return ordered;
}

/** The task-time checks of a merged embedder; `before` is the stored one, if any. */
export function embedderProblem(name: string, embedder: EmbedderSettings, before: EmbedderSettings | undefined): string | undefined {
  const source = (embedder.source as Source | undefined) ?? 'openAi';
  const unavailable = availabilityProblem(name, embedder, source);
  if (unavailable !== undefined) return unavailable;
  const missing = MANDATORY[source].find((field) => embedder[field] === undefined);
  if (missing !== undefined) {
    return `\`.embedders.${name}\`: Missing field \`${missing}\` (note: this field is mandatory for source \`${source}\`)`;
  }
  if (source === 'openAi') {
    const problem = openAiProblem(name, embedder);
    if (problem !== undefined) return problem;
  }
  if (before?.binaryQuantized === true && embedder.binaryQuantized !== true) {
    return (
      `\`.embedders.${name}.binaryQuantized\`: Cannot disable the binary quantization.\n` +
      ' - Note: Binary quantization is a lossy operation that cannot be reverted.\n' +
      ' - Hint: Add a new embedder that is non-quantized and regenerate the vectors.'
    );
  }
  return undefined;
}

/**
 * The GET form of a stored embedder: the fields of its source with defaults filled in, optional
 * ones only when set, `apiKey` passed through `mask`.
 */
export function embedderView(embedder: EmbedderSettings, mask: (secret: string) => string): Record<string, unknown> {
  const source = (embedder.source as Source | undefined) ?? 'openAi';
  const filled: Record<string, unknown> = { ...embedder, source };
  if (TEMPLATED.includes(source)) {
    filled.documentTemplate ??= DEFAULT_DOCUMENT_TEMPLATE;
    filled.documentTemplateMaxBytes ??= DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES;
  }
  if (source === 'openAi') filled.model ??= DEFAULT_OPENAI_MODEL;
  if (source === 'huggingFace') {
    // The default revision belongs to the default model only.
    if (embedder.model === undefined) filled.revision ??= DEFAULT_HUGGING_FACE_REVISION;
    filled.model ??= DEFAULT_HUGGING_FACE_MODEL;
    filled.pooling ??= 'useModel';
  }
  if (source === 'rest') filled.headers ??= {};
  if (typeof filled.apiKey === 'string') filled.apiKey = mask(filled.apiKey);
  const allowed = new Set(availableFor(source));
  const view: Record<string, unknown> = {};
  for (const field of EMBEDDER_FIELDS) if (allowed.has(field) && filled[field] !== undefined) view[field] = filled[field];
  return view;
}
