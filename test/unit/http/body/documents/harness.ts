/**
 * Shared helpers for the document payload tests: runs a body through `writeDocumentsPayload`
 * into a real `UpdateFiles` store under a temporary directory, in chosen chunk sizes, and
 * reads back the update file or the ApiError.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { ApiError } from '../../../../../src/errors/api-error.js';
import type { DocumentsFormat } from '../../../../../src/http/body/documents/format.js';
import { writeDocumentsPayload } from '../../../../../src/http/body/documents/payload.js';
import { INSTANCE_DBS } from '../../../../../src/store/dbs.js';
import { openInstanceStore } from '../../../../../src/store/env.js';
import { UpdateFiles } from '../../../../../src/store/update-files.js';

export interface Store {
  files: UpdateFiles;
  /** Every stored payload: names in the update-file directory (finished and `.tmp` files) and uuids kept in LMDB. */
  listing(): string[];
  /** A stored payload's bytes. */
  content(uuid: string): Buffer;
  remove(): Promise<void>;
}

export function tempStore(): Store {
  const dir = mkdtempSync(path.join(tmpdir(), 'quarry-payload-'));
  const instance = openInstanceStore(dir, '0.1.0');
  const files = new UpdateFiles(instance);
  const inline = instance.root.openDB<Buffer, string>({ name: INSTANCE_DBS.payloads, encoding: 'binary' });
  return {
    files,
    listing: () => [...readdirSync(files.dir), ...inline.getKeys()],
    content: (uuid) => {
      const source = files.source(uuid);
      return 'file' in source ? readFileSync(source.file) : Buffer.from(source.bytes);
    },
    remove: async () => {
      await instance.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Yields `data` in pieces of `size` bytes (the last may be shorter). */
export async function* inChunks(data: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) yield data.subarray(i, i + size);
}

/** Yields the given pieces as they are. */
export async function* pieces(parts: Buffer[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield part;
}

export interface Options {
  delimiter?: string;
  limit?: number;
  /** Chunk size; the whole body in one chunk when absent. */
  chunk?: number;
}

export interface Written {
  documentsCount: number;
  size: number;
  /** The update file's lines (without the final empty one). */
  lines: string[];
  content: Buffer;
}

export async function write(store: Store, format: DocumentsFormat, body: string | Buffer | AsyncIterable<Buffer>, options: Options = {}): Promise<Written> {
  const source = typeof body === 'string' || Buffer.isBuffer(body) ? inChunks(Buffer.from(body), options.chunk ?? Math.max(1, Buffer.byteLength(body))) : body;
  const result = await writeDocumentsPayload(source, format, options.delimiter ?? ',', store.files, options.limit ?? 100_000_000);
  const content = store.content(result.uuid);
  expect(content.length).toBe(result.size);
  const text = content.toString('utf8');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  if (text !== '') expect(text.endsWith('\n')).toBe(true);
  await store.files.delete(result.uuid);
  return { documentsCount: result.documentsCount, size: result.size, lines, content };
}

/** Runs a body that must be refused; returns the error and checks no update file is left. */
export async function refuse(
  store: Store,
  format: DocumentsFormat,
  body: string | Buffer | AsyncIterable<Buffer>,
  options: Options = {},
): Promise<{ code: string; message: string }> {
  try {
    await write(store, format, body, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect(store.listing()).toEqual([]);
    const { code, message } = error as ApiError;
    return { code, message };
  }
  throw new Error('expected the payload to be refused');
}

/** Every way of cutting `body` in two, plus one byte at a time. */
export function splits(body: Buffer): Buffer[][] {
  const out: Buffer[][] = [];
  for (let i = 1; i < body.length; i++) out.push([body.subarray(0, i), body.subarray(i)]);
  out.push([...body].map((b) => Buffer.from([b])));
  return out;
}
