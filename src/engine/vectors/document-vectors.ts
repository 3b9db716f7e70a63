/**
 * What a document's vectors for one embedder become (vectors.md §2.1), from what the batch sent
 * (`_vectors.<name>`, or nothing) and what the store holds, and the application of that decision
 * to a set of documents: user-provided vectors are stored as given, generated ones are embedded
 * from the rendered document template — only for documents whose rendering changed — through the
 * installed document embedder (embed-hook.ts), all texts of the set in one call, each run of
 * vectors stored as it is answered (from the rendered fragments for an embedder with fragments:
 * fragment-vectors.ts). A
 * `userProvided` embedder left without vectors fails the batch (missing-vectors.ts). The write's
 * failure modes (embed-hook.ts) may leave a document without an embedding: one whose template
 * does not render loses its vectors, one whose request failed keeps them.
 */
import { ApiError } from '../../errors/api-error.js';
import type { EmbedderSettings, IndexSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
import type { SentEntry } from '../documents/vectors-indexing.js';
import { searchableMatcher } from '../words/extract.js';
import { hasFragments } from '../../types/fragments.js';
import { embedDocuments, ignoresTemplateFailures } from './embed-hook.js';
import { generateFragmentVectors } from './fragment-vectors.js';
import type { EmbedderWriter } from './embedder-writer.js';
import { missingVectorsError } from './missing-vectors.js';
import type { DocVectors } from './store.js';
import { renderDocumentTemplate } from './template.js';

export type Decision =
  /** change nothing */
  | { readonly kind: 'keep' }
  /** store these vectors with this status */
  | { readonly kind: 'set'; readonly vectors: readonly ArrayLike<number>[]; readonly userProvided: boolean; readonly regenerate: boolean }
  /** generate from the template (when its rendering changed) */
  | { readonly kind: 'generate' }
  /** a user-provided embedder got no vectors */
  | { readonly kind: 'missing' };

/** Whether the embedder generates vectors itself (every source but `userProvided`). */
export const generates = (embedder: EmbedderSettings): boolean => embedder.source !== 'userProvided';

/** The decision for a document that sent `sent` (undefined: nothing) while the store has `old`. */
export function decide(sent: SentEntry | undefined, old: DocVectors | undefined, embedder: EmbedderSettings): Decision {
  const generated = generates(embedder);
  if (sent !== undefined && sent.vectors !== null) {
    return { kind: 'set', vectors: sent.vectors, userProvided: true, regenerate: sent.form === 'object' && sent.regenerate };
  }
  if (sent !== undefined && sent.form === 'object') {
    if (sent.regenerate) return generated ? { kind: 'generate' } : { kind: 'missing' };
    return old !== undefined ? { kind: 'keep' } : { kind: 'set', vectors: [], userProvided: false, regenerate: false };
  }
  if (old !== undefined) return generated && old.regenerate ? { kind: 'generate' } : { kind: 'keep' };
  return generated ? { kind: 'generate' } : { kind: 'missing' };
}

export interface DocumentInput {
  readonly docid: number;
  /** external id, for errors */
  readonly id: string;
  /** the document as stored (without its configured embedders' entries) */
  readonly doc: JsonObject;
  readonly decision: Decision;
  readonly old: DocVectors | undefined;
}

/**
 * Applies the decisions of `inputs` through `writer`.
 * @param configured names of the configured embedders (for the misspelling hints)
 */
export function applyDecisions(settings: IndexSettings, writer: EmbedderWriter, embedder: EmbedderSettings, inputs: readonly DocumentInput[], configured: ReadonlySet<string>): void {
  const missing = inputs.filter((input) => input.decision.kind === 'missing');
  if (missing.length > 0) {
    throw missingVectorsError(
      writer.name,
      missing.map((input) => input.id),
      inputs.map((input) => input.doc),
      configured,
    );
  }
  for (const { docid, id, decision } of inputs) if (decision.kind === 'set') writer.put(docid, id, decision.vectors, decision);
  const generated = inputs.filter((input) => input.decision.kind === 'generate');
  if (hasFragments(embedder)) {
    generateFragmentVectors(writer, embedder, generated);
    return;
  }
  const texts: { input: DocumentInput; text: string }[] = [];
  const isSearchable = searchableMatcher(settings.searchableAttributes);
  for (const input of generated) {
    const { old } = input;
    const text = renderedOrSkipped(embedder, input, isSearchable);
    if (text === null) {
      // v1.50's ignore_document_template_failures: no text, so no embedding, and none kept
      if (old !== undefined) writer.remove(input.docid);
      continue;
    }
    // generated from the same text: the same vectors
    if (old !== undefined && !old.userProvided && old.text === text) continue;
    texts.push({ input, text });
  }
  if (texts.length === 0) return;
  embedDocuments(
    writer.name,
    embedder,
    texts.map((t) => t.text),
    (from, vectors) =>
      vectors.forEach((vector, i) => {
        const { input, text } = texts[from + i]!;
        // a request whose failure was ignored: its documents keep what they had, as in v1.50
        if (vector !== null) writer.put(input.docid, input.id, [vector], { userProvided: false, regenerate: true, text });
      }),
  );
}

/** The document's rendered template, or null when it does not render and the write ignores that (embed-hook.ts). */
function renderedOrSkipped(embedder: EmbedderSettings, input: DocumentInput, isSearchable: (field: string) => boolean): string | null {
  try {
    return renderDocumentTemplate(embedder, input.doc, { isSearchable, docId: input.id });
  } catch (error) {
    if (error instanceof ApiError && ignoresTemplateFailures()) return null;
    throw error;
  }
}
