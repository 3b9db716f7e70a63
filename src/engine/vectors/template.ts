/**
 * Document templates (vectors.md §4): an embedder's Liquid `documentTemplate` rendered against a
 * document, as milli's prompt module does — the context holds `doc` (the document's top-level
 * fields but `_vectors`, `_geo`, `_geojson`) and `fields` (one `{name, value, is_searchable}` per
 * such field, in stored order). The Liquid engine is bounded: no file system (includes fail),
 * a render-time and a memory limit, strict variables as Rust's liquid. Rendering is synchronous:
 * it runs inside the index writer's transaction. Parse errors and render errors carry v1.50's words.
 */
import { createRequire } from 'node:module';
import type { Liquid, Template } from 'liquidjs';
import { ApiError } from '../../errors/api-error.js';
import {
  DEFAULT_DOCUMENT_TEMPLATE,
  DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES,
  type EmbedderSettings,
} from '../../types/settings.js';
import type { JsonObject } from '../../types/task.js';
import { setField } from '../../types/own-record.js';

const RESERVED = new Set(['_vectors', '_geo', '_geojson']);

// Loaded with the first template (liquidjs ships CommonJS, so synchronously): a server or an index
// writer that renders none does not pay for it at its start.
let loaded: Liquid | undefined;
const engine = (): Liquid =>
  (loaded ??= new (createRequire(import.meta.url)('liquidjs') as typeof import('liquidjs')).Liquid({
    strictVariables: true,
    // Rust's liquid treats an unknown variable in a condition (and `default`) as nil.
    lenientIf: true,
    ownPropertyOnly: true,
    // An empty in-memory mapping: `include`/`render`/`layout` never reach the file system.
    templates: {},
    jsTruthy: false,
    parseLimit: 1_000_000,
    renderLimit: 1_000,
    memoryLimit: 64 * 1024 * 1024,
  }));

/** A JSON object seen by Liquid; printed as its keys and values concatenated, as Rust's liquid prints objects. */
class LiquidMap {
  toString(): string {
    let out = '';
    for (const [key, value] of Object.entries(this)) out += key + printed(value);
    return out;
  }
}

function printed(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(printed).join('');
  return String(value);
}

/** A parsed JSON value turned into what a Liquid context holds. */
export function liquidValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(liquidValue);
  if (value !== null && typeof value === 'object') {
    const map = new LiquidMap() as Record<string, unknown>;
    for (const [key, inner] of Object.entries(value)) setField(map, key, liquidValue(inner));
    return map;
  }
  return value;
}

const parsed = new Map<string, Template[]>();
const PARSED_CACHE_ENTRIES = 256;

/** The Rust liquid (pest) frame of a parse error, with liquidjs' reason and position. */
function parseErrorText(text: string, error: unknown): string {
  const reason = error instanceof Error ? error.message.replace(/, line:\d+, col:\d+$/, '') : String(error);
  const position = (error as { token?: { getPosition?: () => [number, number] } }).token?.getPosition?.();
  if (position === undefined) return `liquid: ${reason}\n`;
  const [line, col] = position;
  const source = text.split('\n')[line - 1] ?? '';
  const gutter = ' '.repeat(String(line).length);
  return `liquid:  --> ${line}:${col}\n${gutter} |\n${line} | ${source}\n${gutter} | ${' '.repeat(col - 1)}^---\n${gutter} |\n${gutter} = ${reason}\n`;
}

/** A Liquid failure, its message in Rust liquid's form (`liquid: …`). */
export class LiquidError extends Error {}

/** The parsed template (cached by text); throws `LiquidError`. */
function parse(text: string): Template[] {
  let templates = parsed.get(text);
  if (templates !== undefined) return templates;
  try {
    templates = engine().parse(text);
  } catch (error) {
    throw new LiquidError(parseErrorText(text, error));
  }
  if (parsed.size >= PARSED_CACHE_ENTRIES) parsed.delete(parsed.keys().next().value!);
  parsed.set(text, templates);
  return templates;
}

