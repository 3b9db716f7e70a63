/**
 * Generated vectors of an embedder with indexing fragments (vectors.md §3.1, milli's
 * `RequestFragmentExtractor`): each document renders each fragment (against `doc`); a fragment
 * that does not render for it (a field it names is missing) gives no vector, each rendered one is
 * one embedding request, and the document keeps one vector per fragment, in fragment id order.
 * A fragment whose rendering did not change (same digest) keeps its vector; so a changed fragment template, or a
 * changed document, re-embeds only what it changes, and a removed fragment's vectors go. Vectors
 * the user provided are not tied to any fragment: regenerating them renders every fragment.
 */
import { createHash } from 'node:crypto';
import { ApiError } from '../../errors/api-error.js';
import { fragmentsOf } from '../../types/fragments.js';
import type { EmbedderSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
import { embedDocuments } from './embed-hook.js';
import type { EmbedderWriter } from './embedder-writer.js';
import { documentFragmentContext, renderDocumentFragment } from './fragment-template.js';
import type { DocVectors } from './store.js';

/** A document to generate vectors for: as stored, with what the store holds for it. */
export interface FragmentInput {
  readonly docid: number;
  /** external id, for errors */
  readonly id: string;
  readonly doc: JsonObject;
  readonly old: DocVectors | undefined;
}

interface Part {
  readonly fragment: number;
  /** the rendered fragment, and the digest of its JSON text (compared with the stored one) */
  readonly value: unknown;
  readonly digest: string;
  vector?: ArrayLike<number>;
}

/** The embedder's indexing fragments with their ids, in name order. */
function runtimeFragments(writer: EmbedderWriter, embedder: EmbedderSettings): { id: number; template: unknown }[] {
  const ids = new Map((writer.state.fragments ?? []).map((fragment) => [fragment.name, fragment.id]));
  return fragmentsOf(embedder, 'indexingFragments').flatMap(([name, template]) => {
    const id = ids.get(name);
    return id === undefined ? [] : [{ id, template }];
  });
}

/** Renders, embeds what changed (one call for all documents) and stores each document's vectors. */
export function generateFragmentVectors(writer: EmbedderWriter, embedder: EmbedderSettings, inputs: readonly FragmentInput[]): void {
  const fragments = runtimeFragments(writer, embedder);
  const plans: { input: FragmentInput; parts: Part[] }[] = [];
  const requests: Part[] = [];
  for (const input of inputs) {
    const { old } = input;
    // vectors generated from fragments before, to keep where their rendering is unchanged
    const previous = old !== undefined && !old.userProvided ? old : undefined;
    const context = documentFragmentContext(input.doc);
    const parts: Part[] = [];
    for (const { id, template } of fragments) {
      const value = renderDocumentFragment(template, context);
      if (value === undefined) continue;
      const part: Part = { fragment: id, value, digest: createHash('sha256').update(JSON.stringify(value)).digest('base64') };
      const at = previous?.parts?.indexOf(id) ?? -1;
      if (at >= 0 && previous!.digests?.[at] === part.digest) part.vector = writer.storedVector(previous!.items[at]!);
      else requests.push(part);
      parts.push(part);
    }
    parts.sort((a, b) => a.fragment - b.fragment);
    plans.push({ input, parts });
  }
  if (requests.length > 0) {
    const vectors = embedDocuments(
      writer.name,
      embedder,
      requests.map((part) => part.value),
    );
    if (vectors.length !== requests.length) {
      throw new ApiError('vector_embedding_error', `While embedding documents for embedder \`${writer.name}\`: error: expected ${requests.length} embeddings, got ${vectors.length}`);
    }
    requests.forEach((part, i) => (part.vector = vectors[i]!));
  }
  for (const { input, parts } of plans) {
    writer.put(
      input.docid,
      input.id,
      parts.map((part) => part.vector!),
      { userProvided: false, regenerate: true, parts: parts.map((part) => part.fragment), digests: parts.map((part) => part.digest) },
    );
  }
}
