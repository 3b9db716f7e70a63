/**
 * What a topology change moves (network.md §6, v1.50's `balance_documents`,
 * `delete_removed_shards` and `notify_import_finished`):
 * - every index's shard records brought to the new network (reshard-indexes.ts);
 * - each document's shard before and after the change, by rendezvous over the old and the new
 *   shard names (a document of an index created before any leader had none: it moves wherever
 *   its new shard lives);
 * - the export to every other remote of the new network, per index, with export.ts's sending
 *   (index and settings first, then gzipped NDJSON payloads), every request carrying the change's
 *   origin and import headers, a payload's task key being the first internal docid it holds; an
 *   instance without indexes tells each remote so with `exportNoIndexForRemote`;
 * - on the leader, its dynamic search rules first (v1.50's `export_dsr_index`), as one more index
 *   `.meili_dsr` in the import's index count: `DELETE /dynamic-search-rules` (no documents,
 *   the rule count as the index's total) then `PATCH /dynamic-search-rules/{uid}` per rule (one
 *   document each), without task keys, once its rules "index" exists (search-rules/store.ts
 *   `created`) and while the feature is on (v1.50 counts the index even with the feature off,
 *   when it sends nothing: its remotes would wait for it forever);
 * - the deletion of the documents recorded in shards no longer owned, once every remote imported
 *   them (engine shards/delete-unowned.ts);
 * - telling the other remotes our imports are done (`importFinishedForRemote`).
 * A remote that cannot be reached is logged and skipped: its documents stay here.
 */
import { deletedCount, deleteUnownedWrite } from '../../engine/shards/delete-unowned.js';
import { shardOf } from '../../engine/shards/shard-of.js';
import type { IndexEnv } from '../../engine/index-env.js';
import { ApiError } from '../../errors/api-error.js';
import { measureIndex } from '../../indexes/stats.js';
import { exportPlan, nameForExport, ownedShards, shardNames } from './network-change-state.js';
import { ruleUpdateBody, type SearchRule } from '../../search-rules/rule.js';
import type { NetworkChangeState } from '../../types/network-change.js';
import { DSR_INDEX_UID, type NetworkOrigin } from '../../types/task.js';
import type { ExportDeps, ProcessContext } from './context.js';
import { send, sendRefusable, shipIndex, type IndexShipment } from './export.js';
import { reshardIndexes } from './reshard-indexes.js';

/** What sending needs: the export client, the batch's cancelation, the log. */
type Sending = Pick<ProcessContext, 'exports' | 'signal' | 'log'>;

function exportDeps(ctx: Sending): ExportDeps {
  if (ctx.exports === undefined) throw new ApiError('internal', 'exports are not available in this process');
  return ctx.exports;
}

/**
 * Every document of an index with its shard after the change and whether it changed shard,
 * computed from the two networks' shard names rather than read from the shard records, so that an
 * export run again after a crash (the records already updated) sends the same documents.
 */
function* shardedDocuments(env: IndexEnv, change: NetworkChangeState): Generator<{ docid: number; shard: string; moved: boolean }> {
  const before = shardNames(change.oldNetwork);
  const after = shardNames(change.newNetwork);
  if (after.length === 0) return;
  for (const { key, value } of env.externalIds.getRange({})) {
    const shard = shardOf(key, after);
    yield { docid: value, shard, moved: before.length === 0 || shardOf(key, before) !== shard };
  }
}

const authorization = (writeApiKey: string | null): Record<string, string> => (writeApiKey === null ? {} : { authorization: `Bearer ${writeApiKey}` });

/** What a refusal of an import request means: sent already, or the remote takes no more from us. */
const refusedImport: IndexShipment['refused'] = (code) =>
  code === 'import_task_already_received' ? 'continue' : code === 'import_task_unknown_remote' || code === 'import_task_without_network_task' ? 'stop' : null;

/** Where an export goes and who sends it (`outName`), with the import's index count. */
interface ImportTarget {
  readonly remote: ReturnType<typeof exportPlan>[number];
  readonly origin: NetworkOrigin;
  readonly outName: string;
  readonly indexCount: number;
}

/** The leader's rules as the other remotes get them: its clear, then every rule (v1.50's `export_dsr_index`). */
async function exportRules(ctx: Sending, { remote, origin, outName, indexCount }: ImportTarget, rules: readonly SearchRule[]): Promise<void> {
  const deps = exportDeps(ctx);
  const url = new URL('/dynamic-search-rules', remote.url).toString();
  const headers = (documentCount: number) => ({
    ...authorization(remote.writeApiKey),
    ...deps.changeHeaders(origin, { remoteName: outName, indexName: DSR_INDEX_UID, documentCount }, { indexCount, taskKey: null, totalIndexDocuments: rules.length }),
  });
  if (!(await sendRefusable(deps, ctx.signal, refusedImport, url, { method: 'DELETE', headers: headers(0) }))) return;
  for (const rule of rules) {
    const body = Buffer.from(JSON.stringify(ruleUpdateBody(rule)));
    if (!(await sendRefusable(deps, ctx.signal, refusedImport, `${url}/${rule.uid}`, { method: 'PATCH', headers: { ...headers(1), 'content-type': 'application/json' }, body }))) return;
  }
}

