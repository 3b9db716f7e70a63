/**
 * The documents a document edition replaces, as an NDJSON payload of their JSON texts for its
 * index write (a `put`, engine/indexer/document-batch.ts): held in memory up to HELD_BYTES, then
 * written to a file in the update files' folder as the edition runs. Held whole, an edition that
 * added a 256 KiB field to 17,635 movies held 4.5 GB on the thread answering requests and ran
 * the process out of memory, again at each restart (its task still enqueued); v1.50 streams an
 * edition's documents to its indexer. The file is removed after the write; one left by a crash
 * is swept at the next start (no task refers to it: store/update-files.ts `sweep`).
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { PayloadSource } from '../../store/update-files.js';

/** Bytes of documents held in memory before they go to a file. */
export const HELD_BYTES = 64 * 1024 * 1024;

const NEWLINE = Buffer.from('\n');

export class EditedPayload {
  private held: Buffer[] = [];
  private heldBytes = 0;
  private file: { readonly path: string; readonly fd: number } | null = null;
  /** how many documents it holds */
  count = 0;

  /** @param limit the bytes it holds in memory before it goes to a file */
  constructor(
    private readonly dir: string,
    private readonly limit = HELD_BYTES,
  ) {}

  /** Adds a document's JSON text (one line: JSON text holds no raw newline). */
  add(text: string): void {
    const line = Buffer.from(text);
    this.held.push(line, NEWLINE);
    this.heldBytes += line.length + 1;
    this.count++;
    if (this.heldBytes < this.limit) return;
    if (this.file === null) {
      const file = path.join(this.dir, randomUUID());
      this.file = { path: file, fd: openSync(file, 'w') };
    }
    for (const piece of this.held) writeSync(this.file.fd, piece);
    this.held = [];
    this.heldBytes = 0;
  }

  /** The payload of what was added: read it before `discard`. */
  source(): PayloadSource {
    if (this.file === null) return { bytes: Buffer.concat(this.held, this.heldBytes) };
    for (const piece of this.held) writeSync(this.file.fd, piece);
    this.held = [];
    this.heldBytes = 0;
    return { file: this.file.path };
  }

  /** Frees what it holds, its file included. */
  discard(): void {
    this.held = [];
    this.heldBytes = 0;
    if (this.file === null) return;
    closeSync(this.file.fd);
    rmSync(this.file.path, { force: true });
    this.file = null;
  }
}
