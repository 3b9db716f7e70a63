/**
 * A batch vocabulary looked up by the normalised UTF-8 bytes the tokenizer kernel writes: an
 * open-addressing table of FNV-1a hashes compared byte for byte, so a token costs no string
 * allocation nor string hashing (twice as fast as a Map of strings sliced per token). A word's
 * key string (latin1 of its bytes, see extract.ts) is made once, when `keys` is first read after
 * the word was added: an extraction worker, which hands its vocabulary over as bytes, makes none.
 */
import { grownInt32, grownUint8 } from '../grown.js';

/** A vocabulary as bytes, as ByteVocabulary.export gives it (what an extraction worker hands over). */
export interface VocabularyBytes {
  readonly bytes: Uint8Array;
  readonly starts: Int32Array;
  readonly lengths: Int32Array;
}

export class ByteVocabulary {
  private readonly keyStrings: string[] = [];
  private count = 0;
  private slots = new Int32Array(1 << 12);
  private hashes = new Int32Array(1 << 10);
  private starts = new Int32Array(1 << 10);
  private lengths = new Int32Array(1 << 10);
  private bytes = new Uint8Array(1 << 14);
  private used = 0;

  /** id → word key, for every word added so far */
  get keys(): readonly string[] {
    const { keyStrings, count } = this;
    if (keyStrings.length < count) {
      const view = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.used);
      for (let id = keyStrings.length; id < count; id++) keyStrings.push(view.toString('latin1', this.starts[id]!, this.starts[id]! + this.lengths[id]!));
    }
    return keyStrings;
  }

  /** How many words it holds. */
  get size(): number {
    return this.count;
  }

  /** The id of the word in `source[start, start + length)`, added if new. */
  idOf(source: Uint8Array, start: number, length: number): number {
    let hash = 0x811c9dc5 | 0;
    for (let i = start; i < start + length; i++) hash = Math.imul(hash ^ source[i]!, 0x01000193);
    const mask = this.slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) {
        const id = this.add(source, start, length, hash);
        this.slots[slot] = id + 1;
        if (2 * this.count > this.slots.length) this.rehash();
        return id;
      }
      const id = entry - 1;
      if (this.hashes[id] === hash && this.lengths[id] === length && this.equals(id, source, start, length)) return id;
    }
  }

  /** Every word's bytes: id → bytes[starts[id], starts[id] + lengths[id]) (views, valid until the next idOf). */
  export(): VocabularyBytes {
    const count = this.count;
    return { bytes: this.bytes.subarray(0, this.used), starts: this.starts.subarray(0, count), lengths: this.lengths.subarray(0, count) };
  }

  private equals(id: number, source: Uint8Array, start: number, length: number): boolean {
    const bytes = this.bytes;
    const at = this.starts[id]!;
    for (let i = 0; i < length; i++) if (bytes[at + i] !== source[start + i]) return false;
    return true;
  }

  private add(source: Uint8Array, start: number, length: number, hash: number): number {
    const id = this.count;
    if (id === this.hashes.length) {
      this.hashes = grownInt32(this.hashes, 2 * id);
      this.starts = grownInt32(this.starts, 2 * id);
      this.lengths = grownInt32(this.lengths, 2 * id);
    }
    if (this.used + length > this.bytes.length) this.bytes = grownUint8(this.bytes, Math.max(2 * this.bytes.length, this.used + length));
    this.bytes.set(source.subarray(start, start + length), this.used);
    this.hashes[id] = hash;
    this.starts[id] = this.used;
    this.lengths[id] = length;
    this.used += length;
    this.count = id + 1;
    return id;
  }

  private rehash(): void {
    const slots = new Int32Array(2 * this.slots.length);
    const mask = slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hashes[id]! & mask;
      while (slots[slot] !== 0) slot = (slot + 1) & mask;
      slots[slot] = id + 1;
    }
    this.slots = slots;
  }
}
