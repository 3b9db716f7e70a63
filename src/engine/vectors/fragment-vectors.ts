/**
 * Generated vectors of an embedder with indexing fragments (vectors.md §3.1, milli's
 * `RequestFragmentExtractor`): each document renders each fragment (against `doc`); a fragment
 * that does not render for it (a field it names is missing) gives no vector, each rendered one is
 * one embedding request, and the document keeps one vector per fragment, in fragment id order.
 * A fragment whose rendering did not change (same digest) keeps its vector; so a changed fragment template, or a
 * changed document, re-embeds only what it changes, and a removed fragment's vectors go. Vectors
 * the user provided are not tied to any fragment: regenerating them renders every fragment.
 * A request whose failure the write ignores (embed-hook.ts) leaves its fragment as it was stored.
 * A document's vectors are stored as soon as its requests are answered, while later ones are in flight.
 */
import { createHash } from 'node:crypto';
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
  digest: string;
  vector?: ArrayLike<number>;
  /** the fragment's stored vector and digest, kept if its request fails and the failure is ignored */
  readonly previous?: { readonly vector: ArrayLike<number>; readonly digest: string };
}

/** The embedder's indexing fragments with their ids, in name order. */
function runtimeFragments(writer: EmbedderWriter, embedder: EmbedderSettings): { id: number; template: unknown }[] {
  const ids = new Map((writer.state.fragments ?? []).map((fragment) => [fragment.name, fragment.id]));
  return fragmentsOf(embedder, 'indexingFragments').flatMap(([name, template]) => {
    const id = ids.get(name);
    return id === undefined ? [] : [{ id, template }];
  });
}

/**
 * Renders, embeds what changed (one call for all documents) and stores each document's vectors,
 * in document order, as soon as the requests of its fragments (and of those before) are answered.
 */
export function generateFragmentVectors(writer: EmbedderWriter, embedder: EmbedderSettings, inputs: readonly FragmentInput[]): void {
  const fragments = runtimeFragments(writer, embedder);
  // each document's parts, and how many requests go out up to its own
  const plans: { input: FragmentInput; parts: Part[]; requested: number }[] = [];
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
      const digest = createHash('sha256').update(JSON.stringify(value)).digest('base64');
      const at = previous?.parts?.indexOf(id) ?? -1;
      const stored = at >= 0 ? { vector: writer.storedVector(previous!.items[at]!), digest: previous!.digests?.[at] ?? '' } : undefined;
      const part: Part = { fragment: id, value, digest, ...(stored === undefined ? {} : { previous: stored }) };
      if (stored?.digest === digest) part.vector = stored.vector;
      else requests.push(part);
      parts.push(part);
    }
    parts.sort((a, b) => a.fragment - b.fragment);
    plans.push({ input, parts, requested: requests.length });
  }
  let stored = 0;
  const storeUpTo = (answered: number) => {
    for (; stored < plans.length && plans[stored]!.requested <= answered; stored++) {
      const { input, parts } = plans[stored]!;
      const embedded = parts.filter((part) => part.vector !== undefined);
      writer.put(
        input.docid,
        input.id,
        embedded.map((part) => part.vector!),
        { userProvided: false, regenerate: true, parts: embedded.map((part) => part.fragment), digests: embedded.map((part) => part.digest) },
      );
    }
  };
  if (requests.length > 0) {
    embedDocuments(
      writer.name,
      embedder,
      requests.map((part) => part.value),
      (from, vectors) => {
        vectors.forEach((vector, i) => {
          const part = requests[from + i]!;
          if (vector !== null) part.vector = vector;
          else if (part.previous !== undefined) {
            // its request failed and the failure was ignored: the fragment keeps what it had, as in v1.50
            part.vector = part.previous.vector;
            part.digest = part.previous.digest;
          }
        });
        storeUpTo(from + vectors.length);
      },
    );
  }
  storeUpTo(requests.length);
}
