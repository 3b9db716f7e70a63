/**
 * The `metadata` of a federated answer (`Meili-Include-Metadata: true`, search.md §5), as v1.50's
 * `build_query_metadata` makes it: one entry per query, in request order, with the query's `q`
 * (when it has one), a fresh `queryUid`, its index, that index's primary key and the remote that
 * answered it. A query without a remote names this instance (`self`) once some query of the
 * request named a remote. The primary key is looked up by (the query's own remote, index): an
 * index searched here gives its own under no remote, and a remote's under its name, from the
 * metadata it sent (v1.50 reads a remote's only when it sent hits, naming them as it checks
 * them). So a query naming this instance explicitly gets none, as in v1.50.
 */
import { isJsonObject } from '../types/json-text.js';
import { uuidV7 } from '../types/uuid-v7.js';

/** A query as its metadata entry reads it: `remote` is the one it names, null for none. */
export interface MetadataQuery {
  readonly q?: string | null | undefined;
  readonly indexUid: string;
  readonly remote: string | null;
}

const keyOf = (remote: string | null, indexUid: string): string => (remote === null ? `local\u0000${indexUid}` : `remote\u0000${remote}\u0000${indexUid}`);

export function federatedMetadata(
  queries: readonly MetadataQuery[],
  /** primary key of each index searched here (null: it has none) */
  localPrimaryKeys: ReadonlyMap<string, string | null>,
  remoteAnswers: readonly { readonly name: string; readonly body: Record<string, unknown> }[],
  /** this instance's name when some query named a remote, else null */
  self: string | null,
): Record<string, unknown>[] {
  const primaryKeys = new Map<string, string>();
  for (const { name, body } of remoteAnswers) {
    if (!Array.isArray(body.hits) || body.hits.length === 0 || !Array.isArray(body.metadata)) continue;
    for (const entry of body.metadata) {
      if (isJsonObject(entry) && typeof entry.indexUid === 'string' && typeof entry.primaryKey === 'string') primaryKeys.set(keyOf(name, entry.indexUid), entry.primaryKey);
    }
  }
  for (const [uid, primaryKey] of localPrimaryKeys) if (primaryKey !== null) primaryKeys.set(keyOf(null, uid), primaryKey);
  return queries.map(({ q, indexUid, remote }) => {
    const entry: Record<string, unknown> = {};
    if (typeof q === 'string') entry.query = q;
    entry.queryUid = uuidV7();
    entry.indexUid = indexUid;
    const primaryKey = primaryKeys.get(keyOf(remote, indexUid));
    if (primaryKey !== undefined) entry.primaryKey = primaryKey;
    const answeredBy = remote ?? self;
    if (answeredBy !== null) entry.remote = answeredBy;
    return entry;
  });
}
