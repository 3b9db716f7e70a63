/**
 * A stored document as it leaves the server to be indexed elsewhere (a dump, an export): with
 * its embeddings in `_vectors`, so the other side gets them back as user-provided ones
 * (`{embeddings, regenerate}`), and nothing to compute again.
 */
import type { IndexSettings } from '../../types/settings.js';
import type { IndexEnv } from '../index-env.js';
import { storedEmbeddingsOf } from './index.js';
import { vectorsView } from '../documents/vectors.js';

export function portableDocument(env: IndexEnv, settings: IndexSettings, docid: number, doc: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(settings.embedders).length === 0 && doc._vectors === undefined) return doc;
  return { ...doc, _vectors: vectorsView(doc._vectors, settings.embedders, storedEmbeddingsOf(env, settings, docid)) };
}
