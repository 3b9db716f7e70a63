/**
 * Embedder settings (vectors.md §3): which fields each source accepts or requires (per nesting in
 * a composite), the checks milli's `validate_embedding_settings` runs when a request is received
 * and again on the merged result in the task (Liquid templates, REST templates, URLs, OpenAI
 * models, distribution ranges), the per-field merge, and the GET form with the per-source
 * defaults. No I/O: what needs the embedder itself (dimension probes) happens before the write.
 */
import { urlProblem } from '../types/url-problem.js';
import {
  DEFAULT_DOCUMENT_TEMPLATE,
  DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES,
  MAX_EMBEDDING_DIMENSIONS,
  type EmbedderSettings,
} from '../types/settings.js';
import { restTemplatesProblem, unsupportedOllamaUrl, type FragmentTemplates } from '../embedders/checks.js';
import { compareBytes } from '../types/bytes.js';
import { fragmentEntries, hasFragments } from '../types/fragments.js';
import {
  DEFAULT_HUGGING_FACE_MODEL,
  DEFAULT_HUGGING_FACE_REVISION,
  DEFAULT_OPENAI_MODEL,
  OPENAI_MODELS,
} from '../embedders/source-defaults.js';
import { templateParseProblem } from '../engine/vectors/template.js';
import { EMBEDDER_FIELDS, EMBEDDER_SOURCES } from './schemas.js';
import type { EmbedderPatch } from './patch.js';
import { withFloatMembers } from '../types/wire-floats.js';

type Source = (typeof EMBEDDER_SOURCES)[number];

/** Where an embedder sits: at the top, or as a composite's search or indexing embedder. */
type Nesting = 'top' | 'search' | 'indexing';
type Status = 'allowed' | 'mandatory' | 'disallowed';

const TEMPLATED: readonly Source[] = ['openAi', 'huggingFace', 'ollama', 'rest'];

/** milli's `MetaEmbeddingSetting` order: lists of available fields follow it. */
const FIELDS = [
  'source', 'model', 'revision', 'pooling', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'url',
  'indexingFragments', 'searchFragments', 'request', 'response', 'headers', 'searchEmbedder', 'indexingEmbedder',
  'distribution', 'binaryQuantized',
] as const;
type Field = (typeof FIELDS)[number];

/** The order `check_settings` visits fields in (the first problem wins). */
const CHECK_ORDER: readonly Field[] = [
  'model', 'revision', 'pooling', 'dimensions', 'apiKey', 'url', 'indexingFragments', 'searchFragments', 'request',
  'response', 'documentTemplate', 'documentTemplateMaxBytes', 'headers', 'searchEmbedder', 'indexingEmbedder',
  'binaryQuantized', 'distribution',
];

const ALLOWED: Readonly<Record<Source, readonly Field[]>> = {
  openAi: ['source', 'model', 'apiKey', 'documentTemplate', 'documentTemplateMaxBytes', 'dimensions', 'url'],
  huggingFace: ['source', 'model', 'revision', 'pooling', 'documentTemplate', 'documentTemplateMaxBytes'],
  ollama: ['source', 'documentTemplate', 'documentTemplateMaxBytes', 'url', 'apiKey', 'dimensions'],
  userProvided: ['source'],
  rest: ['source', 'apiKey', 'dimensions', 'documentTemplate', 'documentTemplateMaxBytes', 'headers', 'indexingFragments', 'searchFragments'],
  composite: ['source'],
};

const MANDATORY: Readonly<Record<Source, readonly Field[]>> = {
  openAi: [],
  huggingFace: [],
  ollama: ['model'],
  userProvided: ['dimensions'],
  rest: ['url', 'request', 'response'],
  composite: ['searchEmbedder', 'indexingEmbedder'],
};

/** milli's `field_status`. */
function fieldStatus(source: Source, field: Field, nesting: Nesting): Status {
  if (field === 'distribution' || field === 'binaryQuantized') return nesting === 'top' ? 'allowed' : 'disallowed';
  if ((field === 'documentTemplate' || field === 'documentTemplateMaxBytes') && nesting === 'search') return 'disallowed';
  if (MANDATORY[source].includes(field)) return 'mandatory';
  if (source === 'rest' && field === 'indexingFragments' && nesting === 'search') return 'disallowed';
  if (source === 'rest' && field === 'searchFragments' && nesting === 'indexing') return 'disallowed';
  return ALLOWED[source].includes(field) ? 'allowed' : 'disallowed';
}


