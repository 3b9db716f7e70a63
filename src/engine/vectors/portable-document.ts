/**
 * A stored document as it leaves the server to be indexed elsewhere (a dump, an export): with
 * its embeddings in `_vectors`, so the other side gets them back as user-provided ones
 * (`{embeddings, regenerate}`), and nothing to compute again; the numbers it wrote as floats stay
 * marked (types/wire-floats.ts), for `stringifyReply` to write them as floats.
 */
import type { IndexSettings } from '../../types/settings.js';
import type { IndexEnv } from '../index-env.js';
import { storedEmbeddingsOf } from './index.js';
import { vectorsView } from '../documents/vectors.js';
import { withFloatsOf } from '../../types/wire-floats.js';

export function portableDocument(env: IndexEnv, settings: IndexSettings, docid: number, doc: Record<string, unknown>): Record<string, unknown> {
  if (Object.keys(settings.embedders).length === 0 && doc._vectors === undefined) return doc;
  return withFloatsOf(doc, { ...doc, _vectors: vectorsView(doc._vectors, settings.embedders, storedEmbeddingsOf(env, settings, docid)) });
}
