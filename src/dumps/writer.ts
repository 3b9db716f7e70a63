/**
 * Writes a Meilisearch v6 dump (dumps-snapshots-upgrade.md §3): the layout is built file by file
 * in a scratch folder of the instance's own db path (`dumpScratchDir`), then packed into
 * `<dump dir>/<dumpUid>.dump` (store/archive.ts renames the archive into place only once
 * complete). Documents, tasks and update files are streamed line by line, so no index or queue is
 * ever held in memory.
 *
 * Caller: the dump batch processor (tasks/process/dump.ts, given `writeDump` by
 * instance/open-instance.ts through its context's `archives`), on the scheduler: no index is
 * written meanwhile, and the queue is read through LMDB read snapshots while routes keep
 * registering tasks. `signal` (a cancelation) aborts between documents; the scratch folder is
 * removed whatever happens.
 */
import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync, type WriteStream } from 'node:fs';
import path from 'node:path';
import { ApiError } from '../errors/api-error.js';
import { ndjsonLines } from '../engine/documents/ndjson-payload.js';
import { portableDocument } from '../engine/vectors/portable-document.js';
import { DocumentStore } from '../engine/documents/store.js';
import type { IndexEnv } from '../engine/index-env.js';
import { readSettings } from '../engine/index-settings.js';
import { compareBytes } from '../types/bytes.js';
import { formatRfc3339 } from '../types/dates.js';
import type { DumpContent, DumpStep } from '../tasks/process/context.js';
import { NO_ARCHIVE_PROGRESS, type ArchiveProgress } from '../types/archive-progress.js';
import { REVEAL_SECRETS, settingsView } from '../settings/view.js';
import { packDirectory } from '../store/archive.js';
import { DSR_INDEX_SETTINGS } from '../search-rules/internal-index.js';
import type { IndexSettings } from '../types/settings.js';
import { DSR_INDEX_UID, type Timestamp } from '../types/task.js';
import { stringifyReply } from '../types/reply-text.js';
import { batchLine } from './batch-lines.js';
import { keyLine } from './key-lines.js';
import { taskLine } from './task-lines.js';

const CHAT_SETTINGS_FOLDER = 'chat-completions-settings';

/**
 * `<name>.json`, which v1.50's reader takes back as `<name>` (its file stem). A name is any path
 * segment: one holding a `/` (sent as `%2F`) or a NUL is no file name, and would be written
 * outside the folder, so the dump fails instead.
 */
function chatSettingsFile(name: string): string {
  if (name.includes('/') || name.includes('\0')) throw new ApiError('internal', `The chat workspace \`${name}\` cannot be dumped: its name is not a file name.`);
  return `${name}.json`;
}

/** A `.jsonl` file written a line at a time, waiting on the stream when its buffer is full. */
class JsonLines {
  private readonly out: WriteStream;

  constructor(file: string) {
    mkdirSync(path.dirname(file), { recursive: true });
    this.out = createWriteStream(file);
  }

  async write(line: string): Promise<void> {
    if (!this.out.write(`${line}\n`)) await once(this.out, 'drain');
  }

  async close(): Promise<void> {
    this.out.end();
    await once(this.out, 'finish');
  }
}

async function writeDocuments(file: string, env: IndexEnv, settings: IndexSettings, signal: AbortSignal, progress: ArchiveProgress<DumpStep>): Promise<void> {
  const out = new JsonLines(file);
  const store = new DocumentStore(env);
  const counted = progress.count('document', store.count());
  let written = 0;
  for (const { docid, doc } of store.entries()) {
    await out.write(stringifyReply(portableDocument(env, settings, docid, doc)));
    counted();
    if (++written % 1024 === 0) signal.throwIfAborted();
  }
  await out.close();
}

/** The rules as v1.50 dumps its `.meili_dsr` index: an index of its own, `uid` their primary key. */
async function writeRules(root: string, content: DumpContent, now: () => Timestamp, progress: ArchiveProgress<DumpStep>, position: number, total: number): Promise<void> {
  progress.index(DSR_INDEX_UID, position, total);
  const folder = path.join(root, 'indexes', DSR_INDEX_UID);
  mkdirSync(folder, { recursive: true });
  const dumpedAt = formatRfc3339(now());
  writeFileSync(path.join(folder, 'metadata.json'), JSON.stringify({ uid: DSR_INDEX_UID, primaryKey: 'uid', createdAt: dumpedAt, updatedAt: dumpedAt }));
  writeFileSync(path.join(folder, 'settings.json'), JSON.stringify(DSR_INDEX_SETTINGS));
  const counted = progress.count('document', content.searchRules.length);
  const rules = new JsonLines(path.join(folder, 'documents.jsonl'));
  for (const rule of content.searchRules) {
    await rules.write(JSON.stringify(rule));
    counted();
  }
  await rules.close();
}

