import { describe, expect, it } from 'vitest';
import { parseByteSize } from '../../../src/config/byte-size.js';

describe('parseByteSize', () => {
  it.each([
    ['1073741824', 1_073_741_824],
    ['0', 0],
    ['100 MB', 100_000_000],
    ['100MB', 100_000_000],
    ['100   MB', 100_000_000],
    ['  100 MB  ', 100_000_000],
    ['2Gb', 2_000_000_000],
    ['2gb', 2_000_000_000],
    ['1 kb', 1000],
    ['1K', 1000],
    ['512 B', 512],
    ['512b', 512],
    ['1 KiB', 1024],
    ['1kib', 1024],
    ['1Ki', 1024],
    ['10 MiB', 10 * 1024 ** 2],
    ['1 GiB', 1024 ** 3],
    ['2 TB', 2 * 1000 ** 4],
    ['1 TiB', 1024 ** 4],
    ['1.5 KiB', 1536],
    ['1.1 GB', 1_100_000_000],
    ['107.7Gb', 107_700_000_000],
  ])('reads %j as %d bytes', (input, bytes) => {
    expect(parseByteSize(input)).toBe(bytes);
  });

  it('rounds a fractional byte count up, as byte_unit does', () => {
    expect(parseByteSize('1.5')).toBe(2);
    expect(parseByteSize('0.0001 KB')).toBe(1);
  });

  it.each(['', 'MB', '-1', '-1 MB', '1,5 MB', '1.', '.5 MB', '10 parsecs', '1 Mbit', '1 MBB', '1 iB', '0x10', '1e3', '1 PB'])(
    'rejects %j with a reason that shows the accepted forms',
    (input) => {
      expect(() => parseByteSize(input)).toThrow(/expected a number of bytes, optionally followed by a unit/);
    },
  );

  it('rejects sizes beyond the safe integer range', () => {
    expect(() => parseByteSize('9007199254740992')).toThrow('the size is too large');
    expect(() => parseByteSize('10000 TiB')).toThrow('the size is too large');
    expect(parseByteSize('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
  });
});
