#!/usr/bin/env node
/**
 * Quarry's entry point: options → stores → HTTP listener. Nothing else lives here.
 * Exit status 2 for bad options (as Meilisearch's argument parser), 1 for refused startups.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { ExperimentalFeatures } from './features/experimental-features.js';
import { buildApp } from './http/app.js';
import { Authenticator } from './auth/authenticate.js';
import { KeyStore } from './auth/key-store.js';
import { ConfigError, checkMasterKey, loadConfig, startupReport, type Config } from './config/index.js';
import { EXPORT_BUNDLE_HELP, parseExportBundleArgs } from './config/export-bundle-args.js';
import { exportBundle } from './indexes/export-bundle.js';
import { IndexEnvs } from './engine/index-env.js';
import { useRunSegmenter } from './kernels/run-segmenter.js';
import { IndexReader } from './indexes/reader.js';
import { IndexRegistry } from './indexes/registry.js';
import { importProgress } from './logs/import-progress.js';
import { LogHub } from './logs/log-hub.js';
import { StatsService } from './indexes/stats.js';
import { openInstanceStore, StoreVersionError } from './store/env.js';
import { UpdateFiles } from './store/update-files.js';
import { TaskQueue } from './tasks/queue.js';
import { Scheduler } from './tasks/scheduler.js';
import { WorkerPools } from './workers/pool.js';
import type { FeatureName } from './types/features.js';
import { indexesOf } from './types/task.js';
import { loadBuildInfo } from './version.js';
import { webhookSender } from './webhooks/deliver.js';
import { OutgoingClient } from './outgoing/client.js';
import { runtimeFromEnv, setEmbedderRuntime } from './embedders/runtime.js';
import { IpPolicy } from './outgoing/ip-policy.js';
import { WebhookStore } from './webhooks/store.js';
import { Network } from './network/network.js';
import { SearchQueue } from './search/search-queue.js';
import { importDump } from './dumps/import.js';
import { sweepDumpDir, writeDump } from './dumps/writer.js';
import { sweepSnapshotLeftovers } from './snapshots/writer.js';
import { importSnapshot } from './snapshots/import.js';
import { ImportRefused, shouldImport, type ImportRequest } from './store/import-decision.js';
import { readInstanceUid } from './store/instance-uid.js';

function readConfig(): Config | null {
  try {
    const loaded = loadConfig(process.argv.slice(2), process.env, process.cwd());
    if (loaded.kind === 'help') {
      process.stdout.write(loaded.text.endsWith('\n') ? loaded.text : `${loaded.text}\n`);
      return null;
    }
    return loaded.config;
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

function importRequest(config: Config): ImportRequest | null {
  if (config.importDump !== null) {
    return { kind: 'dump', file: config.importDump, ignoreMissing: config.ignoreMissingDump, ignoreIfDbExists: config.ignoreDumpIfDbExists };
  }
  if (config.importSnapshot !== null) {
    return { kind: 'snapshot', file: config.importSnapshot, ignoreMissing: config.ignoreMissingSnapshot, ignoreIfDbExists: config.ignoreSnapshotIfDbExists };
  }
  return null;
}

/** A failed import leaves a half-filled database: it is removed so the next start is not fooled by it. */
function refuseStart(message: string, dbPathToRemove?: string): never {
  if (dbPathToRemove !== undefined) rmSync(dbPathToRemove, { recursive: true, force: true });
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** `quarry export-bundle …`: writes an index as a bundle file, then exits (2 for bad arguments, 1 when the export fails). */
async function exportBundleCommand(argv: string[]): Promise<void> {
  let args;
  try {
    args = parseExportBundleArgs(argv, process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (args === 'help') {
    process.stdout.write(EXPORT_BUNDLE_HELP);
    return;
  }
  try {
    const bytes = await exportBundle(args);
    process.stderr.write(`Wrote the bundle of index \`${args.index}\` to ${args.out} (${bytes} bytes).\n`);
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(1);
  }
}

async function main(): Promise<void> {
  if (process.argv[2] === 'export-bundle') return exportBundleCommand(process.argv.slice(3));
  const config = readConfig();
  if (config === null) return;
  const masterKey = checkMasterKey(config);
  if (masterKey.fatal !== null) {
    process.stderr.write(`${masterKey.fatal}\n`);
    process.exit(1);
  }

  const build = loadBuildInfo();
  const requested = importRequest(config);
  let importing: ImportRequest | null = null;
  try {
    if (requested !== null && shouldImport(config.dbPath, requested)) importing = requested;
  } catch (err) {
    if (err instanceof ImportRefused) refuseStart(err.message);
    throw err;
  }
  const logs = new LogHub(config.logLevel, config.experimentalLogsMode);
  // a bar on a terminal, log lines otherwise
  const progress = importProgress(process.stderr, (line) => logs.logger.info({ target: 'quarry::import' }, line));
  if (importing?.kind === 'snapshot') {
    await importSnapshot(importing.file, config.dbPath, progress).catch((err: unknown) => refuseStart(`importing the snapshot failed: ${(err as Error).message}`));
  }
  let store;
  try {
    mkdirSync(config.dbPath, { recursive: true });
    mkdirSync(config.dumpDir, { recursive: true });
    sweepDumpDir(config.dumpDir);
    sweepSnapshotLeftovers(config.snapshotDir, config.dbPath);
    store = openInstanceStore(config.dbPath, build.pkgVersion);
  } catch (err) {
    if (err instanceof StoreVersionError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const forcedFeatures: FeatureName[] = [];
  if (config.experimentalEnableMetrics) forcedFeatures.push('metrics');
  if (config.experimentalEnableLogsRoute) forcedFeatures.push('logsRoute');
  if (config.experimentalContainsFilter) forcedFeatures.push('containsFilter');
  const keys = new KeyStore(store, config.masterKey);
  const queue = new TaskQueue(store);
  const indexes = new IndexRegistry(store);
  const indexEnvs = new IndexEnvs(config.dbPath);
  const updateFiles = new UpdateFiles(store);
  // A crash between writing a payload and enqueuing its task leaves a file no task needs.
  const referenced = queue.enqueuedContentFiles();
  updateFiles.sweep((uuid) => referenced.has(uuid));
  const workers = new WorkerPools(config.maxIndexingThreads);
  useRunSegmenter(workers.runSegmenter());
  // Every request to a URL users give goes through this client, under the one IP policy; a dump's
  // embedders are built while it is imported.
  const outgoing = new OutgoingClient(IpPolicy.fromNetworks(config.experimentalAllowedIpNetworks));
  setEmbedderRuntime(runtimeFromEnv(outgoing, process.env, config.experimentalEmbeddingCacheEntries));
  const features = new ExperimentalFeatures(store, forcedFeatures);
  const webhooks = new WebhookStore(store, config.taskWebhookUrl, config.taskWebhookAuthorizationHeader);
  const network = new Network(store);
  if (importing?.kind === 'dump') {
    await importDump(importing.file, { store, keys, features, webhooks, network, queue, indexes, indexEnvs, updateFiles, workers }, progress).catch((err: unknown) =>
      refuseStart(`importing the dump failed: ${(err as Error).message}`, config.dbPath),
    );
  }
  const scheduler = new Scheduler({
    store,
    queue,
    indexes,
    indexEnvs,
    updateFiles,
    workers,
    maxBatchedTasks: config.experimentalMaxNumberOfBatchedTasks,
    maxBatchBytes: config.experimentalLimitBatchedTasksTotalSize ?? undefined,
    log: (message, err) => logs.logger.error({ target: 'index_scheduler', err }, message),
    archives: { store, pkgVersion: build.pkgVersion, dumpDir: config.dumpDir, snapshotDir: config.snapshotDir, features: () => features.runtime(), network: () => network.get(), webhooks: () => webhooks.dumped(), writeDump },
    onBatchCommitted: webhookSender(webhooks, outgoing, (message, err) => logs.logger.error({ target: 'index_scheduler::webhook', err }, message)),
  });
  const indexing = (): ReadonlySet<string> => {
    const running = queue.processing;
    if (running === null) return new Set();
    return new Set([...running.taskUids].flatMap((uid) => indexesOf(queue.get(uid)!.kind)));
  };
  let mustRestart = false;
  const app = await buildApp({
    config,
    authenticator: new Authenticator(config.masterKey, keys),
    keys,
    store,
    build,
    features,
    queue,
    scheduler,
    indexes,
    stats: new StatsService(store, indexes, indexEnvs, indexing),
    indexReader: new IndexReader(indexes, indexEnvs),
    updateFiles,
    logs,
    webhooks,
    network,
    searchQueue: new SearchQueue(
      config.experimentalSearchQueueSize,
      config.experimentalNbSearchesPerCore * availableParallelism(),
      config.experimentalDropSearchAfter * 1000,
    ),
    instanceUid: readInstanceUid(config.dbPath),
    healthy: () => !mustRestart,
    mustRestart: async () => {
      mustRestart = true;
      await scheduler.stop();
    },
  });
  await app.listen({ host: config.host, port: config.port });
  scheduler.start();
  // `--schedule-snapshot`: the first snapshot one full interval after start, then every interval.
  const snapshotTimer =
    config.scheduleSnapshot === null
      ? null
      : setInterval(() => {
          try {
            scheduler.wake(queue.register({ kind: { name: 'snapshotCreation' } }));
          } catch (err) {
            logs.logger.error({ target: 'index_scheduler', err }, 'could not register the scheduled snapshot');
          }
        }, config.scheduleSnapshot * 1000);
  // Like Meilisearch, the startup report goes to stderr; stdout stays free.
  for (const line of startupReport(config, { build, masterKeyWarnings: masterKey.warnings })) process.stderr.write(`${line}\n`);

  const shutdown = async () => {
    if (snapshotTimer !== null) clearInterval(snapshotTimer);
    await app.close();
    await scheduler.stop();
    await workers.close();
    await indexEnvs.closeAll();
    await store.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
}

await main();