/** Tighter bounds than the engine's (1 s, 64 MB) for one render: its time in ms, its memory in liquidjs' units (about characters). */
export interface RenderLimits {
  readonly renderMs: number;
  readonly memory: number;
}

/** Renders `text` against `context` (values made by `liquidValue`); throws `LiquidError` for a parse or a render failure. */
export function renderLiquid(text: string, context: Record<string, unknown>, limits?: RenderLimits): string {
  const templates = parse(text);
  try {
    return engine().renderSync(templates, context, limits === undefined ? undefined : { renderLimit: limits.renderMs, memoryLimit: limits.memory }) as string;
  } catch (error) {
    throw new LiquidError(`liquid: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}

/**
 * Why `text` is not a valid Liquid template, as milli's `NewPromptError` prints
 * (`user error: cannot parse template: liquid: …`); undefined when it parses.
 */
export function templateParseProblem(text: string): string | undefined {
  try {
    parse(text);
    return undefined;
  } catch (error) {
    if (error instanceof LiquidError) return `user error: cannot parse template: ${error.message}`;
    throw error;
  }
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes, never inside a character (milli's `truncate`). */
export function truncateUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the cut character.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

export interface RenderOptions {
  /** whether a top-level field is searchable (`searchableMatcher(settings.searchableAttributes)`); every field when omitted */
  isSearchable?: (field: string) => boolean;
  /** the document's id, named in render errors */
  docId?: string;
  /** cut the output to `documentTemplateMaxBytes` (true by default; the render route shows the whole text) */
  truncate?: boolean;
}

/** The `{doc, fields}` context of a document (milli's prompt `Context`). */
export function templateContext(doc: JsonObject, isSearchable: (field: string) => boolean = () => true): Record<string, unknown> {
  const shown = new LiquidMap() as Record<string, unknown>;
  const fields: LiquidMap[] = [];
  for (const [name, value] of Object.entries(doc)) {
    if (RESERVED.has(name)) continue;
    setField(shown, name, liquidValue(value));
    const field = new LiquidMap() as Record<string, unknown>;
    field.name = name;
    field.value = shown[name] ?? null;
    field.is_searchable = isSearchable(name);
    fields.push(field as LiquidMap);
  }
  return { doc: shown, fields };
}

/**
 * Renders a template text against a document's context; a failure (a missing field under strict
 * variables, a limit hit) becomes `invalid_document_fields` with milli's `RenderPromptError` words.
 */
export function renderTemplateText(text: string, context: Record<string, unknown>, docId?: string, limits?: RenderLimits): string {
  try {
    return renderLiquid(text, context, limits);
  } catch (error) {
    if (!(error instanceof LiquidError)) throw error;
    const where = docId === undefined ? 'missing field in document' : `missing field in document \`${docId}\``;
    throw new ApiError('invalid_document_fields', `user error: ${where}: ${error.message}`);
  }
}

/** The text an embedder embeds for `doc`: its template (or the default one) rendered, then cut to its byte limit. */
export function renderDocumentTemplate(settings: EmbedderSettings, doc: JsonObject, options: RenderOptions = {}): string {
  // A composite embedder's template lives in its indexing embedder.
  const embedder = settings.source === 'composite' ? (settings.indexingEmbedder as EmbedderSettings) : settings;
  const text = (embedder.documentTemplate as string | undefined) ?? DEFAULT_DOCUMENT_TEMPLATE;
  const rendered = renderTemplateText(text, templateContext(doc, options.isSearchable), options.docId);
  if (options.truncate === false) return rendered;
  const maxBytes = (embedder.documentTemplateMaxBytes as number | undefined) ?? DEFAULT_DOCUMENT_TEMPLATE_MAX_BYTES;
  return truncateUtf8(rendered, maxBytes);
}
