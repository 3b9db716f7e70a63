/**
 * Dumps of Meilisearch before v1 (dump versions V1–V5, engines up to v0.29) rewritten as a v6
 * dump, so the v6 reader and the importer take them like any other (dumps-snapshots-upgrade.md
 * §3): the old layout is read up to v5's forms (old-layouts.ts), each record takes the last step
 * to v6 (update-steps.ts, settings-steps.ts, key-steps.ts), and the v6 files are written into
 * `<unpacked>/.v6`, lazily, a line at a time.
 *
 * Caller: dumps/reader.ts, once the archive is unpacked.
 */
import { copyFileSync, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import type { JsonObject } from '../../types/task.js';
import { v5KeyToV6Line } from './key-steps.js';
import { openOldDump, type OldDumpVersion } from './old-layouts.js';
import { settingsFile, v5CheckedSettings, v5SettingsToV6 } from './settings-steps.js';
import { v5TaskToV6Line } from './update-steps.js';

/** Writes values as JSON lines into `file`, waiting when the stream asks to. */
async function writeLines(file: string, values: AsyncIterable<unknown>): Promise<void> {
  const out = createWriteStream(file);
  for await (const value of values) {
    if (!out.write(`${JSON.stringify(value)}\n`)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  out.end();
  await finished(out);
}

/** A payload as v6's update files hold it: JSON lines (v2 kept a JSON array). */
function copyPayload(from: string, to: string): void {
  const text = readFileSync(from, 'utf8');
  if (text.trimStart().startsWith('[')) writeFileSync(to, (JSON.parse(text) as unknown[]).map((doc) => `${JSON.stringify(doc)}\n`).join(''));
  else copyFileSync(from, to);
}

/**
 * Rewrites the old dump unpacked in `root` (its `metadata.json` already read) as a v6 dump in
 * `<root>/.v6`, and returns that folder.
 */
export async function upgradeToV6(root: string, version: OldDumpVersion, metadata: object): Promise<string> {
  const old = openOldDump(root, version, metadata as Record<string, unknown>);
  const out = path.join(root, '.v6');
  mkdirSync(path.join(out, 'tasks', 'update_files'), { recursive: true });
  writeFileSync(path.join(out, 'metadata.json'), JSON.stringify({ dumpVersion: 'V6', dbVersion: old.dbVersion, dumpDate: old.dumpDate }));
  if (old.instanceUid !== null) writeFileSync(path.join(out, 'instance_uid.uuid'), old.instanceUid);

  const keys: JsonObject[] = [];
  for await (const key of old.keys()) keys.push(v5KeyToV6Line(key));
  writeFileSync(path.join(out, 'keys.jsonl'), keys.map((key) => `${JSON.stringify(key)}\n`).join(''));

  const lines = async function* () {
    for await (const { task, payload } of old.tasks()) {
      const line = v5TaskToV6Line(task, keys, old.instanceUid);
      if (payload !== null && existsSync(payload)) copyPayload(payload, path.join(out, 'tasks', 'update_files', `${String(line.uid)}.jsonl`));
      yield line;
    }
  };
  await writeLines(path.join(out, 'tasks', 'queue.jsonl'), lines());

  // folders are numbered in the dump's order: an old uid is not trusted as a path
  for (const [position, index] of (await old.indexes()).entries()) {
    const folder = path.join(out, 'indexes', String(position).padStart(6, '0'));
    mkdirSync(folder, { recursive: true });
    writeFileSync(path.join(folder, 'metadata.json'), JSON.stringify({ uid: index.uid, primaryKey: index.primaryKey, createdAt: index.createdAt, updatedAt: index.updatedAt }));
    writeFileSync(path.join(folder, 'settings.json'), JSON.stringify(settingsFile(v5SettingsToV6(v5CheckedSettings(index.settings)))));
    if (existsSync(index.documents)) renameSync(index.documents, path.join(folder, 'documents.jsonl'));
  }
  return out;
}