const list = (names: readonly string[]) => names.map((n) => `\`${n}\``).join(', ');
const inContext = (nesting: Nesting) => (nesting === 'top' ? '' : ` for the ${nesting} embedder`);
const nestedName = (name: string, nesting: Nesting) => (nesting === 'top' ? name : `${name}.${nesting}Embedder`);

function availableFor(source: Source, nesting: Nesting = 'top'): string[] {
  return FIELDS.filter((field) => fieldStatus(source, field, nesting) !== 'disallowed');
}

/** A problem with its code: most are `invalid_settings_embedders`, the REST template ones `vector_embedding_error`. */
export interface EmbedderProblem {
  code: 'invalid_settings_embedders' | 'vector_embedding_error';
  message: string;
}

const settingsProblem = (message: string): EmbedderProblem => ({ code: 'invalid_settings_embedders', message });

function unavailable(name: string, source: Source, field: Field, nesting: Nesting): string {
  const sources = EMBEDDER_SOURCES.filter((s) => fieldStatus(s, field, nesting) !== 'disallowed');
  const where = sources.length === 0 ? '' : `\n  - note: \`${field}\` is available for sources: ${list(sources)}`;
  const topLevel = nesting !== 'top' && fieldStatus(source, field, 'top') !== 'disallowed';
  return (
    `\`.embedders.${nestedName(name, nesting)}\`: Field \`${field}\` unavailable for source \`${source}\`${inContext(nesting)}.${where}` +
    `\n  - note: available fields for source \`${source}\`${inContext(nesting)}: ${list(availableFor(source, nesting))}` +
    (topLevel ? `\n  - note: \`${field}\` is available when source \`${source}\` is not${inContext(nesting)}` : '')
  );
}

/** milli's `check_settings`: every field visited in order, refused where unavailable (even as `null`), required where mandatory. */
function fieldsProblem(name: string, embedder: EmbedderPatch, source: Source, nesting: Nesting): string | undefined {
  for (const field of CHECK_ORDER) {
    const status = fieldStatus(source, field, nesting);
    const value = embedder[field];
    if (status === 'disallowed' && value !== undefined) return unavailable(name, source, field, nesting);
    if (status === 'mandatory' && (value === undefined || value === null)) {
      return `\`.embedders.${name}\`: Missing field \`${field}\` (note: this field is mandatory for source \`${source}\`)`;
    }
  }
  return undefined;
}

function openAiProblem(name: string, model: string, dimensions: unknown): string | undefined {
  const known = OPENAI_MODELS[model];
  if (known === undefined) {
    const supported = Object.keys(OPENAI_MODELS).map((m) => JSON.stringify(m)).join(', ');
    return `\`.embedders.${name}.model\`: Invalid model \`${model}\` for OpenAI. Supported models: [${supported}]`;
  }
  if (typeof dimensions !== 'number') return undefined;
  if (!known.overridable && dimensions !== known.dimensions) {
    return `\`.embedders.${name}.dimensions\`: Model \`${model}\` does not support overriding its native dimensions of ${known.dimensions}. Found ${dimensions}`;
  }
  if (dimensions > known.dimensions) {
    return `\`.embedders.${name}.dimensions\`: Model \`${model}\` does not support overriding its dimensions to a value higher than ${known.dimensions}. Found ${dimensions}`;
  }
  return undefined;
}

/** milli's `validate_prompt`: a zero byte limit next to a template, then the Liquid parse. */
function promptProblem(name: string, embedder: EmbedderPatch): string | undefined {
  if (typeof embedder.documentTemplate !== 'string') return undefined;
  if (embedder.documentTemplateMaxBytes === 0) {
    return `\`.embedders.${name}.documentTemplateMaxBytes\`: \`documentTemplateMaxBytes\` cannot be zero`;
  }
  const problem = templateParseProblem(embedder.documentTemplate);
  return problem === undefined ? undefined : `\`.embedders.${name}.documentTemplate\`: Invalid template: ${problem}.`;
}