async function writeLayout(root: string, content: DumpContent, now: () => Timestamp, signal: AbortSignal, progress: ArchiveProgress<DumpStep>): Promise<void> {
  const json = (relative: string, value: unknown) => {
    mkdirSync(path.dirname(path.join(root, relative)), { recursive: true });
    writeFileSync(path.join(root, relative), JSON.stringify(value));
  };
  progress.step('dump the api keys');
  const keys = new JsonLines(path.join(root, 'keys.jsonl'));
  for (const key of content.keys) await keys.write(JSON.stringify(keyLine(key)));
  await keys.close();

  progress.step('dump the chat completion settings');
  mkdirSync(path.join(root, CHAT_SETTINGS_FOLDER));
  for (const [name, settings] of content.chatWorkspaces) json(path.join(CHAT_SETTINGS_FOLDER, chatSettingsFile(name)), settings);

  progress.step('dump the tasks');
  const tasks = new JsonLines(path.join(root, 'tasks', 'queue.jsonl'));
  mkdirSync(path.join(root, 'tasks', 'update_files'), { recursive: true });
  const taskWritten = progress.count('task', content.counts.tasks);
  for (const task of content.tasks) {
    signal.throwIfAborted();
    await tasks.write(taskLine(task));
    taskWritten();
    if (task.status !== 'enqueued' || task.kind.name !== 'documentAdditionOrUpdate') continue;
    // Only the payloads still to be indexed travel: finished tasks have none left.
    const payload = new JsonLines(path.join(root, 'tasks', 'update_files', `${task.uid}.jsonl`));
    // update-file lines are compact JSON documents already: written as they are, not re-encoded
    for (const { buffer, start, end } of ndjsonLines(content.payload(task.kind.contentFile))) await payload.write(buffer.toString('utf8', start, end));
    await payload.close();
  }
  await tasks.close();

  progress.step('dump the batches');
  const batches = new JsonLines(path.join(root, 'batches', 'queue.jsonl'));
  const batchWritten = progress.count('batch', content.counts.batches);
  for (const batch of content.batches) {
    await batches.write(batchLine(batch));
    batchWritten();
  }
  await batches.close();

  progress.step('dump the indexes');
  mkdirSync(path.join(root, 'indexes'), { recursive: true });
  // v1.50 keeps the rules as documents of its internal index `.meili_dsr`, dumped with the
  // others in its place by name (bytes: before the uids of letters and digits)
  let rulesPending = content.searchRules.length > 0;
  const total = content.counts.indexes + (rulesPending ? 1 : 0);
  let position = 0;
  for (const index of content.indexes) {
    signal.throwIfAborted();
    if (rulesPending && compareBytes(index.uid, DSR_INDEX_UID) > 0) {
      await writeRules(root, content, now, progress, position++, total);
      rulesPending = false;
    }
    progress.index(index.uid, position++, total);
    // Folder names may not hold every uid character elsewhere: the uid read back is metadata's.
    const folder = path.join('indexes', index.uid);
    json(path.join(folder, 'metadata.json'), {
      uid: index.uid,
      primaryKey: index.primaryKey,
      createdAt: formatRfc3339(index.createdAt),
      updatedAt: formatRfc3339(index.updatedAt),
    });
    const settings = readSettings(index.env);
    await writeDocuments(path.join(root, folder, 'documents.jsonl'), index.env, settings, signal, progress);
    json(path.join(folder, 'settings.json'), settingsView(settings, { foreignKeys: true, chat: true }, REVEAL_SECRETS));
  }
  if (rulesPending) await writeRules(root, content, now, progress, position, total);

  progress.step('dump the experimental features');
  json('experimental-features.json', content.features);
  json('network.json', content.network);

  progress.step('dump the webhooks');
  json('webhooks.json', content.webhooks);

  if (content.instanceUid !== null) writeFileSync(path.join(root, 'instance_uid.uuid'), content.instanceUid);
  json('metadata.json', { dumpVersion: 'V6', dbVersion: content.dbVersion, dumpDate: formatRfc3339(now()) });
}

/**
 * Where an instance lays its dumps out, a folder per dump: inside its own db path, which no other
 * process opens, where a dump directory may be shared (the default `dumps/` of two instances
 * started in one folder: the second one's start swept the first one's running dump away).
 */
export function dumpScratchDir(dbPath: string): string {
  return path.join(dbPath, 'dump-layouts');
}

/**
 * Removes what this instance's dumps interrupted by a crash left: their layouts (`scratchDir`),
 * and each one's `.tmp` archive in the dump dir. Other instances' dumps there are left alone.
 */
export function sweepDumpLeftovers(dumpDir: string, scratchDir: string): void {
  if (!existsSync(scratchDir)) return;
  for (const dumpUid of readdirSync(scratchDir)) {
    rmSync(`${dumpPath(dumpDir, dumpUid)}.tmp`, { force: true });
    removeLayout(scratchDir, dumpUid);
  }
}

/** Removes a dump's layout, and the scratch folder with the last one: no empty folder stays. */
function removeLayout(scratchDir: string, dumpUid: string): void {
  rmSync(path.join(scratchDir, dumpUid), { recursive: true, force: true });
  if (existsSync(scratchDir) && readdirSync(scratchDir).length === 0) rmSync(scratchDir, { recursive: true, force: true });
}

const dumpPath = (dumpDir: string, dumpUid: string) => path.join(dumpDir, `${dumpUid}.dump`);

/** Writes `<dumpDir>/<dumpUid>.dump`, laid out in `scratchDir` first, and returns its path. */
export async function writeDump(
  dumpDir: string,
  scratchDir: string,
  content: DumpContent,
  now: () => Timestamp,
  signal: AbortSignal,
  progress: ArchiveProgress<DumpStep> = NO_ARCHIVE_PROGRESS,
): Promise<string> {
  progress.step('start the dump creation');
  mkdirSync(dumpDir, { recursive: true });
  const scratch = path.join(scratchDir, content.dumpUid);
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  try {
    await writeLayout(scratch, content, now, signal, progress);
    progress.step('compress the dump');
    const target = dumpPath(dumpDir, content.dumpUid);
    await packDirectory(scratch, target, signal);
    return target;
  } finally {
    removeLayout(scratchDir, content.dumpUid);
  }
}
