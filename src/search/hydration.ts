/**
 * Document join (experimental `foreignKeys`; v1.50 `search/hydration.rs`): in a search's hits,
 * each value under a `foreignKeys` field that is a document id (a string id or an integer),
 * arrays and nested objects walked down to their leaves, becomes that document of the foreign
 * index, with the foreign index's displayed fields (`{}` when no document has that id; a value that
 * is no id stays as it is). `_formatted` is joined the same way. A foreign index that does not
 * exist fails the search with `index_not_found`.
 */
import { externalIdOf, type JsonObject } from '../engine/document-id.js';
import { DocumentStore } from '../engine/documents/store.js';
import { searchSettings } from '../engine/index-settings.js';
import { isJsonObject } from '../types/json-text.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import { hitFields } from './displayed.js';
import { TimeSlices } from '../types/time-slices.js';

type Join = (id: string) => JsonObject;

function joinLeaves(value: unknown, join: Join): unknown {
  if (Array.isArray(value)) return value.map((item) => joinLeaves(item, join));
  if (isJsonObject(value)) return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, joinLeaves(inner, join)]));
  const id = externalIdOf(value);
  return id === null ? value : join(id);
}

/** `value` at `path` with the leaves under `field` joined. */
function joinField(value: unknown, path: string, field: string, join: Join): unknown {
  if (path === field || path.startsWith(`${field}.`)) return joinLeaves(value, join);
  if (path !== '' && !field.startsWith(`${path}.`)) return value;
  if (Array.isArray(value)) return value.map((item) => joinField(item, path, field, join));
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, joinField(inner, path === '' ? key : `${path}.${key}`, field, join)]));
}

/**
 * Joins the foreign documents into `hits` (views of index documents whose settings are `settings`),
 * in place. A foreign document is read and shaped once per search however many ids name it, and
 * the event loop gets a turn between hits once a slice of work has passed: 1,000 hits naming
 * 1,000 authors each took one synchronous pass of a million reads (3.4 s held; audit).
 */
export async function hydrateHits(ctx: SearchContext, settings: IndexSettings, hits: Record<string, unknown>[]): Promise<void> {
  if (!ctx.features.enabled('foreignKeys') || settings.foreignKeys.length === 0 || hits.length === 0) return;
  const fieldsByIndex = new Map<string, string[]>();
  for (const { foreignIndexUid, fieldName } of settings.foreignKeys) fieldsByIndex.set(foreignIndexUid, [...(fieldsByIndex.get(foreignIndexUid) ?? []), fieldName]);
  const slices = new TimeSlices();
  for (const [foreignUid, fields] of fieldsByIndex) {
    // leased: the join gives turns away, and a borrowed environment lasts one turn
    const { env, release } = ctx.indexReader.lease(foreignUid);
    try {
      const store = new DocumentStore(env);
      const shown = hitFields(searchSettings(env), null);
      const joined = new Map<string, JsonObject>();
      const join: Join = (id) => {
        let doc = joined.get(id);
        if (doc === undefined) {
          const stored = store.get(id);
          joined.set(id, (doc = stored === undefined ? {} : shown(stored)));
        }
        return doc;
      };
      for (const hit of hits) {
        await slices.pause();
        for (const target of [hit, hit._formatted]) {
          if (!isJsonObject(target)) continue;
          for (const field of fields) {
            for (const key of Object.keys(target)) {
              if (key === field || field.startsWith(`${key}.`) || key.startsWith(`${field}.`)) target[key] = joinField(target[key], key, field, join);
            }
          }
        }
      }
    } finally {
      release();
    }
  }
}
