/**
 * API keys of old dumps, step by step to v6 `keys.jsonl` lines (Meilisearch's dump reader,
 * compat/v4_to_v5 and v5_to_v6): v1–v3 dumps have no keys; a v4 key had an 8-byte id that v5
 * replaced by a new random uid (so its key value changes) and lost the `dumps.get` action; v5
 * keys pass as they are. Pure but for the new uids.
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject } from '../../types/task.js';

/** A v4 key → v5. */
export function v4KeyToV5(v4: JsonObject): JsonObject {
  return {
    description: v4.description ?? null,
    name: null,
    uid: randomUUID(),
    actions: (v4.actions as string[]).filter((action) => action !== 'dumps.get'),
    indexes: v4.indexes,
    expires_at: v4.expires_at ?? null,
    created_at: v4.created_at,
    updated_at: v4.updated_at,
  };
}

/** A v5 key → its v6 line (`description` and `name` left out when null). */
export function v5KeyToV6Line(v5: JsonObject): JsonObject {
  return {
    ...(v5.description == null ? {} : { description: v5.description }),
    ...(v5.name == null ? {} : { name: v5.name }),
    uid: v5.uid,
    actions: v5.actions,
    indexes: v5.indexes,
    expires_at: v5.expires_at ?? null,
    created_at: v5.created_at,
    updated_at: v5.updated_at,
  };
}
