/**
 * RFC 9562 UUID version 7: 48-bit Unix milliseconds, version 7, variant 10, random bits, so ids
 * sort by time. Every search answers one (`requestUid`): random bytes are drawn 4 KiB at a time,
 * as one `randomBytes` call per id cost more than the rest of the id. The nil UUID is the
 * network version of an instance that never had a network (and of records written before one).
 */
import { randomFillSync } from 'node:crypto';

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

const pool = Buffer.alloc(4096);
let next = pool.length;

export function uuidV7(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const bytes = pool.subarray(next, next + 16);
  next += 16;
  bytes.writeUIntBE(Date.now(), 0, 6);
  bytes[6] = (bytes[6]! & 0x0f) | 0x70;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