/**
 * milli's `WithFragments` for one embedder: with complete settings, fragments on one side only
 * are inconsistent; in a request, fragments next to a `documentTemplate` are refused. Then the
 * REST templates are checked in the mode this implies.
 */
function fragmentsProblem(embedder: EmbedderPatch, complete: boolean): EmbedderProblem | undefined {
  const indexing = fragmentEntries(embedder.indexingFragments);
  const search = fragmentEntries(embedder.searchFragments);
  const embeddingProblem = (message: string): EmbedderProblem => ({ code: 'vector_embedding_error', message: `Error while generating embeddings: user error: ${message}` });
  if (complete && (indexing.length === 0) !== (search.length === 0)) {
    const names = (list: [string, unknown][]) => list.slice(0, 3).map(([name]) => name).join(', ') + (list.length > 3 ? ', ...' : '');
    return embeddingProblem(
      indexing.length === 0
        ? `inconsistent fragments: \`indexingFragments\` is empty, but \`searchFragments\` declares ${search.length} fragments: ${names(search)}\n  - Hint: declare at least one fragment in \`indexingFragments\` or remove fragments from \`searchFragments\` by setting them to \`null\``
        : // sic: one space less before the hint, as v1.50
          `inconsistent fragments: \`searchFragments\` is empty, but \`indexingFragments\` declares ${indexing.length} fragments: ${names(indexing)}\n - Hint: declare at least one fragment in \`searchFragments\` or remove fragments from \`indexingFragments\` by setting them to \`null\``,
    );
  }
  const declared = indexing.length > 0 || search.length > 0;
  if (declared && !complete && typeof embedder.documentTemplate === 'string') {
    return embeddingProblem(
      `cannot pass both fragments and a document template.\n  - Note: ${indexing.length} fragments declared in \`indexingFragments\` and ${search.length} fragments declared in \`search_fragments_len\`.\n  - Hint: remove the declared fragments or remove the \`documentTemplate\``,
    );
  }
  if (embedder.request === undefined || embedder.request === null) return undefined;
  const response = embedder.response === null ? undefined : embedder.response;
  let mode: FragmentTemplates | 'text' | 'either';
  if (declared) mode = { indexing, search };
  else if (complete || embedder.indexingFragments === null || embedder.searchFragments === null) mode = 'text';
  else mode = 'either';
  const problem = restTemplatesProblem(embedder.request, response, mode);
  return problem === undefined ? undefined : { code: 'vector_embedding_error', message: `Error while generating embeddings: ${problem}` };
}

/** A composite's sub-embedder (milli: the nested part of `validate_embedding_settings`). */
function nestedProblem(name: string, sub: unknown, nesting: 'search' | 'indexing'): string | undefined {
  if (sub === null || typeof sub !== 'object') return undefined;
  const embedder = sub as EmbedderPatch;
  if (nesting === 'indexing') {
    const prompt = promptProblem(name, embedder);
    if (prompt !== undefined) return prompt;
  }
  const source = embedder.source as Source | null | undefined;
  if (source === undefined || source === null) {
    return `\`.embedders.${nestedName(name, nesting)}\`: Missing field \`source\`.\n  - note: this field is mandatory for nested embedders`;
  }
  if (source === 'composite' || source === 'userProvided') {
    return `\`.embedders.${nestedName(name, nesting)}.source\`: Source \`${source}\` is not available in a nested embedder`;
  }
  return fieldsProblem(name, embedder, source, nesting);
}

/**
 * milli's `validate_embedding_settings` for one embedder: the template and its byte limit, zero
 * dimensions, the URL, the REST templates, then — when a source is known — the fields it allows
 * and requires, OpenAI's model rules and a composite's sub-embedders. `complete` for a stored
 * (merged) embedder, whose source defaults to `openAi`; a request is checked with what it gives.
 */
