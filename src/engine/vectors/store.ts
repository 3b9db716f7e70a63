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
 *   for a binary-quantized embedder its sign bits packed in u32 LE words (bit i of word i/32 set
 *   when component i > 0; Meilisearch keeps only those too);
 * - `vector-links`: (embedder id, item id) → the item's HNSW node (hnsw.ts `encodeNode`).
 */
import { randomUUID } from 'node:crypto';
import { INDEX_MAIN_KEYS, type IndexEnv } from '../index-env.js';

export interface EmbedderState {
  readonly id: number;
  /** dimensions of the stored vectors; 0 until the first one */
  dimensions: number;
  quantized: boolean;
  /** what generated vectors depend on besides the rendered text (updater.ts `generationKey`) */
  generation: string;
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

export function readEmbedderStates(env: IndexEnv): EmbedderStates {
  return (env.main.get(INDEX_MAIN_KEYS.vectorEmbedders) as EmbedderStates | undefined) ?? {};
}

/** Writes the states and a fresh vectors version (searches reload their graphs). */
export function writeEmbedderStates(env: IndexEnv, states: EmbedderStates): string {
  env.main.putSync(INDEX_MAIN_KEYS.vectorEmbedders, states);
  const version = randomUUID();
  env.main.putSync(INDEX_MAIN_KEYS.vectorsVersion, version);
  return version;
}

export function readVectorsVersion(env: IndexEnv): string | undefined {
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

export function readDocVectors(env: IndexEnv, embedder: number, docid: number): DocVectors | undefined {
  return env.vectorDocs.get(key(embedder, docid)) as DocVectors | undefined;
}

export function writeDocVectors(env: IndexEnv, embedder: number, docid: number, entry: DocVectors | undefined): void {
  if (entry === undefined) env.vectorDocs.removeSync(key(embedder, docid));
  else env.vectorDocs.putSync(key(embedder, docid), entry);
}

/** Every document entry of an embedder, in docid order. */
export function* eachDocVectors(env: IndexEnv, embedder: number): Generator<{ docid: number; entry: DocVectors }> {
  for (const { key: k, value } of env.vectorDocs.getRange(embedderRange(embedder))) {
    yield { docid: (k as Buffer).readUInt32BE(2), entry: value as DocVectors };
  }
}

/** u32 words holding the sign bits of a `dimensions` vector. */
export const bitWords = (dimensions: number): number => Math.ceil(dimensions / 32);

/** The sign bits of `vector`: bit i set when component i > 0. */
export function quantize(vector: ArrayLike<number>): Uint32Array {
  const bits = new Uint32Array(bitWords(vector.length));
  for (let i = 0; i < vector.length; i++) if (vector[i]! > 0) bits[i >>> 5]! |= 1 << (i & 31);
  return bits;
}

/** What a quantized vector shows: 1 for a set bit, 0 otherwise. */
export function dequantize(bits: Uint32Array, dimensions: number): Float32Array {
  const out = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) out[i] = (bits[i >>> 5]! >>> (i & 31)) & 1;
  return out;
}

export function encodeItem(docid: number, vector: Float32Array | Uint32Array): Buffer {
  const out = Buffer.allocUnsafe(4 + vector.byteLength);
  out.writeUInt32LE(docid, 0);
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).copy(out, 4);
  return out;
}

/** An item's docid and its vector (a copy, f32 or bit words as stored). */
export function decodeItem(bytes: Uint8Array, quantized: boolean): { docid: number; vector: Float32Array | Uint32Array } {
  const docid = bytes[0]! | (bytes[1]! << 8) | (bytes[2]! << 16) | ((bytes[3]! << 24) >>> 0);
  // a copy: lmdb's fast reads share one buffer, and Buffer#slice is a view
  const body = new Uint8Array(bytes.subarray(4));
  const vector = quantized ? new Uint32Array(body.buffer, body.byteOffset, body.byteLength >>> 2) : new Float32Array(body.buffer, body.byteOffset, body.byteLength >>> 2);
  return { docid: docid >>> 0, vector };
}

export function readItem(env: IndexEnv, state: EmbedderState, item: number): { docid: number; vector: Float32Array | Uint32Array } | undefined {
  const bytes = env.vectorItems.getBinaryFast(key(state.id, item));
  return bytes === undefined ? undefined : decodeItem(bytes, state.quantized);
}
