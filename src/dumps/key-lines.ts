/**
 * API keys ↔ the lines of a dump's `keys.jsonl` (dumps-snapshots-upgrade.md §3.3): snake_case,
 * `description` and `name` omitted when null, no key value (it is derived from the master key and
 * the uid, so an import under another master key keeps the uids but changes the values). Pure.
 */
import type { DumpedKey, JsonObject } from '../types/task.js';

export function keyLine(key: DumpedKey): JsonObject {
  return {
    ...(key.description === null ? {} : { description: key.description }),
    ...(key.name === null ? {} : { name: key.name }),
    uid: key.uid,
    actions: key.actions,
    indexes: key.indexes,
    expires_at: key.expiresAt,
    created_at: key.createdAt,
    updated_at: key.updatedAt,
  };
}

export function keyFromLine(line: JsonObject): DumpedKey {
  return {
    uid: line.uid as string,
    name: (line.name as string | null | undefined) ?? null,
    description: (line.description as string | null | undefined) ?? null,
    actions: line.actions as string[],
    indexes: line.indexes as string[],
    expiresAt: (line.expires_at as string | null | undefined) ?? null,
    createdAt: line.created_at as string,
    updatedAt: (line.updated_at as string | undefined) ?? (line.created_at as string),
  };
}
