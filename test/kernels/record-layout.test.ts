// The record-laying kernel against its TS reference: a fixed record pins the laid layout, seeded
// random records (runs of one word, truncated records, counts that overstate what is stored)
// check the two agree, and spans outside memory or overlapping the room are refused.
import { describe, expect, it } from 'vitest';

import { getKernels, KernelStatus } from '../../src/kernels/module.js';
import { laidRoom, RecordArena } from '../../src/kernels/record-arena.js';
import { referenceLayRecord } from '../../src/kernels/reference/record-layout.js';
import { mulberry32 } from '../helpers/random.js';

/** Lays `stored` (u32 words) in `arena` and reads back the laid words. */
function layWords(arena: RecordArena, stored: readonly number[]): { head: number; laid: number[] } {
  const bytes = new Uint8Array(Uint32Array.from(stored).buffer);
  const head = arena.lay(bytes.buffer, bytes.byteOffset, bytes.length);
  const reference = referenceLayRecord(stored, head);
  return { head, laid: Array.from(arena.u32.subarray(head, head + reference.length)) };
}

describe('record layout kernel', () => {
  it('lays the header, then the distinct word ids, their run starts and the places', () => {
    const arena = new RecordArena();
    // fields 0 (2 words) and 1 (3 words); word 4 once, word 7 three times, word 9 once
    const stored = [2, (0 << 16) | 2, (1 << 16) | 3, 5, 4, 2, 7, 0, 7, (1 << 16) | 2, 7, (1 << 16) | 0, 9, 1];
    const { head, laid } = layWords(arena, stored);
    const places = head + 5 + 3 + 4;
    expect(laid).toEqual([2, 2, (1 << 16) | 3, 5, 3, 4, 7, 9, places, places + 1, places + 4, places + 5, 2, 0, (1 << 16) | 2, (1 << 16) | 0, 1]);
  });

  it('matches the reference on random records, cut or overstated ones included, one after the other', () => {
    const random = mulberry32(20261130);
    const arena = new RecordArena();
    for (let n = 0; n < 500; n++) {
      const nFields = Math.floor(random() * 4);
      const fields = Array.from({ length: nFields }, () => Math.floor(random() * 2 ** 32));
      const pairs: number[] = [];
      let id = Math.floor(random() * 50);
      const tokens = Math.floor(random() * 60);
      for (let t = 0; t < tokens; t++) {
        if (random() < 0.6) id += 1 + Math.floor(random() * 1000);
        pairs.push(id, Math.floor(random() * 2 ** 32));
      }
      const counted = random() < 0.1 ? tokens + 1 + Math.floor(random() * 5) : tokens;
      let stored = [random() < 0.05 ? nFields + 3 : nFields, ...fields, counted, ...pairs];
      if (random() < 0.1) stored = stored.slice(0, Math.floor(random() * stored.length));
      const { head, laid } = layWords(arena, stored);
      expect(laid, `record ${n}`).toEqual(referenceLayRecord(stored, head));
    }
  });

  it('refuses a stored record outside memory or a room running into it', () => {
    const kernels = getKernels();
    const { layRecord } = kernels.exports as unknown as { layRecord(src: number, stored: number, head: number): number };
    const memoryU32 = kernels.exports.memory.buffer.byteLength / 4;
    const base = kernels.arena.base / 4 + 16;
    expect(layRecord(memoryU32 - 2, 4, base)).toBe(KernelStatus.BadSpan);
    expect(layRecord(base + laidRoom(8) - 1, 8, base)).toBe(KernelStatus.BadSpan);
    expect(layRecord(base + laidRoom(8), 8, base)).toBeGreaterThan(base);
  });
});
