/**
 * Reads a task payload (NDJSON, one document per line, as the payload parsers write it)
 * synchronously: the index writer reads it inside a write transaction, whose callback cannot
 * await. A file is read in fixed-size blocks, so memory stays bounded by the block and one line,
 * plus, for `readNdjson`, whatever documents the caller keeps: their text keeps its block (the
 * writer stores a line's bytes as its document's, store/json-documents.ts).
 * Lines split on the byte 0x0A, which never occurs inside a multi-byte UTF-8 character.
 * A document nested deeper than a document may (depth.ts) is refused before it is parsed.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import type { PayloadSource } from '../../store/update-files.js';
import { parseJson } from '../../types/json-text.js';
import type { JsonObject } from '../document-id.js';
import { documentTooDeep, tooDeepAt } from './depth.js';
import { fieldPathTooLong } from './field-paths.js';
import { longPathAt } from '../../types/json-paths.js';

const BLOCK_BYTES = 1 << 20;

/** The payload's size in bytes. */
export function payloadBytes(source: PayloadSource): number {
  return 'file' in source ? statSync(source.file).size : source.bytes.byteLength;
}

/** A line of a payload: `buffer[start, end)`. */
export interface PayloadLine {
  readonly buffer: Buffer;
  readonly start: number;
  readonly end: number;
}

/**
 * The payload's lines, empty ones skipped, as byte ranges of a buffer that stays valid only
 * until the next line is taken (a file is read a block at a time).
 */
export function ndjsonLines(source: PayloadSource): Generator<PayloadLine> {
  return lines(source, false);
}

/** `ndjsonLines`, whose buffers are never written again when `kept`: each block of a file is a new one. */
function lines(source: PayloadSource, kept: boolean): Generator<PayloadLine> {
  return 'file' in source ? fileLines(source.file, kept) : bytesLines(Buffer.from(source.bytes.buffer, source.bytes.byteOffset, source.bytes.byteLength));
}

/** A document of a payload and its line's bytes (its JSON text). */
export interface PayloadDocument {
  readonly doc: JsonObject;
  readonly text: Buffer;
}

/**
 * The payload's documents, read by `parse` (an edition's documents keep their floats: `parseWithFloats`);
 * throws `malformed_payload` at the first one nested too deep or with a field path too long.
 */
export function* readNdjson(source: PayloadSource, parse: (text: string) => unknown = parseJson): Generator<PayloadDocument> {
  let line = 0;
  for (const { buffer, start, end } of lines(source, true)) {
    line++;
    const text = buffer.subarray(start, end);
    const deep = tooDeepAt(text);
    if (deep !== -1) throw documentTooDeep(line, deep + 1);
    const long = longPathAt(text);
    if (long !== -1) throw fieldPathTooLong(line, long + 1);
    yield { doc: parse(buffer.toString('utf8', start, end)) as JsonObject, text };
  }
}

/** A line's document, or null when a write refuses it (not JSON, nested too deep, a field path too long). */
export function parsedLine(line: Buffer): JsonObject | null {
  if (tooDeepAt(line) !== -1 || longPathAt(line) !== -1) return null;
  try {
    return parseJson(line.toString('utf8')) as JsonObject;
  } catch {
    return null;
  }
}

/**
 * The lines of `buffer[start, end)` that a newline ends (searched from `from`); answers where
 * the rest, a line not ended yet, starts.
 */
function* endedLines(buffer: Buffer, start: number, from: number, end: number): Generator<PayloadLine, number> {
  for (let nl = buffer.indexOf(0x0a, from); nl !== -1 && nl < end; nl = buffer.indexOf(0x0a, start)) {
    if (nl > start) yield { buffer, start, end: nl };
    start = nl + 1;
  }
  return start;
}

function* bytesLines(bytes: Buffer): Generator<PayloadLine> {
  const rest = yield* endedLines(bytes, 0, 0, bytes.length);
  if (bytes.length > rest) yield { buffer: bytes, start: rest, end: bytes.length };
}

function* fileLines(path: string, kept: boolean): Generator<PayloadLine> {
  const fd = openSync(path, 'r');
  try {
    let block = Buffer.allocUnsafe(BLOCK_BYTES);
    let carried = 0; // bytes of an unfinished line carried over at the start of `block`
    for (;;) {
      const read = readSync(fd, block, carried, block.length - carried, null);
      const end = carried + read;
      const start = yield* endedLines(block, 0, carried, end);
      if (read === 0) {
        if (end > start) yield { buffer: block, start, end };
        return;
      }
      carried = end - start;
      // twice as large for a line that fills the block; a fresh one when its lines may be kept
      const next = carried === block.length ? Buffer.allocUnsafe(2 * block.length) : kept ? Buffer.allocUnsafe(carried < BLOCK_BYTES ? BLOCK_BYTES : block.length) : block;
      block.copy(next, 0, start, end);
      block = next;
    }
  } finally {
    closeSync(fd);
  }
}
