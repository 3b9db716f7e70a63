/**
 * Roaring bitmaps in the portable serialization, as the task uid sets of cancelation and deletion
 * tasks appear in dumps (a JSON array of its bytes, dumps-snapshots-upgrade.md §3.4). Writes the
 * no-run format Meilisearch writes; reads it and the run-container format. Pure.
 */

const SERIAL_COOKIE_NO_RUN = 12346;
const SERIAL_COOKIE = 12347;
/** Containers with more values than this are bitmaps of 2^16 bits. */
const ARRAY_MAX = 4096;
const BITMAP_BYTES = 8192;
/** The run format writes container offsets only from this many containers on. */
const NO_OFFSET_THRESHOLD = 4;

/** The portable bytes of a set of u32 values (any order, duplicates ignored). */
export function encodeRoaring(values: readonly number[]): number[] {
  const sorted = [...new Set(values)].sort((a, b) => a - b);
  const containers: { key: number; lows: number[] }[] = [];
  for (const value of sorted) {
    const key = value >>> 16;
    const last = containers.at(-1);
    if (last?.key === key) last.lows.push(value & 0xffff);
    else containers.push({ key, lows: [value & 0xffff] });
  }
  const sizes = containers.map(({ lows }) => (lows.length > ARRAY_MAX ? BITMAP_BYTES : lows.length * 2));
  const headerBytes = 8 + containers.length * 8;
  const out = Buffer.alloc(headerBytes + sizes.reduce((a, b) => a + b, 0));
  out.writeUInt32LE(SERIAL_COOKIE_NO_RUN, 0);
  out.writeUInt32LE(containers.length, 4);
  let offset = headerBytes;
  containers.forEach(({ key, lows }, i) => {
    out.writeUInt16LE(key, 8 + i * 4);
    out.writeUInt16LE(lows.length - 1, 10 + i * 4);
    out.writeUInt32LE(offset, 8 + containers.length * 4 + i * 4);
    if (lows.length > ARRAY_MAX) {
      for (const low of lows) out[offset + (low >>> 3)]! |= 1 << (low & 7);
    } else {
      lows.forEach((low, j) => out.writeUInt16LE(low, offset + j * 2));
    }
    offset += sizes[i]!;
  });
  return [...out];
}

/** The values of a portable roaring bitmap, ascending; throws on bytes of no known format. */
export function decodeRoaring(bytes: readonly number[]): number[] {
  const buf = Buffer.from(bytes);
  const cookie = buf.readUInt32LE(0);
  let count: number;
  let pos: number;
  let runFlags: Buffer | null = null;
  if ((cookie & 0xffff) === SERIAL_COOKIE) {
    count = (cookie >>> 16) + 1;
    runFlags = buf.subarray(4, 4 + Math.ceil(count / 8));
    pos = 4 + runFlags.length;
  } else if (cookie === SERIAL_COOKIE_NO_RUN) {
    count = buf.readUInt32LE(4);
    pos = 8;
  } else {
    throw new Error(`not a roaring bitmap (cookie ${cookie})`);
  }
  const header = Array.from({ length: count }, (_, i) => ({
    key: buf.readUInt16LE(pos + i * 4),
    cardinality: buf.readUInt16LE(pos + i * 4 + 2) + 1,
    isRun: runFlags !== null && (runFlags[i >>> 3]! & (1 << (i & 7))) !== 0,
  }));
  pos += count * 4;
  if (runFlags === null || count >= NO_OFFSET_THRESHOLD) pos += count * 4;
  // Containers follow one another: reading them in order needs no offsets.
  const values: number[] = [];
  for (const { key, cardinality, isRun } of header) {
    const high = key * 0x10000;
    if (isRun) {
      const runs = buf.readUInt16LE(pos);
      pos += 2;
      for (let r = 0; r < runs; r++, pos += 4) {
        const start = buf.readUInt16LE(pos);
        const length = buf.readUInt16LE(pos + 2);
        for (let low = start; low <= start + length; low++) values.push(high + low);
      }
    } else if (cardinality > ARRAY_MAX) {
      for (let byte = 0; byte < BITMAP_BYTES; byte++) {
        const bits = buf[pos + byte]!;
        for (let bit = 0; bit < 8; bit++) if ((bits & (1 << bit)) !== 0) values.push(high + byte * 8 + bit);
      }
      pos += BITMAP_BYTES;
    } else {
      for (let j = 0; j < cardinality; j++, pos += 2) values.push(high + buf.readUInt16LE(pos));
    }
  }
  return values;
}
