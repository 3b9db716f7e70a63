/**
 * Compressed bombs: small gzip, deflate and brotli bodies that expand far beyond the payload
 * limit the fuzzed server runs with. Built once per process (compressing takes a while).
 */
import zlib from 'node:zlib';

export interface Bomb {
  encoding: 'gzip' | 'deflate' | 'br';
  body: Buffer;
}

/** What each bomb expands to: a JSON array opened and never closed, then spaces. */
const EXPANDED_BYTES = 64 * 1024 * 1024;

let built: readonly Bomb[] | undefined;

export function bombs(): readonly Bomb[] {
  if (built !== undefined) return built;
  const plain = Buffer.alloc(EXPANDED_BYTES, ' ');
  plain.write('[{"id":1,"title":"');
  built = [
    { encoding: 'gzip', body: zlib.gzipSync(plain, { level: 9 }) },
    { encoding: 'deflate', body: zlib.deflateSync(plain, { level: 9 }) },
    { encoding: 'br', body: zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }) },
  ];
  return built;
}
