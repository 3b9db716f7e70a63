/**
 * The browser's `node:crypto`, for the two functions the search side imports from it: random
 * uuids (a store's version stamps, never written here) and random bytes (uuid-v7.ts, each
 * answer's `requestUid`), both from the Web Crypto API.
 */
export function randomUUID(): string {
  return globalThis.crypto.randomUUID();
}

export function randomFillSync<T extends ArrayBufferView>(buffer: T): T {
  // getRandomValues fills at most 65,536 bytes per call
  const bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  for (let at = 0; at < bytes.length; at += 65_536) globalThis.crypto.getRandomValues(bytes.subarray(at, at + 65_536));
  return buffer;
}
