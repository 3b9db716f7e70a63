/**
 * The shapes of a document's `_vectors` field (vectors.md §2, §2.2). Pure.
 *
 * The entries of configured embedders live in the vector store (engine/vectors); the stored
 * document keeps the entries of other names as they were sent (vectors-indexing.ts validates and
 * merges them). Here:
 * - `readEntry` reads one `_vectors.<name>` value at Meilisearch's first level (`RawVectors`):
 *   its form (array/null shorthand or `{regenerate, embeddings}` object), without looking at the
 *   numbers;
 * - `embeddingsOf` reads an embeddings value (one vector or several) with the deserr messages
 *   Meilisearch gives for a configured embedder;
 * - `vectorsView` is what `retrieveVectors: true` (or a dump) shows: the entries of names that
 *   are not configured embedders as Meilisearch stores them, then every configured embedder as
 *   `{embeddings: [[f32…]], regenerate}` from the vector store. */
import { fragmentsOf } from '../../types/fragments.js';
import type { EmbedderSettings } from '../../types/settings.js';
import { compareBytes } from '../../types/bytes.js';
import { isJsonNumber, stringifyJson } from '../../types/json-text.js';
import { setField } from '../../types/own-record.js';
import { withFloatItems } from '../../types/wire-floats.js';
import type { JsonObject } from '../document-id.js';

/** One `_vectors.<name>` value by form; `embeddings` null or undefined means none given. */
export type VectorsEntry =
  | { readonly form: 'shorthand'; readonly embeddings: unknown }
  | { readonly form: 'object'; readonly regenerate: boolean; readonly embeddings: unknown };

/** A problem with a `_vectors` value, in Meilisearch's words (without the document prefix). */
export interface VectorsProblem {
  readonly problem: string;
}

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** serde's name of a JSON value's type in "invalid type" messages. */
function serdeUnexpected(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return `string ${JSON.stringify(value)}`;
  if (typeof value === 'number') return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (typeof value === 'bigint') return `integer \`${value}\``;
  if (Array.isArray(value)) return 'sequence';
  return 'map';
}

/**
 * serde_json's position after `key`'s value inside the compact text of `entry`: the column a
 * type error on that value reports (a map or a sequence is refused before it is read).
 */
function columnAfter(entry: JsonObject, key: string): number {
  let text = '{';
  for (const [k, v] of Object.entries(entry)) {
    if (text.length > 1) text += ',';
    text += `${JSON.stringify(k)}:`;
    if (k === key) return Buffer.byteLength(text) + (v !== null && typeof v === 'object' ? 0 : Buffer.byteLength(stringifyJson(v)));
    text += stringifyJson(v);
  }
  return Buffer.byteLength(text);
}

/** `RawVectors::from_raw_value`: the form of one entry, or the first problem in key order. */
export function readEntry(name: string, value: unknown): VectorsEntry | VectorsProblem {
  const at = `\`._vectors.${name}`;
  if (value === null || Array.isArray(value)) return { form: 'shorthand', embeddings: value };
  if (!isObject(value)) {
    const kind = typeof value === 'boolean' ? 'boolean' : typeof value === 'string' ? 'string' : typeof value === 'bigint' || Number.isInteger(value) ? 'integer' : 'number';
    return {
      problem: `Expected ${at}\` to be an array of floats, an array of arrays of floats, or an object with at least the field \`regenerate\`, but got the ${kind} \`${String(value)}\``,
    };
  }
  let regenerate: boolean | undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key === 'regenerate') {
      if (typeof inner !== 'boolean') {
        return {
          problem: `Could not parse ${at}.regenerate\`: invalid type: ${serdeUnexpected(inner)}, expected a boolean at line 1 column ${columnAfter(value, key)}`,
        };
      }
      regenerate = inner;
    } else if (key !== 'embeddings') {
      return { problem: `Unexpected field ${at}.${key}\`\n  - note: the allowed fields are \`regenerate\` and \`embeddings\`` };
    }
  }
  if (regenerate === undefined) {
    return {
      problem: `Missing field ${at}.regenerate\`\n  - note: ${at}\` must be an array of floats, an array of arrays of floats, or an object with field \`regenerate\``,
    };
  }
  return { form: 'object', regenerate, embeddings: value.embeddings };
}

/** deserr's "found …" part: the value's kind, then the value itself. */
function found(value: unknown): string {
  if (value === null) return 'null';
  const kind =
    typeof value === 'boolean'
      ? 'a boolean'
      : typeof value === 'string'
        ? 'a string'
        : isJsonNumber(value)
          ? !Number.isInteger(Number(value))
            ? 'a number'
            : value < 0
              ? 'a negative integer'
              : 'a positive integer'
          : Array.isArray(value)
            ? 'an array'
            : 'an object';
  return `${kind}: \`${stringifyJson(value)}\``;
}

