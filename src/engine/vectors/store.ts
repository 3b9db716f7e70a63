/**
 * The vector store's records in the index environment (index-env.ts): what each embedder holds,
 * per document and per vector item. Reads work on any snapshot; writes run inside the index
 * write transaction.
 *
 * - main `vector-embedders`: embedder name → EmbedderState (a small id that prefixes its keys,
 *   the dimensions of what is stored, quantization, the HNSW entry point, counts);
 * - `vector-docs`: (embedder id, docid) → DocVectors: the document's item ids, whether they were
 *   given by the user and may be regenerated, and the text generated ones were embedded from;
 * - `vector-items`: (embedder id, item id) → docid u32 LE, then the vector: f32 LE values, or
 *   for a binary-quantized embedder its sign bits as the vector kernel packs them (kernels/vector.ts
 *   `binaryQuantize`, hannoy's codec; Meilisearch keeps only those too);
 * - `vector-links`: (embedder id, item id) → the item's HNSW node (hnsw.ts `encodeNode`).
 */
import { randomUUID } from 'node:crypto';
import { binaryQuantize } from '../../kernels/vector.js';
import type { IndexEnv } from '../index-env.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';

export interface EmbedderState {
  readonly id: number;
  /** dimensions of the stored vectors; 0 until the first one */
  dimensions: number;
  quantized: boolean;
  /** what generated vectors depend on besides the rendered text (states.ts `generationKey`) */
  generation: string;
  /** what the rendered texts depend on (states.ts `renderingKey`) */
  rendering: string;
  /** next item id never used; freed ids are reused first */
  nextItem: number;
  free: number[];
  /** HNSW entry point item, -1 when empty */
  entry: number;
  maxLevel: number;
  /** stored vectors and documents having at least one */
  items: number;
  documents: number;
}

export type EmbedderStates = Record<string, EmbedderState>;

/** One document's vectors for one embedder. */
export interface DocVectors {
  items: number[];
  userProvided: boolean;
  regenerate: boolean;
  /** the rendered template the vectors were generated from (generated vectors only) */
  text?: string;
}

export function readEmbedderStates(env: IndexReadEnv): EmbedderStates {
  return (env.main.get(INDEX_MAIN_KEYS.vectorEmbedders) as EmbedderStates | undefined) ?? {};
}

/** One write's changed items (graph nodes) per embedder id, from one vectors version to the next. */
export interface JournalEntry {
  readonly from: string;
  readonly to: string;
  readonly items: Record<number, number[]>;
}

/** Writes a search may patch its loaded graphs with, and the items they may name in all. */
const JOURNAL_ENTRIES = 32;
const JOURNAL_ITEMS = 100_000;

export function readJournal(env: IndexReadEnv): JournalEntry[] {
  return (env.main.get(INDEX_MAIN_KEYS.vectorsJournal) as JournalEntry[] | undefined) ?? [];
}

/**
 * Writes the states and a fresh vectors version. `changed` (embedder id → changed items) goes to
 * the journal, so searches patch the graphs they loaded; without it (a rebuild, a clear) the
 * journal restarts and searches reload them.
 */
export function writeEmbedderStates(env: IndexEnv, states: EmbedderStates, changed?: ReadonlyMap<number, Iterable<number>>): string {
  env.main.putSync(INDEX_MAIN_KEYS.vectorEmbedders, states);
  const from = readVectorsVersion(env) ?? '';
  const version = randomUUID();
  env.main.putSync(INDEX_MAIN_KEYS.vectorsVersion, version);
  let journal: JournalEntry[] = [];
  if (changed !== undefined) {
    const entry: JournalEntry = { from, to: version, items: Object.fromEntries([...changed].map(([id, items]) => [id, [...items]])) };
    journal = [...readJournal(env), entry].slice(-JOURNAL_ENTRIES);
    const size = (e: JournalEntry) => Object.values(e.items).reduce((sum, items) => sum + items.length, 0);
    while (journal.length > 0 && journal.reduce((sum, e) => sum + size(e), 0) > JOURNAL_ITEMS) journal.shift();
  }
  env.main.putSync(INDEX_MAIN_KEYS.vectorsJournal, journal);
  return version;
}

export function readVectorsVersion(env: IndexReadEnv): string | undefined {
  return env.main.get(INDEX_MAIN_KEYS.vectorsVersion) as string | undefined;
}

/** The smallest id no embedder state uses. */
export function freeEmbedderId(states: EmbedderStates): number {
  const used = new Set(Object.values(states).map((state) => state.id));
  let id = 0;
  while (used.has(id)) id++;
  return id;
}

export function key(embedder: number, id: number): Buffer {
  const out = Buffer.allocUnsafe(6);
  out.writeUInt16BE(embedder, 0);
  out.writeUInt32BE(id, 2);
  return out;
}

/** The key range of one embedder's records. */
export function embedderRange(embedder: number): { start: Buffer; end: Buffer } {
  return { start: key(embedder, 0), end: key(embedder + 1, 0) };
}

export function readDocVectors(env: IndexReadEnv, embedder: number, docid: number): DocVectors | undefined {
  return env.vectorDocs.get(key(embedder, docid)) as DocVectors | undefined;
}

export function writeDocVectors(env: IndexEnv, embedder: number, docid: number, entry: DocVectors | undefined): void {
  if (entry === undefined) env.vectorDocs.removeSync(key(embedder, docid));
  else env.vectorDocs.putSync(key(embedder, docid), entry);
}

/** Every document entry of an embedder, in docid order. */
export function* eachDocVectors(env: IndexReadEnv, embedder: number): Generator<{ docid: number; entry: DocVectors }> {
  for (const { key: k, value } of env.vectorDocs.getRange(embedderRange(embedder))) {
    yield { docid: (k as Buffer).readUInt32BE(2), entry: value as DocVectors };
  }
}

/** An item's stored value: docid u32 LE, then the f32 values, or the sign bits for a quantized embedder. */
export function encodeItem(docid: number, vector: Float32Array, quantized: boolean): Buffer {
  const body = quantized ? binaryQuantize(vector) : new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  const out = Buffer.allocUnsafe(4 + body.byteLength);
  out.writeUInt32LE(docid, 0);
  out.set(body, 4);
  return out;
}

/** An item's docid and vector as shown: its f32 values, or 1 and 0 for a quantized one's bits. */
export function decodeItem(bytes: Uint8Array, state: Pick<EmbedderState, 'dimensions' | 'quantized'>): { docid: number; vector: Float32Array } {
  const docid = (bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | (bytes[3]! << 24)) >>> 0;
  const vector = new Float32Array(state.dimensions);
  if (state.quantized) {
    for (let i = 0; i < state.dimensions; i++) vector[i] = (bytes[4 + (i >>> 3)]! >>> (i & 7)) & 1;
  } else {
    // a copy: lmdb's fast reads share one buffer
    new Uint8Array(vector.buffer).set(bytes.subarray(4, 4 + vector.byteLength));
  }
  return { docid, vector };
}

/**
 * The exact bytes of a value lmdb's `getBinaryFast` read: its buffer reports the value's `length`
 * but its `byteLength` spans lmdb's whole shared read buffer (16 MiB), which a copy would take.
 */
export function fastValue(bytes: Buffer): Uint8Array {
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
}

export function readItem(env: IndexReadEnv, state: EmbedderState, item: number): { docid: number; vector: Float32Array } | undefined {
  const bytes = env.vectorItems.getBinaryFast(key(state.id, item));
  return bytes === undefined ? undefined : decodeItem(fastValue(bytes), state);
}
