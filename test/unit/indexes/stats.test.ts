import { describe, expect, it } from 'vitest';
import { databaseSizeChanges, humanBinarySize } from '../../../src/indexes/stats.js';

describe('humanBinarySize', () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1536, '1.5 KiB'],
    [10_000, '9.77 KiB'],
    [3 * 2 ** 20, '3 MiB'],
  ])('%d bytes → %s', (bytes, text) => expect(humanBinarySize(bytes)).toBe(text));
});

describe('databaseSizeChanges', () => {
  it('shows each changed database as its new size and the signed change, in the databases order', () => {
    expect(databaseSizeChanges({ documents: 4096, main: 4096 }, { main: 8192, documents: 0, wordDocids: 1536 })).toStrictEqual({
      main: '8 KiB (+4 KiB)',
      documents: '0 B (-4 KiB)',
      wordDocids: '1.5 KiB (+1.5 KiB)',
    });
  });

  it('leaves out the databases whose size did not change', () => {
    expect(databaseSizeChanges({ main: 4096 }, { main: 4096 })).toStrictEqual({});
  });
});
