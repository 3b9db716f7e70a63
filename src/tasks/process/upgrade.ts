/**
 * `upgradeDatabase` (dumps-snapshots-upgrade.md §6): converts a database opened in an older
 * storage format (store/env.ts) to the current one. Every enqueued or failed upgrade task runs in
 * this batch, before any other task (autobatcher).
 *
 * Nothing the old format holds is changed until the very end, so a cancelation, a failure or a
 * crash leaves the old database as it was (the rollback is to keep it):
 * - each index is copied (LMDB's compacting copy) into a new environment, which is converted in one
 *   transaction that records its new format (engine/storage-upgrade.ts), then copied compacting
 *   once more when the conversion rewrote values; searches keep reading the old environment
 *   meanwhile;
 * - the batch's commit, one instance transaction, points the registry at the converted copies,
 *   stores their statistics (measured on the copies), and records the instance's new format last; the old
 *   environments are deleted once that is durable;
 * - a canceled or failed batch deletes the copies; a crash leaves them as unused folders, which the
 *   next attempt deletes first (no other batch runs on an older format, so a folder no index uses
 *   then is one of them, or one an interrupted index creation left).
 * Each conversion runs on the main thread, so searches wait for the index being converted only.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { ApiError } from '../../errors/api-error.js';
import { indexFormat, upgradeIndexEnv } from '../../engine/storage-upgrade.js';
import type { IndexRecord } from '../../indexes/registry.js';
import { measureIndex } from '../../indexes/stats.js';
import type { MeasuredIndex } from '../../indexes/stats-store.js';
import { STORE_FORMAT_VERSION } from '../../store/env.js';
import { hookDelay, TEST_HOOKS } from '../test-hooks.js';
import type { BatchProcessor } from './context.js';
import { succeeded } from './outcome.js';

const interrupted = () => new Error('the upgrade was interrupted');

export const processUpgrade: BatchProcessor = async (ctx, tasks) => {
  const storage = ctx.storage;
  if (storage === undefined) throw new ApiError('internal', 'Quarry cannot upgrade a database without its storage format.');
  const from = storage.format;
  const done = { tasks: tasks.map((task) => succeeded(task)) };
  // a database already in the current format (an upgrade task a dump brought) has nothing to convert
  if (from === STORE_FORMAT_VERSION) return done;

  const records = ctx.indexes.list();
  const copies: [IndexRecord, string, MeasuredIndex][] = [];
  // every copy's folder, from its creation on
  const created: string[] = [];
  const discard = async () => {
    for (const uuid of created.splice(0)) await ctx.indexEnvs.delete(uuid);
  };
  const checkpoint = () => {
    if (ctx.signal.aborted) throw interrupted();
  };
  /** A compacting copy of the environment `source` under a new uuid, listed in `created`. */
  const compactedCopy = async (source: string): Promise<string> => {
    const uuid = randomUUID();
    mkdirSync(ctx.indexEnvs.folderOf(uuid), { recursive: true });
    created.push(uuid);
    await ctx.indexEnvs.use(source, (env) => env.root.backup(ctx.indexEnvs.folderOf(uuid), true));
    return uuid;
  };
  const used = new Set(records.map((record) => record.uuid));
  for (const uuid of ctx.indexEnvs.storedUuids()) if (!used.has(uuid)) await ctx.indexEnvs.delete(uuid);
  try {
    // Quarry has no dynamic-search-rules index, v1.50's second step
    ctx.progress.enter('upgradeIndexes', 'upgrading user indexes');
    for (const [at, record] of records.entries()) {
      checkpoint();
      ctx.progress.variable('upgradeIndex', `Upgrading index \`${record.uid}\``, at, records.length);
      const current = await ctx.indexEnvs.use(record.uuid, async (env) => indexFormat(env, from) === STORE_FORMAT_VERSION);
      if (current) continue;
      let uuid = await compactedCopy(record.uuid);
      const converted = await ctx.indexEnvs.use(uuid, async (env) => upgradeIndexEnv(env, indexFormat(env, from), checkpoint));
      if (converted.split + converted.packed + converted.documents > 0) {
        // the conversion rewrote values in one transaction, and only later writes reuse the pages
        // it freed: a second compacting copy drops them (a movies index: 144 MiB → 80 MiB)
        const converting = uuid;
        uuid = await compactedCopy(converting);
        await ctx.indexEnvs.delete(converting);
        created.splice(created.indexOf(converting), 1);
      }
      const measured = await ctx.indexEnvs.use(uuid, async (env) => measureIndex(env, ctx.indexEnvs.folderOf(uuid)));
      copies.push([record, uuid, measured]);
      await hookDelay(TEST_HOOKS.upgradeIndexDelayMs, ctx.signal);
      if (TEST_HOOKS.upgradeFails) throw new Error('the upgrade failed on purpose (QUARRY_TEST_UPGRADE_FAILS)');
    }
    checkpoint();
  } catch (err) {
    await discard();
    throw err;
  }
  return {
    ...done,
    commit: () => {
      for (const [record, uuid, measured] of copies) {
        ctx.indexes.put({ ...record, uuid });
        ctx.indexStats.put(uuid, measured);
        ctx.indexStats.remove(record.uuid);
      }
      storage.markUpgraded();
    },
    afterCommit: async () => {
      for (const [record] of copies) await ctx.indexEnvs.delete(record.uuid);
    },
    abandon: discard,
  };
};
