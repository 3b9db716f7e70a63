/**
 * A settings write brings the vector store in line with the embedders (vectors.md §2.1, §3.5),
 * doing only what the change requires:
 * - a removed embedder: the embeddings of every document that must not regenerate them go back
 *   into it as `_vectors.<name> = {"regenerate": false, "embeddings": [[…]]}` (none for a document
 *   sent with `{"regenerate": false}` alone: `[]`), as v1.50's settings indexer writes back every
 *   entry whose `regenerate` is false, then its records go;
 * - an added embedder: each document's stored `_vectors.<name>` (kept while the name was no
 *   embedder) is consumed as what the document sent, the others are generated (or, for a
 *   `userProvided` embedder, fail the write);
 * - `binaryQuantized` turned on: the stored vectors become sign bits and the graph is rebuilt;
 * - a generated embedder whose template, template byte limit, searchable fields or indexing
 *   fragments changed: documents whose rendered text (or fragment) changed are embedded again, a
 *   removed fragment's vectors go; all its generated vectors when what they depend on changed
 *   (states.ts `generationKey`);
 * - an emptied index: every embedder's records go;
 * - an index without documents: each embedder's state takes its configuration as it is (what is
 *   compared with the next change, whether the vectors documents bring are quantized).
 */
import { compareBytes } from '../../types/bytes.js';
import type { IndexSettings } from '../../types/settings.js';
import type { JsonObject } from '../document-id.js';
import { DocumentStore } from '../documents/store.js';
import { isObject } from '../documents/vectors.js';
import { storedEntry } from '../documents/vectors-indexing.js';
import type { IndexEnv } from '../index-env.js';
import { applyDecisions, decide, generates, type DocumentInput } from './document-vectors.js';
import { EmbedderWriter } from './embedder-writer.js';
import { forgetGraph, writeGraph } from './graph-store.js';
import { externalIds, generationKey, renderingKey, stateFor, syncFragmentIds } from './states.js';
import {
  decodeItem,
  eachDocVectors,
  embedderRange,
  encodeItem,
  readEmbedderStates,
  readItem,
  writeEmbedderStates,
  type EmbedderState,
} from './store.js';
import { withFloatItems, withFloatsOf } from '../../types/wire-floats.js';

/** Documents whose generated vectors are embedded per call of the document embedder. */
const EMBED_CHUNK = 1_000;

/** Removes every record of `state`'s embedder. */
function dropRecords(env: IndexEnv, state: EmbedderState): void {
  for (const db of [env.vectorDocs, env.vectorItems, env.vectorLinks]) {
    for (const k of Array.from(db.getKeys(embedderRange(state.id)))) db.removeSync(k as Buffer);
  }
  forgetGraph(env, state);
}

function reset(state: EmbedderState): void {
  Object.assign(state, { dimensions: 0, nextItem: 0, free: [], entry: -1, maxLevel: -1, items: 0, documents: 0 });
}

/** The embeddings of `state`'s embedder that must not be regenerated, back into their documents (in `rewrites`). */
function writeBack(env: IndexEnv, name: string, state: EmbedderState, rewrites: Map<number, JsonObject>): void {
  for (const { docid, entry } of eachDocVectors(env, state.id)) {
    if (entry.regenerate) continue;
    // f32 vectors, which v1.50 writes back as floats (`1.0`)
    const embeddings = entry.items.map((item) => withFloatItems(Array.from(readItem(env, state, item)!.vector)));
    const doc = rewrites.get(docid) ?? env.documents.get(docid);
    if (doc === undefined) continue;
    const vectors = isObject(doc._vectors) ? doc._vectors : {};
    rewrites.set(docid, withFloatsOf(doc, { ...doc, _vectors: { ...vectors, [name]: { regenerate: false, embeddings } } }));
  }
}

/** Turns the stored vectors of `state`'s embedder into sign bits. */
function quantizeAll(env: IndexEnv, state: EmbedderState): void {
  // read before writing: no write under an open cursor
  const items = Array.from(env.vectorItems.getRange(embedderRange(state.id)), ({ key: k, value }) => ({ k: k as Buffer, ...decodeItem(value, state) }));
  for (const { k, docid, vector } of items) env.vectorItems.putSync(k, encodeItem(docid, vector, true));
  state.quantized = true;
}

