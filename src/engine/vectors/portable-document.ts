/**
 * A stored document as it leaves the server to be indexed elsewhere (a dump, an export): with
 * its embeddings in `_vectors`, so the other side gets them back as user-provided ones
 * (`{embeddings, regenerate}`), and nothing to compute again; the numbers it wrote as floats stay
 * marked (types/wire-floats.ts), for `stringifyReply` to write them as floats. A document of an
 * index without embedders whose `_vectors` is no object leaves unchanged.
 */
import type { IndexSettings } from '../../types/settings.js';
import type { IndexEnv } from '../index-env.js';
import { storedEmbeddingsOf } from './index.js';
import { isObject, vectorsView } from '../documents/vectors.js';
import { withFloatsOf } from '../../types/wire-floats.js';

export function portableDocument(env: IndexEnv, settings: IndexSettings, docid: number, doc: Record<string, unknown>): Record<string, unknown> {
  // without embedders there is no embedding to add: a `_vectors` that is no object (kept from a
  // dump, see DocumentOp's `dumped`) leaves as it is, as v1.50 writes a document without embeddings
  if (Object.keys(settings.embedders).length === 0 && (doc._vectors === undefined || !isObject(doc._vectors))) return doc;
  return withFloatsOf(doc, { ...doc, _vectors: vectorsView(doc._vectors, settings.embedders, storedEmbeddingsOf(env, settings, docid)) });
}
