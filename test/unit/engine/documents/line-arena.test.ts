// Payload lines kept until a chunk is written: each copy holds its bytes whatever is kept after
// it, a reset lets the blocks take new lines, and a line longer than a block is kept whole.
import { describe, expect, it } from 'vitest';
import { LineArena } from '../../../../src/engine/documents/line-arena.js';
import { mulberry32 } from '../../../helpers/random.js';

describe('LineArena', () => {
  it('keeps every line as it was, across blocks, however the source buffer changes after', () => {
    const random = mulberry32(7);
    const arena = new LineArena();
    for (let round = 0; round < 3; round++) {
      const source = Buffer.alloc(70_000);
      const kept: [Buffer, string][] = [];
      // about 3 MB a round: several blocks, reused after each reset
      for (let i = 0; i < 100; i++) {
        const line = Buffer.from(`{"id":${i},"r":${round},"x":"${'é'.repeat(Math.floor(random() * 15_000))}"}`);
        line.copy(source);
        kept.push([arena.keep(source.subarray(0, line.length)), line.toString('utf8')]);
        source.fill(0x20);
      }
      for (const [copy, text] of kept) expect(copy.toString('utf8')).toBe(text);
      arena.reset();
    }
  });

  it('keeps a line longer than a block in a buffer of its own', () => {
    const arena = new LineArena();
    const short = arena.keep(Buffer.from('{"id":1}'));
    const long = Buffer.from(`{"id":2,"x":"${'a'.repeat(1 << 21)}"}`);
    const copy = arena.keep(long);
    expect(copy.equals(long)).toBe(true);
    expect(copy.buffer).not.toBe(short.buffer);
    expect(short.toString()).toBe('{"id":1}');
  });
});
