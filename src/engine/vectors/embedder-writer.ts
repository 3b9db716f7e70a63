/**
 * The writes to one embedder's vectors inside the index write transaction: a document's vectors
 * replaced or removed, with their items, the HNSW graph and the embedder's counts kept in step.
 * The first vector stored fixes the embedder's dimensions; a vector of other dimensions is
 * refused with Meilisearch's message. A binary-quantized embedder stores sign bits only.
 */
import { ApiError } from '../../errors/api-error.js';
import type { IndexEnv } from '../index-env.js';
import { wrongDimensions } from '../documents/vectors-indexing.js';
import { writeGraph, type GraphWrite } from './graph-store.js';
import {
  encodeItem,
  key,
  readDocVectors,
  readItem,
  writeDocVectors,
  type DocVectors,
  type EmbedderState,
} from './store.js';

export interface VectorStatus {
  readonly userProvided: boolean;
  readonly regenerate: boolean;
  /** the rendered template generated vectors come from */
  readonly text?: string;
  /** vectors generated from fragments: each one's fragment id and the digest of its rendered fragment */
  readonly parts?: readonly number[];
  readonly digests?: readonly string[];
}

export class EmbedderWriter {
  private write: GraphWrite | undefined;

  constructor(
    private readonly env: IndexEnv,
    readonly name: string,
    readonly state: EmbedderState,
  ) {}

  entry(docid: number): DocVectors | undefined {
    return readDocVectors(this.env, this.state.id, docid);
  }

  private graphWrite(): GraphWrite {
    this.write ??= writeGraph(this.env, this.state);
    return this.write;
  }

  /** A stored item's vector (f32 values, or 1 and 0 for a quantized embedder's bits). */
  storedVector(item: number): Float32Array {
    return readItem(this.env, this.state, item)!.vector;
  }

  /** Removes the document's vectors and entry. */
  remove(docid: number): void {
    const entry = this.entry(docid);
    if (entry === undefined) return;
    this.dropItems(entry);
    writeDocVectors(this.env, this.state.id, docid, undefined);
  }

  private dropItems(entry: DocVectors): void {
    if (entry.items.length === 0) return;
    const { graph } = this.graphWrite();
    for (const item of entry.items) {
      graph.delete(item);
      this.env.vectorItems.removeSync(key(this.state.id, item));
      this.state.free.push(item);
    }
    this.state.items -= entry.items.length;
    this.state.documents--;
  }

  /** Whether the stored items of `entry` hold exactly `vectors` (as stored: f32, or sign bits). */
  private holds(entry: DocVectors, vectors: readonly ArrayLike<number>[]): boolean {
    if (entry.items.length !== vectors.length) return false;
    return entry.items.every((item, i) => {
      const stored = readItem(this.env, this.state, item)?.vector;
      const wanted = vectors[i]!;
      return stored !== undefined && stored.every((x, j) => x === (this.state.quantized ? (wanted[j]! > 0 ? 1 : 0) : Math.fround(wanted[j]!)));
    });
  }

  /**
   * Sets the document's vectors (replacing any) and status; `id` is its external id, for errors.
   * Vectors equal to the stored ones are kept as they are.
   */
  put(docid: number, id: string, vectors: readonly ArrayLike<number>[], status: VectorStatus): void {
    const { state } = this;
    vectors.forEach((vector, i) => {
      // an empty vector has no dimensions to take or to match: it is refused like a wrong one
      if (vector.length === 0) throw emptyVector(id, this.name, i, state.dimensions);
      if (state.dimensions === 0) state.dimensions = vector.length;
      if (vector.length !== state.dimensions) throw wrongDimensions(id, this.name, i, vector.length, state.dimensions);
    });
    const entry = this.entry(docid);
    let items: number[];
    if (entry !== undefined && this.holds(entry, vectors)) {
      items = entry.items;
    } else {
      if (entry !== undefined) this.dropItems(entry);
      items = vectors.length === 0 ? [] : this.insert(docid, vectors);
    }
    const next: DocVectors = { items, userProvided: status.userProvided, regenerate: status.regenerate };
    if (status.text !== undefined) next.text = status.text;
    if (status.parts !== undefined) next.parts = [...status.parts];
    if (status.digests !== undefined) next.digests = [...status.digests];
    writeDocVectors(this.env, state.id, docid, next);
  }

  private insert(docid: number, vectors: readonly ArrayLike<number>[]): number[] {
    const { state } = this;
    const { graph } = this.graphWrite();
    const items = vectors.map((vector) => {
      const item = state.free.pop() ?? state.nextItem++;
      const values = Float32Array.from(vector);
      this.env.vectorItems.putSync(key(state.id, item), encodeItem(docid, values, state.quantized));
      graph.space.set(item, values);
      graph.insert(item, docid);
      return item;
    });
    state.items += items.length;
    state.documents++;
    return items;
  }

  /** Writes the graph's changed nodes; call once the batch's changes are applied. Answers the changed items. */
  persist(): number[] {
    return this.write?.persist() ?? [];
  }

  committed(version: string): void {
    this.write?.committed(version);
  }
}

function emptyVector(id: string, name: string, index: number, required: number): ApiError {
  if (required > 0) return wrongDimensions(id, name, index, 0, required);
  return new ApiError('invalid_vector_dimensions', `Invalid vector dimensions in document with id \`${id}\` in \`._vectors.${name}\`.\n  - note: embedding #${index} has dimensions 0`);
}