/** Builds `state`'s graph again from its items; answers the write to tag once committed. */
function rebuildGraph(env: IndexEnv, state: EmbedderState): ReturnType<typeof writeGraph> {
  for (const k of Array.from(env.vectorLinks.getKeys(embedderRange(state.id)))) env.vectorLinks.removeSync(k as Buffer);
  forgetGraph(env, state);
  state.entry = -1;
  state.maxLevel = -1;
  const write = writeGraph(env, state);
  for (const { key: k, value } of env.vectorItems.getRange(embedderRange(state.id))) {
    write.graph.insert((k as Buffer).readUInt32BE(2), decodeItem(value, state).docid);
  }
  write.persist();
  return write;
}

export function reconcileVectors(env: IndexEnv, settings: IndexSettings, documents: Iterable<{ docid: number; doc: JsonObject }>, checkpoint: () => void): void {
  const states = readEmbedderStates(env);
  const names = Object.keys(settings.embedders).sort(compareBytes);
  const configured = new Set(names);
  if (names.length === 0 && Object.keys(states).length === 0) return;
  const empty = env.documents.getCount() === 0;
  let ids: Map<number, string> | undefined;
  const idOf = (docid: number) => (ids ??= externalIds(env)).get(docid) ?? String(docid);
  const rewrites = new Map<number, JsonObject>();
  const written: { committed(version: string): void }[] = [];

  for (const [name, state] of Object.entries(states)) {
    if (configured.has(name) && !empty) continue;
    if (!empty) writeBack(env, name, state, rewrites);
    dropRecords(env, state);
    if (configured.has(name)) reset(state);
    else delete states[name];
  }

  for (const name of names) {
    checkpoint();
    const embedder = settings.embedders[name]!;
    const isNew = !Object.hasOwn(states, name);
    const state = stateFor(states, name, embedder, settings);
    if (empty) {
      // nothing stored to convert or embed again, but what later documents are embedded and
      // stored with is the embedder as it is now: a state kept from an earlier configuration
      // left later changes back to it unseen (no re-embedding), and `binaryQuantized` ignored
      Object.assign(state, { generation: generationKey(embedder), rendering: renderingKey(embedder, settings), quantized: embedder.binaryQuantized === true });
      syncFragmentIds(state, embedder, true);
      continue;
    }
    if (embedder.binaryQuantized === true && !state.quantized) {
      quantizeAll(env, state);
      if (state.items > 0) written.push(rebuildGraph(env, state));
    }
    const regenerateAll = state.generation !== generationKey(embedder);
    const rerender = state.rendering !== renderingKey(embedder, settings);
    syncFragmentIds(state, embedder, regenerateAll);
    state.generation = generationKey(embedder);
    state.rendering = renderingKey(embedder, settings);
    if (!isNew && !(generates(embedder) && (regenerateAll || rerender))) continue;
    const writer = new EmbedderWriter(env, name, state);
    let inputs: DocumentInput[] = [];
    const flush = () => {
      applyDecisions(settings, writer, embedder, inputs, configured);
      inputs = [];
      checkpoint();
    };
    for (const { docid, doc: walked } of documents) {
      let doc = rewrites.get(docid) ?? walked;
      let input: DocumentInput;
      if (isNew) {
        const vectors = isObject(doc._vectors) ? doc._vectors : {};
        const sent = Object.hasOwn(vectors, name) ? storedEntry(vectors[name], name, embedder, idOf(docid)) : undefined;
        if (sent !== undefined) {
          const { [name]: _consumed, ...others } = vectors;
          const { _vectors: _old, ...fields } = doc;
          doc = withFloatsOf(doc, Object.keys(others).length === 0 ? fields : { ...fields, _vectors: others });
          rewrites.set(docid, doc);
        }
        input = { docid, id: '', doc, decision: decide(sent, undefined, embedder), old: undefined };
      } else {
        const old = writer.entry(docid);
        // stale generated vectors: as if their text had changed
        const known = old !== undefined && regenerateAll && !old.userProvided ? { ...old, text: undefined, digests: undefined } : old;
        input = { docid, id: '', doc, decision: decide(undefined, known, embedder), old: known };
      }
      if (input.decision.kind === 'keep') continue;
      inputs.push({ ...input, id: idOf(docid) });
      if (generates(embedder) && inputs.length >= EMBED_CHUNK) flush();
    }
    flush();
    writer.persist();
    written.push(writer);
  }

  if (rewrites.size > 0) {
    const changes = new Map<string, JsonObject>();
    for (const [docid, doc] of rewrites) changes.set(idOf(docid), doc);
    new DocumentStore(env).apply(changes, false);
  }
  const version = writeEmbedderStates(env, states);
  for (const write of written) write.committed(version);
}
