/**
 * Update files: the payload of a task (documents, edit functions…) written to
 * `<db path>/update_files/<uuid>` BEFORE the task is enqueued, streamed chunk by chunk so a
 * 100 MB body never sits in memory. A file is fsynced before `persist` resolves, so an
 * acknowledged task always finds its payload after a crash. The scheduler deletes files once
 * their task is finished; files without a task (a crash between write and enqueue) are swept
 * at start-up.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

export class UpdateFiles {
  readonly dir: string;

  constructor(dbPath: string) {
    this.dir = path.join(dbPath, 'update_files');
    mkdirSync(this.dir, { recursive: true });
  }

  pathOf(uuid: string): string {
    return path.join(this.dir, uuid);
  }

  /**
   * Writes every chunk to a new file and returns its uuid and size. On any failure the partial
   * file is removed and the error rethrown. The file appears under its final name only once
   * complete and synced (write to `.tmp`, fsync, rename).
   */
  async persist(chunks: AsyncIterable<Buffer>): Promise<{ uuid: string; size: number }> {
    const uuid = randomUUID();
    const tmp = `${this.pathOf(uuid)}.tmp`;
    const handle = await open(tmp, 'w');
    let size = 0;
    try {
      for await (const chunk of chunks) {
        await handle.write(chunk);
        size += chunk.length;
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

  read(uuid: string): Readable {
    return createReadStream(this.pathOf(uuid));
  }

  /** Asynchronous: a batch can free hundreds of files, which must not block the HTTP thread. */
  async delete(uuid: string): Promise<void> {
    await rm(this.pathOf(uuid), { force: true });
  }

  /** Removes files no task refers to (and unfinished `.tmp` files). */
  sweep(isReferenced: (uuid: string) => boolean): number {
    let removed = 0;
    for (const name of readdirSync(this.dir)) {
      if (name.endsWith('.tmp') || !isReferenced(name)) {
        rmSync(path.join(this.dir, name), { force: true });
        removed++;
      }
    }
    return removed;
  }
}
