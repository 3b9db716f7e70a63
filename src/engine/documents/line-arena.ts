/**
 * Copies of payload lines a write keeps until its chunk is written (the documents stored as the
 * line's bytes, documents/store.ts), in blocks reused from one chunk to the next. The payload is
 * read a block at a time into one buffer (ndjson-payload.ts); keeping lines in place had every
 * megabyte of every payload read into a block of its own, and on a virtual machine where each
 * first touch of a page traps (~10 µs here) those pages cost the writer page faults it no
 * longer takes (about 2,000 fewer in a cold movies load). `reset` makes every block free again:
 * the lines kept before must not be read after it.
 */

const BLOCK_BYTES = 1 << 20;

export class LineArena {
  private readonly blocks: Buffer[] = [];
  /** the block lines are copied into, and how much of it they took */
  private current = 0;
  private used = 0;

  /** A copy of `line`, valid until `reset`. */
  keep(line: Uint8Array): Buffer {
    // a line longer than a block gets a buffer of its own
    if (line.length > BLOCK_BYTES) return Buffer.from(line);
    let block = this.blocks[this.current];
    if (block === undefined || this.used + line.length > block.length) {
      if (block !== undefined) this.current++;
      block = this.blocks[this.current] ??= Buffer.allocUnsafe(BLOCK_BYTES);
      this.used = 0;
    }
    const start = this.used;
    block.set(line, start);
    this.used = start + line.length;
    return block.subarray(start, this.used);
  }

  /** Every line kept so far is let go: their blocks take the next ones. */
  reset(): void {
    this.current = 0;
    this.used = 0;
  }
}
