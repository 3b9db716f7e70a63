/**
 * The batch failure of a `userProvided` embedder when documents give it no vectors (vectors.md
 * §2, milli's manual-embedder error): the first such document, how many others, and hints for
 * likely misspellings found in the batch's documents — a top-level field close to `_vectors`, or
 * a `_vectors` key close to the embedder's name that is no configured embedder (at most two of
 * each, within two edits counting transpositions) — else the opt-out hint.
 */
import { ApiError } from '../../errors/api-error.js';
import { compareBytes } from '../../types/bytes.js';
import { osaWithin } from '../../types/edit-distance.js';
import type { JsonObject } from '../document-id.js';
import { isObject } from '../documents/vectors.js';

const close = (name: string, target: string) => name !== target && osaWithin(name, target, 2);

/** Names and the number of documents having them, most frequent first, then by name. */
function counted(counts: Map<string, number>): [string, number][] {
  return [...counts].sort((a, b) => b[1] - a[1] || compareBytes(a[0], b[0])).slice(0, 2);
}

/**
 * @param missing external ids of the documents without vectors, in batch order
 * @param documents the batch's documents (as stored), searched for misspellings
 * @param configured the configured embedders' names
 */
export function missingVectorsError(embedder: string, missing: readonly string[], documents: Iterable<JsonObject>, configured: ReadonlySet<string>): ApiError {
  const vectorTypos = new Map<string, number>();
  const embedderTypos = new Map<string, number>();
  for (const doc of documents) {
    for (const field of Object.keys(doc)) if (close(field, '_vectors')) vectorTypos.set(field, (vectorTypos.get(field) ?? 0) + 1);
    const vectors = doc._vectors;
    if (!isObject(vectors)) continue;
    for (const name of Object.keys(vectors)) {
      if (!configured.has(name) && close(name, embedder)) embedderTypos.set(name, (embedderTypos.get(name) ?? 0) + 1);
    }
  }
  let message = `While embedding documents for embedder \`${embedder}\`: no vectors provided for document \`${missing[0]}\``;
  if (missing.length > 1) message += ` and at least ${missing.length - 1} other document(s)`;
  message += `\n- Note: \`${embedder}\` has \`source: userProvided\`, so documents must provide embeddings as an array in \`_vectors.${embedder}\`.`;
  const hints = [
    ...counted(vectorTypos).map(([name, count]) => `\n- Hint: try replacing \`${name}\` by \`_vectors\` in ${count} document(s).`),
    ...counted(embedderTypos).map(([name, count]) => `\n- Hint: try replacing \`_vectors.${name}\` by \`_vectors.${embedder}\` in ${count} document(s).`),
  ];
  message += hints.length > 0 ? hints.join('') : `\n- Hint: opt-out for a document with \`_vectors.${embedder}: null\``;
  return new ApiError('vector_embedding_error', message);
}
