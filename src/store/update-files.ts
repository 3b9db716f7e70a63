/**
 * Update files: the payload of a task (documents, as NDJSON) stored BEFORE the task is enqueued,
 * streamed chunk by chunk so a 100 MB body never sits in memory, and durable before `persist`
 * resolves, so an acknowledged task always finds its payload after a crash. The scheduler
 * deletes them once their task is finished; payloads without a task (a crash between write and
 * enqueue) are swept at start-up.
 *
 * A payload of at most INLINE_BYTES is kept in the instance environment rather than in a file
 * under `<db path>/update_files/`: concurrent requests then share one LMDB commit and one disk
 * flush, where a file costs its own fsync (about 0.4 ms here, and fsyncs do not overlap) —
 * the limit on how many small tasks per second can be acknowledged.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from 'lmdb';
import { INSTANCE_DBS } from './dbs.js';
import type { InstanceStore } from './env.js';

/** Payloads up to this size are kept in LMDB (a document request of a few hundred documents). */
export const INLINE_BYTES = 256 * 1024;

/** Where a payload's NDJSON is: its file, or its bytes when it is kept in the environment. */
export type PayloadSource = { readonly file: string } | { readonly bytes: Uint8Array };

export class UpdateFiles {
  readonly dir: string;
  private readonly inline: Database<Buffer, string>;

  constructor(store: InstanceStore) {
    this.dir = path.join(store.dbPath, 'update_files');
    mkdirSync(this.dir, { recursive: true });
    this.inline = store.root.openDB<Buffer, string>({ name: INSTANCE_DBS.payloads, encoding: 'binary' });
  }

  private pathOf(uuid: string): string {
    return path.join(this.dir, uuid);
  }

  /**
   * Stores every chunk and returns the payload's uuid and size. A chunk may be a list of pieces,
   * written together (one `writev`) rather than copied into one buffer first. A payload that ends
   * within INLINE_BYTES goes to LMDB whole; a larger one is written to a file as it streams (the
   * file carries a `.tmp` suffix until complete and synced). On any failure nothing is kept and the
   * error is rethrown.
   */
  async persist(chunks: AsyncIterable<Uint8Array | readonly Uint8Array[]>): Promise<{ uuid: string; size: number }> {
    const uuid = randomUUID();
    const iterator = chunks[Symbol.asyncIterator]();
    const held: Uint8Array[] = [];
    let size = 0;
    while (size <= INLINE_BYTES) {
      const next = await iterator.next();
      if (next.done === true) {
        await this.inline.put(uuid, Buffer.concat(held, size));
        return { uuid, size };
      }
      for (const piece of piecesOf(next.value)) {
        held.push(piece);
        size += piece.length;
      }
    }
    const tmp = `${this.pathOf(uuid)}.tmp`;
    const handle = await open(tmp, 'w');
    try {
      await handle.writev(held);
      held.length = 0;
      for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
        const pieces = piecesOf(next.value);
        await handle.writev(pieces);
        for (const piece of pieces) size += piece.length;
      }
      await handle.sync();
    } catch (err) {
      await handle.close();
      rmSync(tmp, { force: true });
      throw err;
    }
    await handle.close();
    await rename(tmp, this.pathOf(uuid));
    return { uuid, size };
  }

  /** The payload's NDJSON; a missing payload reads as a file that does not exist. */
  source(uuid: string): PayloadSource {
    const bytes = this.inline.getBinary(uuid);
    return bytes === undefined ? { file: this.pathOf(uuid) } : { bytes };
  }

  /**
   * Removes a payload kept in LMDB as part of the caller's write transaction; false when the
   * payload is a file (for `delete`, after the commit).
   */
  discardInline(uuid: string): boolean {
    if (!this.inline.doesExist(uuid)) return false;
    this.inline.removeSync(uuid);
    return true;
  }

  /** Asynchronous: a batch can free hundreds of payloads, which must not block the HTTP thread. */
  async delete(uuid: string): Promise<void> {
    if (this.inline.doesExist(uuid)) await this.inline.remove(uuid);
    else await rm(this.pathOf(uuid), { force: true });
  }

  /** Removes the payloads no task refers to (and unfinished `.tmp` files). */
  sweep(isReferenced: (uuid: string) => boolean): number {
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      if (name.endsWith('.tmp') || !isReferenced(name)) {
        rmSync(path.join(this.dir, name), { force: true });
        removed++;
      }
    }
    for (const uuid of this.inline.getKeys()) {
      if (!isReferenced(uuid)) {
        this.inline.removeSync(uuid);
        removed++;
      }
    }
    return removed;
  }
}

function piecesOf(chunk: Uint8Array | readonly Uint8Array[]): readonly Uint8Array[] {
  return chunk instanceof Uint8Array ? [chunk] : chunk;
}
