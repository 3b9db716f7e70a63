/**
 * Field projection of stored documents (documents.md §2.5): `fields` selectors with dot
 * nesting, applied to documents whose keys are already in field-id order. `_vectors` is never
 * returned by this module; vector retrieval adds it separately. The search formatter
 * (search/format.ts) projects the fields of its displayed attributes with `projectValue`. Pure.
 */
import type { JsonObject } from '../document-id.js';
import { isJsonObject } from '../../types/json-text.js';

/** Whether `path` lies on the way to, or inside, one of the selectors. */
function related(path: string, selectors: readonly string[]): boolean {
  return selectors.some((s) => s === path || s.startsWith(`${path}.`) || path.startsWith(`${s}.`));
}

/**
 * The part of `value`, found at `path`, that the selectors reach: all of it under a selector,
 * else its fields on the way to one (arrays element by element). Selectors hold no `*`.
 */
export function projectValue(value: unknown, path: string, selectors: readonly string[]): unknown {
  if (selectors.some((s) => s === path || path.startsWith(`${s}.`))) return value;
  if (Array.isArray(value)) return value.map((item) => projectValue(item, path, selectors));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = `${path}.${key}`;
    if (related(innerPath, selectors)) out[key] = projectValue(inner, innerPath, selectors);
  }
  return out;
}

/** `fields === null` keeps every field; otherwise only what the selectors reach. */
export function projectDocument(doc: JsonObject, fields: readonly string[] | null): JsonObject {
  // every field: a spread copy, an order of magnitude cheaper than copying entry by entry (search pages do it per hit)
  if (fields === null && !Object.hasOwn(doc, '_vectors')) return { ...doc };
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(doc)) {
    if (key === '_vectors') continue;
    if (fields === null) {
      out[key] = value;
    } else if (fields.some((s) => s === key || s.startsWith(`${key}.`))) {
      out[key] = projectValue(value, key, fields);
    }
  }
  return out;
}