function validationProblem(name: string, embedder: EmbedderPatch, complete: boolean): EmbedderProblem | undefined {
  const prompt = promptProblem(name, embedder);
  if (prompt !== undefined) return settingsProblem(prompt);
  if (embedder.dimensions === 0) return settingsProblem(`\`.embedders.${name}.dimensions\`: \`dimensions\` cannot be zero`);
  if (typeof embedder.url === 'string') {
    const problem = urlProblem(embedder.url);
    if (problem !== undefined) return settingsProblem(`\`.embedders.${name}.url\`: could not parse \`${embedder.url}\`: ${problem}`);
  }
  const templates = fragmentsProblem(embedder, complete);
  if (templates !== undefined) return templates;
  const given = embedder.source as Source | null | undefined;
  const source = given ?? (complete ? 'openAi' : undefined);
  if (source === undefined) return undefined;
  const fields = fieldsProblem(name, embedder, source, 'top');
  if (fields !== undefined) return settingsProblem(fields);
  if (source === 'openAi') {
    const model = typeof embedder.model === 'string' ? embedder.model : complete ? DEFAULT_OPENAI_MODEL : undefined;
    const problem = model === undefined ? undefined : openAiProblem(name, model, embedder.dimensions);
    if (problem !== undefined) return settingsProblem(problem);
  }
  if (source === 'composite') {
    for (const nesting of ['search', 'indexing'] as const) {
      const problem = nestedProblem(name, embedder[`${nesting}Embedder`], nesting);
      if (problem !== undefined) return settingsProblem(problem);
    }
  }
  return undefined;
}

/** v1.50's checks, then Quarry's MAX_EMBEDDING_DIMENSIONS (v1.50's own refusals come first). */
function boundedProblem(name: string, embedder: EmbedderPatch, complete: boolean): EmbedderProblem | undefined {
  const problem = validationProblem(name, embedder, complete);
  if (problem !== undefined || typeof embedder.dimensions !== 'number' || embedder.dimensions <= MAX_EMBEDDING_DIMENSIONS) return problem;
  return settingsProblem(`\`.embedders.${name}.dimensions\`: Quarry stores vectors of at most ${MAX_EMBEDDING_DIMENSIONS} dimensions. Found ${embedder.dimensions}`);
}

/** The request-time checks of one submitted embedder (vectors.md §3.2 "validation order"). */
export function embedderRequestProblem(name: string, embedder: EmbedderPatch): EmbedderProblem | undefined {
  return boundedProblem(name, embedder, false);
}

/** A side's fragments after a patch: per fragment, `null` removing one (milli's merge of the two maps). */
function mergeFragments(stored: unknown, patch: unknown): Record<string, unknown> {
  const merged = new Map<string, unknown>(fragmentEntries(stored).map(([name, value]) => [name, { value }]));
  for (const [name, fragment] of Object.entries(patch as Record<string, unknown>)) {
    if (fragment === null) merged.delete(name);
    else merged.set(name, fragment);
  }
  return Object.fromEntries([...merged].sort(([a], [b]) => compareBytes(a, b)));
}

/**
 * What a change of source resets (milli's `apply_default_for_source`): the source's own fields;
 * the document template too when the new source has none. The API key, the distribution and the
 * binary quantization stay.
 */
const RESET_BY_SOURCE = ['model', 'revision', 'pooling', 'dimensions', 'url', 'indexingFragments', 'searchFragments', 'request', 'response', 'headers', 'searchEmbedder', 'indexingEmbedder'];
const UNTEMPLATED = ['userProvided', 'composite'];

/** The stored embedder after a patch: per-field merge (per fragment for fragments), a new source resetting its own fields first. */
export function mergeEmbedder(stored: EmbedderSettings | undefined, patch: EmbedderPatch): EmbedderSettings {
  // a reset source (null) differs from a stored `openAi`, as milli's `Setting::apply` compares them
  const sourceChanged = patch.source !== undefined && patch.source !== (stored?.source ?? null);
  const merged: Record<string, unknown> = { ...stored };
  if (sourceChanged) {
    for (const field of RESET_BY_SOURCE) delete merged[field];
    if (UNTEMPLATED.includes(patch.source as string)) {
      delete merged.documentTemplate;
      delete merged.documentTemplateMaxBytes;
    }
  }
  for (const [field, value] of Object.entries(patch)) {
    if (value === null) delete merged[field];
    else if (field === 'indexingFragments' || field === 'searchFragments') {
      const fragments = mergeFragments(merged[field], value);
      // no fragment left: as milli shows and uses an empty map, none
      if (Object.keys(fragments).length === 0) delete merged[field];
      else merged[field] = fragments;
    }
    else merged[field] = value;
  }
  // v1.50 builds a new embedder's prompt only from a template it was given, and reads a limit of 0
  // as none: the limit then is the default (milli `From<EmbeddingSettings> for EmbeddingConfig`)
  const created = stored === undefined || sourceChanged;
  if ((created && merged.source !== 'composite' && merged.documentTemplate === undefined) || merged.documentTemplateMaxBytes === 0) delete merged.documentTemplateMaxBytes;
  const ordered: EmbedderSettings = {};
  for (const field of EMBEDDER_FIELDS) if (merged[field] !== undefined) ordered[field] = merged[field];
  return ordered;
}

