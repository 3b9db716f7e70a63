/**
 * Reads a task payload (NDJSON, one document per line, as the payload parsers write it)
 * synchronously: the index writer reads it inside a write transaction, whose callback cannot
 * await. A file is read in fixed-size blocks, so memory stays bounded by the block and one line.
 * Lines split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 character.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { PayloadSource } from '../../store/update-files.js';
import type { JsonObject } from './document-id.js';

const BLOCK_BYTES = 1 << 20;

/** The payload's size in bytes. */
export function payloadBytes(source: PayloadSource): number {
  return 'file' in source ? statSync(source.file).size : source.bytes.byteLength;
}

export function readNdjson(source: PayloadSource): Generator<JsonObject> {
  return 'file' in source ? readNdjsonFile(source.file) : readNdjsonBytes(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength));
}

function* readNdjsonBytes(bytes: Buffer): Generator<JsonObject> {
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    if (nl > start) yield JSON.parse(bytes.toString('utf8', start, nl)) as JsonObject;
    start = nl + 1;
  }
  if (bytes.length > start) yield JSON.parse(bytes.toString('utf8', start)) as JsonObject;
}

function* readNdjsonFile(path: string): Generator<JsonObject> {
  const fd = openSync(path, 'r');
  try {
    let block = Buffer.allocUnsafe(BLOCK_BYTES);
    let kept = 0; // bytes of an unfinished line carried over at the start of `block`
    for (;;) {
      if (kept === block.length) {
        const grown = Buffer.allocUnsafe(block.length * 2);
        block.copy(grown, 0, 0, kept);
        block = grown;
      }
      const read = readSync(fd, block, kept, block.length - kept, null);
      const end = kept + read;
      let start = 0;
      for (let nl = block.indexOf(0x0a, kept); nl !== -1 && nl < end; nl = block.indexOf(0x0a, start)) {
        if (nl > start) yield JSON.parse(block.toString('utf8', start, nl)) as JsonObject;
        start = nl + 1;
      }
      if (read === 0) {
        if (end > start) yield JSON.parse(block.toString('utf8', start, end)) as JsonObject;
        return;
      }
      block.copy(block, 0, start, end);
      kept = end - start;
    }
  } finally {
    closeSync(fd);
  }
}
