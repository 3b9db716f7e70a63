import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readNdjson } from '../../../src/engine/documents/ndjson-payload.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { INLINE_BYTES, UpdateFiles } from '../../../src/store/update-files.js';

let dir: string;
let store: InstanceStore;
let files: UpdateFiles;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-update-files-'));
  store = openInstanceStore(dir, '0.1.0');
  files = new UpdateFiles(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function* chunked(...parts: string[]): AsyncGenerator<Buffer> {
  for (const part of parts) yield Buffer.from(part);
}

const line = (id: number, pad: number) => `${JSON.stringify({ id, text: 'x'.repeat(pad) })}\n`;

describe('UpdateFiles', () => {
  it('keeps a small payload in the environment, not as a file, and reads it back', async () => {
    const { uuid, size } = await files.persist(chunked(line(1, 10), line(2, 10)));
    expect(size).toBe(2 * line(1, 10).length);
    expect(readdirSync(files.dir)).toEqual([]);
    const source = files.source(uuid);
    expect('bytes' in source).toBe(true);
    expect([...readNdjson(source)].map(({ doc }) => doc.id)).toEqual([1, 2]);
  });

  it('writes a chunk given as a list of pieces in order, kept in the environment or in a file', async () => {
    async function* listed(...chunks: string[][]): AsyncGenerator<Uint8Array[]> {
      for (const chunk of chunks) yield chunk.map((part) => Buffer.from(part));
    }
    for (const pad of [10, INLINE_BYTES / 4]) {
      const parts = Array.from({ length: 6 }, (_, i) => line(i, pad));
      const { uuid, size } = await files.persist(listed(parts.slice(0, 2), parts.slice(2, 3), parts.slice(3)));
      expect(size).toBe(parts.join('').length);
      expect('bytes' in files.source(uuid)).toBe(pad === 10);
      expect([...readNdjson(files.source(uuid))].map(({ doc }) => doc.id)).toEqual([0, 1, 2, 3, 4, 5]);
    }
  });

  it('streams a payload larger than the inline limit to a file, chunks in order', async () => {
    const parts = Array.from({ length: 5 }, (_, i) => line(i, INLINE_BYTES / 4));
    const { uuid, size } = await files.persist(chunked(...parts));
    expect(size).toBe(parts.join('').length);
    const source = files.source(uuid);
    expect(source).toEqual({ file: path.join(files.dir, uuid) });
    expect(readFileSync(path.join(files.dir, uuid), 'utf8')).toBe(parts.join(''));
  });

  it('keeps an empty payload as an empty one', async () => {
    const { uuid, size } = await files.persist(chunked());
    expect(size).toBe(0);
    expect([...readNdjson(files.source(uuid))]).toEqual([]);
  });

  it('leaves nothing behind when the stream fails, before or after spilling to a file', async () => {
    async function* failing(after: number): AsyncGenerator<Buffer> {
      for (let i = 0; i < after; i++) yield Buffer.from(line(i, INLINE_BYTES / 2));
      throw new Error('broken body');
    }
    await expect(files.persist(failing(1))).rejects.toThrow('broken body');
    await expect(files.persist(failing(4))).rejects.toThrow('broken body');
    expect(readdirSync(files.dir)).toEqual([]);
    expect(files.sweep(() => false)).toBe(0);
  });

  it('deletes a payload of either kind; a deleted one reads as a missing file', async () => {
    const small = await files.persist(chunked(line(1, 1)));
    const large = await files.persist(chunked(line(2, INLINE_BYTES)));
    await files.delete(small.uuid);
    await files.delete(large.uuid);
    expect(readdirSync(files.dir)).toEqual([]);
    const source = files.source(small.uuid);
    expect('file' in source && existsSync(source.file)).toBe(false);
  });

  it('discards a payload kept in LMDB within the caller\'s transaction, and leaves a file to `delete`', async () => {
    const small = await files.persist(chunked(line(1, 1)));
    const large = await files.persist(chunked(line(2, INLINE_BYTES)));
    expect(store.root.transactionSync(() => [files.discardInline(small.uuid), files.discardInline(large.uuid)])).toEqual([true, false]);
    expect('file' in files.source(small.uuid)).toBe(true);
    expect(existsSync(path.join(files.dir, large.uuid))).toBe(true);
  });

  it('sweeps the payloads no task refers to, of either kind, and keeps the others', async () => {
    const kept = await files.persist(chunked(line(1, 1)));
    const strayInline = await files.persist(chunked(line(2, 1)));
    const strayFile = await files.persist(chunked(line(3, INLINE_BYTES)));
    expect(files.sweep((uuid) => uuid === kept.uuid)).toBe(2);
    expect([...readNdjson(files.source(kept.uuid))].map(({ doc }) => doc.id)).toEqual([1]);
    expect('file' in files.source(strayInline.uuid)).toBe(true);
    expect(existsSync(path.join(files.dir, strayFile.uuid))).toBe(false);
  });
});