const wrongType = (location: string, expected: string, value: unknown): VectorsProblem => ({
  problem: `Invalid value type at \`${location}\`: expected ${expected}, but found ${found(value)}`,
});

/** One embedding: numbers only. */
function vectorOf(items: readonly unknown[], location: string): number[] | VectorsProblem {
  for (let i = 0; i < items.length; i++) {
    if (typeof items[i] !== 'number') return wrongType(`${location}[${i}]`, 'a number', items[i]);
  }
  return items as number[];
}

/**
 * `VectorOrArrayOfVectors` at `._vectors.<name>.embeddings` (the path Meilisearch names for
 * the shorthand form too): null → no embedding, `[n…]` → one, `[[n…]…]` → several; the first
 * element decides which of the last two.
 */
export function embeddingsOf(name: string, value: unknown): number[][] | VectorsProblem {
  const location = `._vectors.${name}.embeddings`;
  if (value === null || value === undefined) return [];
  if (!Array.isArray(value)) return wrongType(location, 'null or an array', value);
  if (value.length === 0) return [];
  const first: unknown = value[0];
  if (typeof first === 'number') {
    const one = vectorOf(value, location);
    return 'problem' in one ? one : [one];
  }
  if (!Array.isArray(first)) return wrongType(`${location}[0]`, 'a number or an array', first);
  const all: number[][] = [];
  for (let i = 0; i < value.length; i++) {
    const item: unknown = value[i];
    if (!Array.isArray(item)) return wrongType(`${location}[${i}]`, 'an array', item);
    const one = vectorOf(item, `${location}[${i}]`);
    if ('problem' in one) return one;
    all.push(one);
  }
  return all;
}

/** How Meilisearch keeps an entry of a name that is not a configured embedder. */
function unconfiguredView(value: unknown): unknown {
  const entry = readEntry('', value);
  if ('problem' in entry) return value;
  if (entry.form === 'shorthand') return entry.embeddings ?? [];
  return { regenerate: entry.regenerate, embeddings: entry.embeddings ?? null };
}

/** A document's embeddings for one embedder as the vector store has them (engine/vectors `documentEmbeddings`). */
export interface StoredEmbeddings {
  readonly embeddings: readonly ArrayLike<number>[];
  readonly regenerate: boolean;
}

/** Looks up the vector store's entry of the shown document for an embedder. */
export type StoredEmbeddingsOf = (embedder: string) => StoredEmbeddings | undefined;

/**
 * Who reads the view: `retrieve` (retrieveVectors) shows the stored flags; `export` (dumps) writes
 * the vectors of an embedder with fragments with `regenerate: false`, as v1.50 exports them: an
 * import cannot tell which fragment each came from.
 */
export type VectorsViewUse = 'retrieve' | 'export';

/**
 * A configured embedder's embeddings and status for a document: f32 values (a binary-quantized
 * embedder stores 1 and 0); no entry in the store shows none, to be generated (`regenerate` true).
 */
function embedderView(embedder: EmbedderSettings, stored: StoredEmbeddings | undefined, use: VectorsViewUse): { embeddings: number[][]; regenerate: boolean } {
  // written as floats in an answer (`1.0`), as v1.50 writes an f32 vector
  const embeddings = (stored?.embeddings ?? []).map((vector) => withFloatItems(Array.from(vector)));
  const exported = use === 'export' && fragmentsOf(embedder, 'indexingFragments').length > 0;
  return { embeddings, regenerate: (stored?.regenerate ?? true) && !exported };
}

/** The `_vectors` object `retrieveVectors: true` (or a dump) shows for a stored `_vectors` value and the store's entries. */
export function vectorsView(
  stored: unknown,
  embedders: Readonly<Record<string, EmbedderSettings>>,
  fromStore: StoredEmbeddingsOf,
  use: VectorsViewUse = 'export',
): JsonObject {
  const entries = isObject(stored) ? stored : {};
  const out: JsonObject = {};
  for (const name of Object.keys(entries).sort(compareBytes)) {
    if (!Object.hasOwn(embedders, name)) setField(out, name, unconfiguredView(entries[name]));
  }
  for (const name of Object.keys(embedders).sort(compareBytes)) setField(out, name, embedderView(embedders[name]!, fromStore(name), use));
  return out;
}
