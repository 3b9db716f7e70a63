/**
 * The layouts of Meilisearch's dumps before v1 (versions V1–V5), read as its own dump reader reads
 * them (crates/dump/src/reader/v1 … v5), each record brought to v5's form through the steps of
 * update-steps.ts, settings-steps.ts and key-steps.ts:
 *
 * - V1 (v0.20 and before): `metadata.json` lists the indexes (uid, dates, primary key);
 *   `<uid>/settings.json`, `<uid>/updates.jsonl`, `<uid>/documents.jsonl`.
 * - V2 (v0.21–v0.22), V3 (v0.23–v0.24): `index_uuids/data.jsonl` maps uuids to uids;
 *   `indexes/[index-]<uuid>/meta.json` (settings, primary key) and `documents.jsonl`;
 *   `updates/data.jsonl`, payloads of unfinished additions in `updates/update[s]_files/`.
 *   An index's dates are those of its finished updates.
 * - V4 (v0.25–v0.27), V5 (v0.28–v0.29): tasks with events in `updates/data.jsonl`, `keys`,
 *   `instance-uid`; `index_uuids` also names the task that created each index.
 *
 * A file the version needs and lacks, or a uuid that is none, refuses the dump. Caller: old-dump.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { formatRfc3339, instantOfRfc3339, nowNs } from '../../types/dates.js';
import { indexUidProblem } from '../../types/index-uid.js';
import type { JsonObject } from '../../types/task.js';
import { jsonLines } from '../json-lines.js';
import { v4KeyToV5 } from './key-steps.js';
import { v1SettingsToV2, v2SettingsToV3 } from './settings-steps.js';
import { v1UpdateToV2, v2UpdateToV3, v3Finished, v3UpdateToV4, v4TaskToV5, v5ContentUuid, v5CreatedAt, v5IndexUid, v5ProcessedAt } from './update-steps.js';

type Json = Record<string, any>;

export const OLD_DUMP_VERSIONS = ['V1', 'V2', 'V3', 'V4', 'V5'] as const;
export type OldDumpVersion = (typeof OLD_DUMP_VERSIONS)[number];

export const isOldDumpVersion = (version: string): version is OldDumpVersion => (OLD_DUMP_VERSIONS as readonly string[]).includes(version);

/** An index as v6 needs it; `settings` in v5's form. */
export interface OldIndex {
  uid: string;
  primaryKey: string | null;
  createdAt: string;
  updatedAt: string;
  settings: JsonObject;
  documents: string;
}

/** One version's dump, read up to v5's forms. */
export interface OldDump {
  dbVersion: string;
  dumpDate: string;
  instanceUid: string | null;
  keys(): AsyncGenerator<JsonObject>;
  /** v5 tasks, with the file of an unfinished document addition's payload. */
  tasks(): AsyncGenerator<{ task: Json; payload: string | null }>;
  indexes(): Promise<OldIndex[]>;
}

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A uuid that names a folder or a file of the dump: anything else could name a path out of it. */
function uuidOf(value: unknown): string {
  if (typeof value !== 'string' || !UUID.test(value)) throw new Error(`The dump names a file by \`${JSON.stringify(value)}\`, which is not a uuid.`);
  return value;
}

/** `parts` under `root`, which the dump must have: an incomplete dump is refused by name. */
function requiredIn(root: string, version: OldDumpVersion): (...parts: string[]) => string {
  return (...parts) => {
    const file = path.join(root, ...parts);
    if (!existsSync(file)) throw new Error(`This ${version} dump is incomplete: it has no \`${parts.join('/')}\`.`);
    return file;
  };
}

const now = (): string => formatRfc3339(nowNs());

async function* none(): AsyncGenerator<never> {}

/** Rust's `Option` order (None below any date), for v2/v3's index dates. */
const optionBelow = (a: string | undefined, b: string | undefined): boolean =>
  a === undefined ? b !== undefined : b !== undefined && instantOfRfc3339(a) < instantOfRfc3339(b);

/** V2 and V3: updates of `index_uuids`' indexes, read up to v3's form, renumbered into v4 tasks. */
function v2v3Dump(root: string, version: 'V2' | 'V3', metadata: Json): OldDump {
  const need = requiredIn(root, version);
  const uids = new Map<string, string>();
  const uuidLines = readFileSync(need('index_uuids', 'data.jsonl'), 'utf8').split('\n').filter((line) => line.trim() !== '');
  for (const line of uuidLines) {
    const entry = JSON.parse(line) as Json;
    uids.set(uuidOf(entry.uuid), entry.uid);
  }
  const updatesFile = need('updates', 'data.jsonl');
  const fetchedAt = now();
  async function* v3Updates(): AsyncGenerator<{ uuid: string; update: Json }> {
    for await (const entry of jsonLines(updatesFile)) {
      const update = entry.update as Json;
      yield { uuid: entry.uuid as string, update: version === 'V2' ? v2UpdateToV3(update, fetchedAt) : update };
    }
  }
  const payloadOf = (uuid: string): string =>
    version === 'V2' ? path.join(root, 'updates', 'update_files', `update_${uuid}`) : path.join(root, 'updates', 'updates_files', uuid);
  return {
    dbVersion: metadata.dbVersion,
    dumpDate: metadata.dumpDate ?? now(),
    instanceUid: null,
    keys: none,
    async *tasks() {
      let position = 0;
      for await (const { uuid, update } of v3Updates()) {
        const v4 = v3UpdateToV4(update, position++, uids.get(uuid));
        if (v4 === undefined) continue;
        const task = v4TaskToV5(v4);
        const content = v5ContentUuid(task);
        // a v2 payload's uuid is the update's `content`, kept in the v3 meta
        yield { task, payload: content === undefined ? null : payloadOf(uuidOf(content)) };
      }
    },
    async indexes() {
      // as v2/v3's readers: the earliest end of a document addition or settings update, the
      // latest end of any update (an aborted update has no end, and counts as the earliest)
      const dates = new Map<string, { created?: string; updated?: string }>();
      for await (const { uuid, update } of v3Updates()) {
        if (!v3Finished(update)) continue;
        const finishedAt: string | undefined = update.processedAt ?? update.failedAt;
        const [kind] = typeof update.meta === 'string' ? [update.meta] : Object.keys(update.meta);
        const created = kind === 'DocumentAddition' || kind === 'Settings' ? finishedAt : undefined;
        const known = dates.get(uuid) ?? {};
        if (known.created === undefined || optionBelow(created, known.created)) known.created = created;
        if (known.updated === undefined || optionBelow(known.updated, finishedAt)) known.updated = finishedAt;
        dates.set(uuid, known);
      }
      return [...uids].map(([uuid, uid]) => {
        const folderName = version === 'V2' ? `index-${uuid}` : uuid;
        const folder = path.join(root, 'indexes', folderName);
        const meta = readJson(need('indexes', folderName, 'meta.json'));
        const settings = version === 'V2' ? v2SettingsToV3(meta.settings ?? {}) : (meta.settings ?? {});
        const { created, updated } = dates.get(uuid) ?? {};
        return { uid, primaryKey: meta.primary_key ?? null, createdAt: created ?? fetchedAt, updatedAt: updated ?? fetchedAt, settings, documents: path.join(folder, 'documents.jsonl') };
      });
    },
  };
}