/**
 * The task-time checks of a merged embedder (`before` is the stored one, if any): the same
 * validation on the complete settings, the irreversible binary quantization, and an Ollama URL
 * v1.50 cannot build an embedder for.
 */
export function embedderProblem(name: string, embedder: EmbedderSettings, before: EmbedderSettings | undefined): EmbedderProblem | undefined {
  const problem = boundedProblem(name, embedder, true);
  if (problem !== undefined) return problem;
  if (before?.binaryQuantized === true && embedder.binaryQuantized !== true) {
    return settingsProblem(
      `\`.embedders.${name}.binaryQuantized\`: Cannot disable the binary quantization.\n` +
        ' - Note: Binary quantization is a lossy operation that cannot be reverted.\n' +
        ' - Hint: Add a new embedder that is non-quantized and regenerate the vectors.',
    );
  }
  const unsupported = unsupportedOllamaUrl(embedder);
  if (unsupported !== undefined) return { code: 'vector_embedding_error', message: `Error while generating embeddings: ${unsupported}` };
  return undefined;
}

/** What an embedder's store holds: the dimensions of its vectors, and how many documents have one. */
export interface HeldVectors {
  readonly dimensions: number;
  readonly documents: number;
}

/**
 * A `userProvided` embedder's declared dimensions changed while documents hold its vectors (Quarry's
 * check): its vectors come from the documents only, so the new number could never be met by those
 * stored, and searches and writes would each check a different one. v1.50 takes the number as a
 * hint and leaves its store mixed.
 */
export function heldDimensionsProblem(name: string, embedder: EmbedderSettings, before: EmbedderSettings | undefined, held: HeldVectors | undefined): EmbedderProblem | undefined {
  if (before?.source !== 'userProvided' || embedder.source !== 'userProvided' || held === undefined || held.documents === 0) return undefined;
  const declared = embedder.dimensions;
  if (typeof declared !== 'number' || declared === held.dimensions) return undefined;
  return settingsProblem(
    `\`.embedders.${name}.dimensions\`: Cannot change the dimensions of a \`userProvided\` embedder from ${held.dimensions} to ${declared} while documents hold its vectors.\n` +
      ` - Note: ${held.documents} documents hold vectors of ${held.dimensions} dimensions, which come from the documents themselves.\n` +
      ` - Hint: Add a new embedder for the vectors of ${declared} dimensions, or clear the documents' vectors first.`,
  );
}

/**
 * The GET form of a stored embedder: the fields of its source with defaults filled in, optional
 * ones only when set, `apiKey` passed through `mask`.
 */
export function embedderView(embedder: EmbedderSettings, mask: (secret: string) => string): Record<string, unknown> {
  const source = (embedder.source as Source | undefined) ?? 'openAi';
  const filled: Record<string, unknown> = { ...embedder, source };
  // an embedder with fragments has no document template (milli's settings from its options)
  if (hasFragments(embedder)) {
    delete filled.documentTemplate;
    delete filled.documentTemplateMaxBytes;
  } else if (TEMPLATED.includes(source)) {
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
  const allowed = new Set<string>(availableFor(source));
  const view: Record<string, unknown> = {};
  for (const field of EMBEDDER_FIELDS) if (allowed.has(field) && filled[field] !== undefined) view[field] = filled[field];
  // v1.50's f32 mean and sigma, written `1.0` (the Dart SDK reads them `as double`)
  if (typeof view.distribution === 'object' && view.distribution !== null) view.distribution = withFloatMembers({ ...view.distribution }, ['mean', 'sigma']);
  return view;
}
