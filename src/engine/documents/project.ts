/**
 * Field projection of stored documents (documents.md §2.5): `fields` selectors with dot
 * nesting, applied to documents whose keys are already in field-id order. `_vectors` is never
 * returned by this module; vector retrieval adds it separately. Where v1.50 reads `_vectors` with
 * the fields and then removes it, its last field takes `_vectors`' place (`withVectorsRemoved`). The search formatter
 * (search/format.ts) projects the fields of its displayed attributes with `projectValue`. Pure.
 */
import type { JsonObject } from '../document-id.js';
import { isJsonObject } from '../../types/json-text.js';
import { setField } from '../../types/own-record.js';
import { withFloatsOf } from '../../types/wire-floats.js';

/**
 * Selectors as two sets, compiled once per selector list (a request's list serves every hit), so
 * a field costs a few set lookups however many selectors a request names (issue 25: 100,000
 * of them took seconds when each field was compared with each selector).
 */
interface CompiledSelectors {
  /** the selectors themselves */
  readonly selected: ReadonlySet<string>;
  /** every proper prefix of a selector, cut before one of its dots: the paths on the way to one */
  readonly onTheWay: ReadonlySet<string>;
}

const compiled = new WeakMap<readonly string[], CompiledSelectors>();

function compile(selectors: readonly string[]): CompiledSelectors {
  let found = compiled.get(selectors);
  if (found === undefined) {
    const onTheWay = new Set<string>();
    for (const selector of selectors) {
      for (let dot = selector.indexOf('.'); dot >= 0; dot = selector.indexOf('.', dot + 1)) onTheWay.add(selector.slice(0, dot));
    }
    found = { selected: new Set(selectors), onTheWay };
    compiled.set(selectors, found);
  }
  return found;
}

/** Whether a selector is `path` or one of the paths it lies under. */
function covered(path: string, { selected }: CompiledSelectors): boolean {
  if (selected.has(path)) return true;
  for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) if (selected.has(path.slice(0, dot))) return true;
  return false;
}

/**
 * The part of `value`, found at `path`, that the selectors reach: all of it under a selector,
 * else its fields on the way to one (arrays element by element). Selectors hold no `*`.
 */
export function projectValue(value: unknown, path: string, selectors: readonly string[]): unknown {
  return projectCompiled(value, path, compile(selectors));
}

function projectCompiled(value: unknown, path: string, selectors: CompiledSelectors): unknown {
  if (covered(path, selectors)) return value;
  if (Array.isArray(value)) return withFloatsOf(value, value.map((item) => projectCompiled(item, path, selectors)));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, inner] of Object.entries(value)) {
    const innerPath = `${path}.${key}`;
    if (selectors.onTheWay.has(innerPath) || covered(innerPath, selectors)) setField(out, key, projectCompiled(inner, innerPath, selectors));
  }
  return withFloatsOf(value, out);
}

/**
 * The selectors v1.50 retrieves with: `*`, or names it looks up among the index's fields. A name
 * holding a `*` otherwise (`director.*`) is no field there and selects nothing, where projecting
 * it kept `director` as an empty object on the way to it. The same array when nothing is left out
 * (selectors are compiled once per array).
 */
export function namedFields(selectors: readonly string[]): readonly string[] {
  return selectors.some((s) => s !== '*' && s.includes('*')) ? selectors.filter((s) => s === '*' || !s.includes('*')) : selectors;
}

/**
 * `fields === null` keeps every field; otherwise only what the selectors reach. The copies keep
 * the marks of the numbers the document wrote as floats (types/wire-floats.ts).
 */
export function projectDocument(doc: JsonObject, fields: readonly string[] | null): JsonObject {
  // every field: a spread copy, an order of magnitude cheaper than copying entry by entry (search pages do it per hit)
  if (fields === null && !Object.hasOwn(doc, '_vectors')) return withFloatsOf(doc, { ...doc });
  const selectors = fields === null ? null : compile(fields);
  const out: JsonObject = {};
  // keys, not entries: no pair per field (a document of 65,000 fields: 21 against 48 ms)
  for (const key of Object.keys(doc)) {
    if (key === '_vectors') continue;
    if (selectors === null) {
      setField(out, key, doc[key]);
    } else if (selectors.selected.has(key) || selectors.onTheWay.has(key)) {
      setField(out, key, projectCompiled(doc[key], key, selectors));
    }
  }
  return withFloatsOf(doc, out);
}

/**
 * `shown` (fields projected from `doc`, in its order) as v1.50 leaves a document it read with
 * `_vectors` and then took `_vectors` out of: serde_json's order-preserving `remove` moves the
 * last field into its place. Only documents that hold `_vectors` pay for it.
 */
export function withVectorsRemoved(doc: JsonObject, shown: JsonObject): JsonObject {
  if (!Object.hasOwn(doc, '_vectors')) return shown;
  // the shown fields before `_vectors`, in the document's order
  let at = 0;
  for (const key of Object.keys(doc)) {
    if (key === '_vectors') break;
    if (Object.hasOwn(shown, key)) at++;
  }
  const keys = Object.keys(shown);
  if (at >= keys.length - 1) return shown;
  keys.splice(at, 0, keys.pop()!);
  const moved: JsonObject = {};
  for (const key of keys) setField(moved, key, shown[key]);
  return withFloatsOf(shown, moved);
}
