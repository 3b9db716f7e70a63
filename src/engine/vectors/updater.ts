/**
 * The vector store's IndexUpdater: a batch's document changes reach every configured embedder's
 * vectors inside the batch's write transaction (deleted documents lose theirs; added and
 * updated ones get what document-vectors.ts decides), and a settings write reconciles the store
 * with the embedders (reconcile.ts). Each write ends with a fresh vectors version and a journal of
 * the items it changed, from which searches patch the graphs they hold (graph-store.ts; a full
 * reload only when the journal does not reach back to their version).
 */
import { compareBytes } from '../../types/bytes.js';
import type { IndexSettings } from '../../types/settings.js';
import { sentVectors } from '../documents/vectors-indexing.js';
import type { IndexEnv } from '../index-env.js';
import type { IndexUpdater } from '../updater.js';
import { applyDecisions, decide, type DocumentInput } from './document-vectors.js';
import { EmbedderWriter } from './embedder-writer.js';
import { reconcileVectors } from './reconcile.js';
import { externalIds, stateFor } from './states.js';
import { readEmbedderStates, writeEmbedderStates } from './store.js';

export const vectorUpdater: IndexUpdater = {
  name: 'vectors',
  step: 'extracting embeddings',
  // every settings write reconciles the store with the embedders (registry.ts RECONCILING_UPDATERS)
  shape: () => null,

  apply(env: IndexEnv, settings: IndexSettings, changes, checkpoint = () => {}) {
    const names = Object.keys(settings.embedders).sort(compareBytes);
    if (names.length === 0 || changes.length === 0) return;
    const configured = new Set(names);
    const states = readEmbedderStates(env);
    let ids: Map<number, string> | undefined;
    const idOf = (docid: number, known: string | undefined) => known ?? (ids ??= externalIds(env)).get(docid) ?? String(docid);
    const writers: EmbedderWriter[] = [];
    const changed = new Map<number, number[]>();
    for (const name of names) {
      checkpoint();
      const embedder = settings.embedders[name]!;
      const writer = new EmbedderWriter(env, name, stateFor(states, name, embedder, settings));
      writers.push(writer);
      const inputs: DocumentInput[] = [];
      for (const change of changes) {
        if (change.after === undefined) {
          writer.remove(change.docid);
          continue;
        }
        const sent = sentVectors(change.source);
        const old = change.before === undefined ? undefined : writer.entry(change.docid);
        const decision = decide(sent?.entries.get(name), old, embedder);
        if (decision.kind === 'keep') continue;
        inputs.push({ docid: change.docid, id: idOf(change.docid, sent?.id), doc: change.after, decision, old });
      }
      applyDecisions(settings, writer, embedder, inputs, configured);
      changed.set(writer.state.id, writer.persist());
    }
    const version = writeEmbedderStates(env, states, changed);
    for (const writer of writers) writer.committed(version);
  },

  rebuild(env, settings, documents, checkpoint = () => {}) {
    reconcileVectors(env, settings, documents, checkpoint);
  },
};