/** V1: one folder per index, its updates in it; tasks are numbered across indexes, in index order. */
function v1Dump(root: string, metadata: Json): OldDump {
  const indexes = (metadata.indexes ?? []) as Json[];
  // the uid names the index's folder: one the API could never reach must not reach out of the dump
  for (const index of indexes) {
    const problem = indexUidProblem(index.uid);
    if (problem !== undefined) throw new Error(problem);
  }
  const fetchedAt = now();
  return {
    dbVersion: metadata.dbVersion,
    dumpDate: fetchedAt, // a v1 dump has no date
    instanceUid: null,
    keys: none,
    async *tasks() {
      let position = 0;
      for (const index of indexes) {
        for await (const v1 of jsonLines(path.join(root, index.uid, 'updates.jsonl'))) {
          const v2 = v1UpdateToV2(v1);
          if (v2 === undefined) continue;
          const v4 = v3UpdateToV4(v2UpdateToV3(v2, fetchedAt), position++, index.uid);
          if (v4 !== undefined) yield { task: v4TaskToV5(v4), payload: null };
        }
      }
    },
    async indexes() {
      return indexes.map((index) => ({
        uid: index.uid,
        primaryKey: index.primaryKey ?? null,
        createdAt: index.createdAt,
        updatedAt: index.updatedAt,
        settings: v2SettingsToV3(v1SettingsToV2(readJson(requiredIn(root, 'V1')(index.uid, 'settings.json')))),
        documents: path.join(root, index.uid, 'documents.jsonl'),
      }));
    },
  };
}

/** V4 and V5: tasks with events; v4's are brought to v5 one at a time. */
function v4v5Dump(root: string, version: 'V4' | 'V5', metadata: Json): OldDump {
  const need = requiredIn(root, version);
  const updatesFile = need('updates', 'data.jsonl');
  const indexUuidsFile = need('index_uuids', 'data.jsonl');
  const instanceUidFile = path.join(root, 'instance-uid');
  async function* v5Tasks(): AsyncGenerator<Json> {
    for await (const task of jsonLines(updatesFile)) yield version === 'V4' ? v4TaskToV5(task) : task;
  }
  return {
    dbVersion: metadata.dbVersion,
    dumpDate: metadata.dumpDate ?? now(),
    instanceUid: existsSync(instanceUidFile) ? readFileSync(instanceUidFile, 'utf8').trim() : null,
    async *keys() {
      for await (const key of jsonLines(need('keys'))) yield version === 'V4' ? v4KeyToV5(key) : key;
    },
    async *tasks() {
      for await (const task of v5Tasks()) {
        const content = v5ContentUuid(task);
        yield { task, payload: content === undefined ? null : path.join(root, 'updates', 'updates_files', uuidOf(content)) };
      }
    },
    async indexes() {
      const fetchedAt = now();
      const indexes: OldIndex[] = [];
      for await (const entry of jsonLines(indexUuidsFile)) {
        const { uuid: named, creation_task_id: creationTask } = entry.index_meta as Json;
        const uuid = uuidOf(named);
        const uid = entry.uid as string;
        let created: string | undefined;
        let updated: string | undefined;
        for await (const task of v5Tasks()) {
          if (v5IndexUid(task) !== uid) continue;
          updated ??= v5ProcessedAt(task);
          if (task.id === creationTask) {
            created = v5CreatedAt(task);
            break;
          }
        }
        const folder = path.join(root, 'indexes', uuid);
        const meta = readJson(need('indexes', uuid, 'meta.json'));
        indexes.push({ uid, primaryKey: meta.primary_key ?? null, createdAt: created ?? fetchedAt, updatedAt: updated ?? fetchedAt, settings: meta.settings ?? {}, documents: path.join(folder, 'documents.jsonl') });
      }
      return indexes;
    },
  };
}

/** The dump of `version` unpacked in `root`, its `metadata.json` already read. */
export function openOldDump(root: string, version: OldDumpVersion, metadata: Json): OldDump {
  if (version === 'V1') return v1Dump(root, metadata);
  if (version === 'V2' || version === 'V3') return v2v3Dump(root, version, metadata);
  return v4v5Dump(root, version, metadata);
}
