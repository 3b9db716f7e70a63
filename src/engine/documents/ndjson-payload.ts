/**
 * Reads a task payload (NDJSON, one document per line, as the payload parsers write it)
 * synchronously: the index writer reads it inside a write transaction, whose callback cannot
 * await. A file is read in fixed-size blocks, so memory stays bounded by the block and one line.
 * Lines split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 character.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { PayloadSource } from '../../store/update-files.js';
import { parseJson } from '../../types/json-text.js';
import type { JsonObject } from './document-id.js';

const BLOCK_BYTES = 1 << 20;

/** The payload's size in bytes. */
export function payloadBytes(source: PayloadSource): number {
  return 'file' in source ? statSync(source.file).size : source.bytes.byteLength;
}

/**
 * The payload's lines, empty ones skipped, as byte ranges of a buffer that stays valid only
 * until the next line is taken (a file is read a block at a time).
 */
export function ndjsonLines(source: PayloadSource): Generator<{ buffer: Buffer; start: number; end: number }> {
  return 'file' in source ? fileLines(source.file) : bytesLines(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength));
}

export function* readNdjson(source: PayloadSource): Generator<JsonObject> {
  for (const { buffer, start, end } of ndjsonLines(source)) yield parseJson(buffer.toString('utf8', start, end)) as JsonObject;
}

function* bytesLines(bytes: Buffer): Generator<{ buffer: Buffer; start: number; end: number }> {
  let start = 0;
  for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
    if (nl > start) yield { buffer: bytes, start, end: nl };
    start = nl + 1;
  }
  if (bytes.length > start) yield { buffer: bytes, start, end: bytes.length };
}

function* fileLines(path: string): Generator<{ buffer: Buffer; start: number; end: number }> {
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
        if (nl > start) yield { buffer: block, start, end: nl };
        start = nl + 1;
      }
      if (read === 0) {
        if (end > start) yield { buffer: block, start, end };
        return;
      }
      block.copy(block, 0, start, end);
      kept = end - start;
    }
  } finally {
    closeSync(fd);
  }
}