/** `POST <remote>/network/control` (the remote URL's path replaced), retried as exports are. */
async function control(ctx: Sending, remote: { url: string; writeApiKey: string | null }, origin: NetworkOrigin, message: object): Promise<void> {
  const body = Buffer.from(JSON.stringify({ origin, message }));
  await send(exportDeps(ctx), ctx.signal, new URL('/network/control', remote.url).toString(), {
    method: 'POST',
    headers: { ...authorization(remote.writeApiKey), 'content-type': 'application/json' },
    body,
  });
}

/**
 * The export step: every index's documents get their shard in the new network (engine
 * shards/reshard.ts, which `_shard` filters and the last step read), then what every other remote
 * of the new network now owns is sent to it.
 */
export async function exportMovedDocuments(ctx: ProcessContext, change: NetworkChangeState, origin: NetworkOrigin, isLeader: boolean): Promise<void> {
  const records = ctx.indexes.list().sort((a, b) => (a.uid < b.uid ? -1 : 1));
  await reshardIndexes(ctx, shardNames(change.newNetwork));
  const outName = nameForExport(change);
  const targets = exportPlan(change);
  if (outName === null || targets.length === 0) return;
  const deps = exportDeps(ctx);
  const rules = isLeader && deps.searchRulesEnabled() && ctx.searchRules.created ? ctx.searchRules.all() : null;
  const indexCount = records.length + (rules === null ? 0 : 1);
  if (indexCount === 0) {
    for (const target of targets) {
      try {
        await control(ctx, target, origin, { type: 'exportNoIndexForRemote', remote: outName });
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        ctx.log?.(`Could not signal not to wait documents to \`${target.name}\``, err);
      }
    }
    return;
  }
  if (rules !== null) {
    ctx.progress.enterNamed('export', 'Exporting dynamic search rules', 0, indexCount);
    for (const remote of targets) {
      try {
        await exportRules(ctx, { remote, origin, outName, indexCount }, rules);
      } catch (err) {
        if (ctx.signal.aborted) throw err;
        ctx.log?.(`Could not export dynamic search rules to \`${remote.name}\``, err);
      }
    }
  }
  for (const [i, record] of records.entries()) {
    ctx.progress.enterNamed('export', `Exporting documents from index \`${record.uid}\``, indexCount - records.length + i, indexCount);
    await ctx.indexEnvs.use(record.uuid, async (env) => {
      const documents = [...shardedDocuments(env, change)];
      for (const target of targets) {
        const universe = documents.filter(({ shard, moved }) => target.shards.has(shard) && (moved || target.shards.get(shard) === 'fullShard')).map(({ docid }) => docid);
        try {
          await shipIndex(ctx, deps, { base: target.url.replace(/\/$/, ''), headers: authorization(target.writeApiKey) }, {
            uid: record.uid,
            env,
            universe,
            overrideSettings: false,
            payloadSize: deps.defaultPayloadSize,
            announceEmpty: true,
            headers: (payload) =>
              deps.changeHeaders(
                origin,
                { remoteName: outName, indexName: record.uid, documentCount: payload?.documents ?? 0 },
                { indexCount, taskKey: payload?.firstDocid ?? null, totalIndexDocuments: universe.length },
              ),
            refused: refusedImport,
          });
        } catch (err) {
          if (ctx.signal.aborted) throw err;
          ctx.log?.(`Could not export documents to \`${target.name}\`; the documents are kept`, err);
        }
      }
    });
  }
}

/**
 * The last step: the documents recorded in shards we no longer own are deleted (engine
 * shards/delete-unowned.ts); answers how many, and the registry and statistics writes.
 */
export async function deleteMovedDocuments(ctx: ProcessContext, change: NetworkChangeState): Promise<{ moved: number; commit: () => void }> {
  const owned = ownedShards(change);
  const writes: (() => void)[] = [];
  let moved = 0;
  const records = ctx.indexes.list();
  for (const [i, record] of records.entries()) {
    ctx.progress.enterNamed('delete', `Deleting removed shards for index \`${record.uid}\``, i, records.length);
    const deleted = deletedCount(await ctx.writeIndex(record.uuid, deleteUnownedWrite({ owned }, record.primaryKey)));
    if (deleted === 0) continue;
    moved += deleted;
    const measured = measureIndex(ctx.indexEnvs.get(record.uuid), ctx.indexEnvs.folderOf(record.uuid));
    writes.push(() => {
      ctx.indexes.put({ ...record, updatedAt: ctx.now });
      ctx.indexStats.put(record.uuid, measured);
    });
  }
  return { moved, commit: () => writes.forEach((write) => write()) };
}

/** Tells each remote that our imports are done; a remote that does not answer is logged. */
export async function notifyRemotes(ctx: Sending, remotes: readonly { name: string; url: string; writeApiKey: string | null }[], origin: NetworkOrigin, name: string): Promise<void> {
  await Promise.all(
    remotes.map(async (remote) => {
      try {
        await control(ctx, remote, origin, { type: 'importFinishedForRemote', remote: name, successful: true });
      } catch (err) {
        ctx.log?.(`Could not tell \`${remote.name}\` that the imports are done`, err);
      }
    }),
  );
}
