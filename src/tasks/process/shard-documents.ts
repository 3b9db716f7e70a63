/**
 * The documents a topology change sends to a shard's new owners (network.md §6 step 2): those of
 * given shards (engine/shards/shard-docids.ts) or of given docids (what resharding moved,
 * engine/shards/reshard.ts), read as an export reads an index's documents — stored JSON objects,
 * primary key included, with their embeddings in `_vectors` (engine/vectors/portable-document.ts)
 * — a bounded chunk at a time. Reads only: run it on a read snapshot (e.g. `IndexEnvs.use`).
 * Here rather than in engine/shards, which the engine's filter and indexer import: it reads
 * through the vector store.
 */
import { EMPTY, unionAll, type DocSet } from '../../engine/docset.js';
import { DocumentStore } from '../../engine/documents/store.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { readSettings } from '../../engine/index-settings.js';
import { portableDocument } from '../../engine/vectors/portable-document.js';
import { shardDocidsOf } from '../../engine/shards/shard-docids.js';

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
