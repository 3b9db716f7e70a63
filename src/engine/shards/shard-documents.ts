/**
 * The documents a topology change sends to a shard's new owners (network.md §6 step 2): those of
 * given shards, or given docids (what resharding moved, reshard.ts), read as an export reads an
 * index's documents — stored JSON objects, primary key included, with their embeddings in
 * `_vectors` (vectors/portable-document.ts) — a bounded chunk at a time.
 * Reads only: run it on a read snapshot (e.g. `IndexEnvs.use`).
 */
import { EMPTY, unionAll, type DocSet } from '../docset.js';
import { DocumentStore } from '../documents/store.js';
import type { IndexEnv } from '../index-env.js';
import { readSettings } from '../index-settings.js';
import { portableDocument } from '../vectors/portable-document.js';
import { shardDocidsOf } from './shard-docids.js';

/** Documents per chunk when the caller does not say. */
export const SHARD_CHUNK_DOCS = 1000;

/** The docids recorded in any of `shards` (a shard the index does not know holds none). */
export function docidsOfShards(env: IndexEnv, shards: Iterable<string>): DocSet {
  return unionAll([...shards].map((shard) => shardDocidsOf(env, shard) ?? EMPTY));
}

/**
 * The documents `docids` (ascending; missing ones skipped) as exported JSON objects, in chunks of
 * at most `chunkDocs`.
 */
export function* readDocumentChunks(env: IndexEnv, docids: DocSet, chunkDocs = SHARD_CHUNK_DOCS): Generator<Record<string, unknown>[]> {
  const settings = readSettings(env);
  const store = new DocumentStore(env);
  let chunk: Record<string, unknown>[] = [];
  for (const docid of docids) {
    const doc = store.byDocid(docid);
    if (doc === undefined) continue;
    chunk.push(portableDocument(env, settings, docid, doc));
    if (chunk.length >= chunkDocs) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** The documents of `shards`, as `readDocumentChunks` gives them. */
export function readShardChunks(env: IndexEnv, shards: Iterable<string>, chunkDocs = SHARD_CHUNK_DOCS): Generator<Record<string, unknown>[]> {
  return readDocumentChunks(env, docidsOfShards(env, shards), chunkDocs);
}
