/**
 * Reads a v6 dump (dumps-snapshots-upgrade.md §3), from Meilisearch or from Quarry: the archive
 * is unpacked into a scratch folder of the db path (on disk, so its size does not matter), then each part is
 * read lazily, line by line. An older dump (V1–V5, Meilisearch before v1) is first rewritten as
 * a v6 one inside the scratch folder (compat/old-dump.ts).
 *
 * Caller: dumps/import.ts, at startup. `close` removes the scratch folder.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { instantOfRfc3339 } from '../types/dates.js';
import { extractArchive } from '../store/archive.js';
import type { Batch, DumpedKey, JsonObject, Task, Timestamp } from '../types/task.js';
import { readBatchLine } from './batch-lines.js';
import { upgradeToV6 } from './compat/old-dump.js';
import { isOldDumpVersion } from './compat/old-layouts.js';
import { jsonLines } from './json-lines.js';
import { keyFromLine } from './key-lines.js';
import { readTaskLine } from './task-lines.js';

export interface DumpMetadata {
  dumpVersion: string;
  dbVersion: string;
  dumpDate: string;
}

export interface DumpedIndex {
  uid: string;
  primaryKey: string | null;
  createdAt: Timestamp;
  updatedAt: Timestamp;
  /** `settings.json`: the settings view, secrets in clear; absent keys are not set */
  settings: JsonObject;
  /** `documents.jsonl`, or null when the dump has none for the index */
  documents: string | null;
}

/** A JSON file of the dump, or null when it has none. */
function readJsonIfAny<T>(file: string): T | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T) : null;
}

export class DumpReader {
  private constructor(
    /** the scratch folder the archive was unpacked into */
    private readonly root: string,
    /** where the v6 layout is: `root`, or the rewrite of an older dump inside it */
    private readonly dir: string,
    readonly metadata: DumpMetadata,
  ) {}

  /**
   * Unpacks `file` into `<dbPath>/dump-import` (`onRead` counts its bytes as they are read): in
   * the db path, which a failed or interrupted import is removed with, nothing is left behind.
   * Throws when it is no dump or of a version Quarry does not know.
   */
  static async open(file: string, dbPath: string, onRead?: (bytes: number) => void): Promise<DumpReader> {
    const root = path.join(dbPath, 'dump-import');
    rmSync(root, { recursive: true, force: true });
    try {
      await extractArchive(file, root, onRead);
      const metadata = readJsonIfAny<DumpMetadata>(path.join(root, 'metadata.json'));
      if (metadata === null) throw new Error(`\`${file}\` is not a dump: it has no metadata.json.`);
      if (isOldDumpVersion(metadata.dumpVersion)) {
        const v6 = await upgradeToV6(root, metadata.dumpVersion, metadata);
        return new DumpReader(root, v6, readJsonIfAny<DumpMetadata>(path.join(v6, 'metadata.json'))!);
      }
      if (metadata.dumpVersion !== 'V6') throw new Error(`\`${file}\` is a dump of version ${String(metadata.dumpVersion)}, which Quarry does not know: it reads versions V1 to V6.`);
      return new DumpReader(root, root, metadata);
    } catch (err) {
      rmSync(root, { recursive: true, force: true });
      throw err;
    }
  }

  private file(...parts: string[]): string {
    return path.join(this.dir, ...parts);
  }

  instanceUid(): string | null {
    const file = this.file('instance_uid.uuid');
    return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
  }

  async *keys(): AsyncGenerator<DumpedKey> {
    for await (const line of jsonLines(this.file('keys.jsonl'))) yield keyFromLine(line);
  }

  /** `network.json`, or null when the dump has none (before v1.13). */
  network(): unknown {
    return readJsonIfAny<unknown>(this.file('network.json'));
  }

  /** `webhooks.json`, or null when the dump has none. */
  webhooks(): unknown {
    return readJsonIfAny<unknown>(this.file('webhooks.json'));
  }

  /**
   * `chat-completions-settings/<name>.json`, each as its name (the file stem) and its text, parsed
   * by the import, which names the file when it is not JSON; none when the dump has no such folder
   * (older than the chats). Other entries are skipped, as v1.50 does.
   */
  *chatWorkspaces(): Generator<[name: string, text: string]> {
    const dir = this.file('chat-completions-settings');
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.json') || entry.name === '.json') continue;
      yield [entry.name.slice(0, -'.json'.length), readFileSync(path.join(dir, entry.name), 'utf8')];
    }
  }

  /** `experimental-features.json`, or null when the dump has none. */
  features(): Record<string, unknown> | null {
    return readJsonIfAny<Record<string, unknown>>(this.file('experimental-features.json'));
  }

  async *tasks(currentVersion: [number, number, number]): AsyncGenerator<Task> {
    for await (const line of jsonLines(this.file('tasks', 'queue.jsonl'))) yield readTaskLine(line, currentVersion);
  }

  /** The payload of an enqueued document task, or null when the dump has none for it. */
  updateFile(taskUid: number): string | null {
    const file = this.file('tasks', 'update_files', `${taskUid}.jsonl`);
    return existsSync(file) ? file : null;
  }

  async *batches(): AsyncGenerator<Batch> {
    for await (const line of jsonLines(this.file('batches', 'queue.jsonl'))) yield readBatchLine(line);
  }

  /** The indexes, in folder order; the uid is metadata.json's, whatever the folder's name. */
  *indexes(): Generator<DumpedIndex> {
    const dir = this.file('indexes');
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir).sort()) {
      const folder = path.join(dir, name);
      if (!statSync(folder).isDirectory()) continue;
      const metadata = JSON.parse(readFileSync(path.join(folder, 'metadata.json'), 'utf8')) as JsonObject;
      const documents = path.join(folder, 'documents.jsonl');
      yield {
        uid: metadata.uid as string,
        primaryKey: (metadata.primaryKey as string | null | undefined) ?? null,
        createdAt: instantOfRfc3339(metadata.createdAt as string),
        updatedAt: instantOfRfc3339(metadata.updatedAt as string),
        settings: readJsonIfAny<JsonObject>(path.join(folder, 'settings.json')) ?? {},
        documents: existsSync(documents) ? documents : null,
      };
    }
  }

  close(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
