/**
 * Builds one Quarry instance from its configuration, and takes it down: the boot sequence the
 * server (main.ts, which then listens) and the library (library/quarry.ts, which calls the routes in
 * process) share, so both run the same stores, scheduler, worker pools and services.
 *
 * The steps, in order, each a function below (numbered where `openInstance` runs them): decide an
 * import, lock the db path (and settle an import a stopped process left unfinished: an import
 * is marked in progress from its start to its last write), unpack a snapshot, open the instance store (sweeping dump and snapshot
 * leftovers), build the services (sweeping unreferenced update files), import a dump, build the
 * scheduler. Failures that must stop the start are StartupRefused (the message is for the
 * user); the caller decides whether that exits a process or throws to its own caller.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Authenticator } from '../auth/authenticate.js';
import { KeyStore } from '../auth/key-store.js';
import { ChatWorkspaceStore } from '../chats/workspace-store.js';
import type { Config } from '../config/index.js';
import { defaultBatchBytes, indexingMemoryBudget } from '../config/indexing-memory.js';
import { importDump } from '../dumps/import.js';
import { dumpScratchDir, sweepDumpLeftovers, writeDump } from '../dumps/writer.js';
import { runtimeFromEnv, setEmbedderRuntime, type EmbedderRuntime } from '../embedders/runtime.js';
import { IndexEnvs } from '../engine/index-env.js';
import { warmSearchCaches } from '../engine/search/warm-caches.js';
import { ExperimentalFeatures } from '../features/experimental-features.js';
import { IndexReader } from '../indexes/reader.js';
import { IndexRegistry } from '../indexes/registry.js';
import { StatsService } from '../indexes/stats.js';
import { useRunSegmenter } from '../kernels/run-segmenter.js';
import type { ImportProgress } from '../logs/import-progress.js';
import type { LogHub } from '../logs/log-hub.js';
import { Network } from '../network/network.js';
import { importHeaders, originHeaders } from '../network/proxy-headers.js';
import { OutgoingClient } from '../outgoing/client.js';
import { IpPolicy } from '../outgoing/ip-policy.js';
import { ProxySettings } from '../outgoing/proxy-settings.js';
import { ApiError } from '../errors/api-error.js';
import { RemoteSearch } from '../search/remote-search.js';
import { personalizationService, type Reranker } from '../search/personalization.js';
import type { FormatElsewhere } from '../search/formatting.js';
import type { SettingsBodyAnswer, SettingsBodyJob } from '../settings/body.js';
import { WriteForwarding } from '../network/forward.js';
import { RemoteWriter, writeTimingsFromEnv, type WriteTimings } from '../network/remote-write.js';
import { ruleLimitsFromEnv, type RuleLimits } from '../search-rules/limits.js';
import { SearchRuleStore } from '../search-rules/store.js';
import { defaultExportPayloadSize } from '../tasks/process/export.js';
import { SearchQueue } from '../search/search-queue.js';
import { importSnapshot } from '../snapshots/import.js';
import { sweepSnapshotLeftovers } from '../snapshots/writer.js';
import { checkDatabase, UnusableDatabaseError } from '../store/db-check.js';
import { DbLockedError, lockDbPath, type DbLock } from '../store/db-lock.js';
import { openInstanceStore, StoreVersionError, type InstanceStore } from '../store/env.js';
import type { StorageFormat } from '../store/storage-format.js';
import { startDatabaseUpgrade } from '../tasks/upgrade-startup.js';
import { ImportRefused, shouldImport, type ImportRequest } from '../store/import-decision.js';
import { interruptedImport, markImportEnded, markImportStarted, removeInterruptedImport } from '../store/import-marker.js';
import { readInstanceUid } from '../store/instance-uid.js';
import { UpdateFiles } from '../store/update-files.js';
import { refuseWrites } from '../store/write-txn.js';
import { MAX_NUMBER_OF_TASKS, TaskQueue } from '../tasks/queue.js';
import { Scheduler } from '../tasks/scheduler.js';
import type { Request as S3Request, S3Snapshots } from '../snapshots/s3-upload.js';
import { TEST_HOOKS } from '../tasks/test-hooks.js';
import type { FeatureName } from '../types/features.js';
import { indexesOf } from '../types/task.js';
import type { BuildInfo } from '../version.js';
import { webhookSender } from '../webhooks/deliver.js';
import { WebhookStore } from '../webhooks/store.js';
import { WorkerPools } from '../workers/pool.js';

/** A start that must not go on; the message says why, for the user. */
export class StartupRefused extends Error {
  override name = 'StartupRefused';
}

export interface InstanceInput {
  config: Config;
  build: BuildInfo;
  logs: LogHub;
  /** Where the embedders' environment settings are read (the server passes process.env). */
  env: NodeJS.ProcessEnv;
  /** How a dump or snapshot import reports its progress. */
  progress?: ImportProgress;
}

/** Everything the HTTP routes and the library call (structurally the routes' AppDeps), and how to close it. */
export interface Instance {
  config: Config;
  build: BuildInfo;
  logs: LogHub;
  store: InstanceStore;
  keys: KeyStore;
  authenticator: Authenticator;
  features: ExperimentalFeatures;
  queue: TaskQueue;
  scheduler: Scheduler;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  stats: StatsService;
  indexReader: IndexReader;
  updateFiles: UpdateFiles;
  webhooks: WebhookStore;
  /** the chat workspaces of `/chats` and their settings */
  chatWorkspaces: ChatWorkspaceStore;
  network: Network;
  /** sends the queries that name another instance to it */
  remoteSearch: RemoteSearch;
  /** reranks the hits of searches with `personalize` */
  personalization: Reranker;
  /** sends writes to the other instances of the network, with v1.50's retries */
  remoteWriter: RemoteWriter;
  /** admits the writes of a sharded network and re-sends the leader's (network.md §5) */
  forwarding: WriteForwarding;
  /** every request to a URL users give */
  outgoing: OutgoingClient;
  /** the dynamic search rules of `/dynamic-search-rules` */
  searchRules: SearchRuleStore;
  searchQueue: SearchQueue;
  /** formats a search's large documents on a formatting thread (the worker pools') */
  formatElsewhere: FormatElsewhere;
  /** reads a large settings body on a formatting thread (settings/body.ts) */
  readSettingsBodyElsewhere: (job: SettingsBodyJob) => Promise<SettingsBodyAnswer>;
  instanceUid: string | null;
  healthy: () => boolean;
  /** Stops every writer and turns the instance unhealthy (before the task store's file is replaced). */
  mustRestart: () => Promise<void>;
  /** Stops the scheduler after its batch, then closes the pools, the environments and the lock. */
  close: () => Promise<void>;
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

/** Step 1: the import asked for, if it runs (checked before the lock creates the db path). */
function decideImport(config: Config): ImportRequest | null {
  const requested = importRequest(config);
  try {
    return requested !== null && shouldImport(config.dbPath, requested) ? requested : null;
  } catch (err) {
    if (err instanceof ImportRefused) throw new StartupRefused(err.message);
    throw err;
  }
}

/** Step 2: this process owns the db path from now on. */
function lockDb(dbPath: string): DbLock {
  mkdirSync(dbPath, { recursive: true });
  try {
    return lockDbPath(dbPath);
  } catch (err) {
    if (err instanceof DbLockedError) throw new StartupRefused(err.message);
    throw err;
  }
}

/**
 * Step 2b: a db path whose import was interrupted (store/import-marker.ts) holds an incomplete
 * database. It is imported again when an import runs (step 1 took it for empty), refused otherwise.
 * Checked under the lock: another process may be importing into it right now.
 */
function settleInterruptedImport(dbPath: string, importing: ImportRequest | null): void {
  const file = interruptedImport(dbPath);
  if (file === null) return;
  if (importing === null) {
    throw new StartupRefused(
      `the import of "${file}" into "${path.resolve(dbPath)}" was interrupted before it ended: the database is incomplete. ` +
        'Start again with the same --import-dump or --import-snapshot to import it again, or remove the db path.',
    );
  }
  removeInterruptedImport(dbPath);
}

/**
 * Step 4 (after the snapshot is unpacked, step 3): the instance environment, its version checked;
 * an older format opens only with `--upgrade-db`, or from an imported snapshot, as v1.50. The
 * db path is checked first (an imported snapshot's was, by step 3): a Meilisearch database is
 * refused, and a damaged LMDB file would crash the process when opened.
 */
function openStore(config: Config, build: BuildInfo, importing: ImportRequest | null): InstanceStore {
  try {
    if (importing?.kind !== 'snapshot') checkDatabase(config.dbPath);
    mkdirSync(config.dumpDir, { recursive: true });
    sweepDumpLeftovers(config.dumpDir, dumpScratchDir(config.dbPath));
    sweepSnapshotLeftovers(config.snapshotDir, config.dbPath);
    return openInstanceStore(config.dbPath, build.pkgVersion, config.upgradeDb || importing?.kind === 'snapshot');
  } catch (err) {
    if (err instanceof StoreVersionError || err instanceof UnusableDatabaseError) throw new StartupRefused(err.message);
    throw err;
  }
}

function forcedFeatures(config: Config): FeatureName[] {
  const forced: FeatureName[] = [];
  if (config.experimentalEnableMetrics) forced.push('metrics');
  if (config.experimentalEnableLogsRoute) forced.push('logsRoute');
  if (config.experimentalContainsFilter) forced.push('containsFilter');
  return forced;
}

/**
 * A failed import leaves a half-filled database: `undo` removes it so the next start is not fooled
 * by it.
 */
async function refuseImport(step: Promise<void>, what: string, undo?: () => Promise<void>): Promise<void> {
  try {
    await step;
  } catch (err) {
    await undo?.();
    throw new StartupRefused(`importing the ${what} failed: ${(err as Error).message}`);
  }
}

/**
 * Closes what step 5 opened. A process that exits with the pools' threads still holding their
 * LMDB environments may end by a signal rather than with its exit code.
 */
async function closeServices({ workers, indexEnvs, store }: Services): Promise<void> {
  await workers.close();
  await indexEnvs.closeAll();
  await store.close();
}

/** What the stores hold, as services (step 5): what a dump's import and the scheduler are built on. */
interface Services {
  store: InstanceStore;
  keys: KeyStore;
  queue: TaskQueue;
  indexes: IndexRegistry;
  indexEnvs: IndexEnvs;
  updateFiles: UpdateFiles;
  workers: WorkerPools;
  outgoing: OutgoingClient;
  features: ExperimentalFeatures;
  webhooks: WebhookStore;
  chatWorkspaces: ChatWorkspaceStore;
  network: Network;
  remoteWriter: RemoteWriter;
  searchRules: SearchRuleStore;
}

/**
 * The boot sequence: each step below is one function, run in this order. A step added here (an
 * upgrade of the stores, say) goes between two of them and touches nothing else.
 */
export async function openInstance(input: InstanceInput): Promise<Instance> {
  const { config, build, progress } = input;
  const importing = decideImport(config); // 1
  const lock = lockDb(config.dbPath); // 2
  try {
    settleInterruptedImport(config.dbPath, importing);
    if (importing !== null) markImportStarted(config.dbPath, importing.file);
    if (importing?.kind === 'snapshot') await refuseImport(importSnapshot(importing.file, config.dbPath, progress), 'snapshot'); // 3
    const store = openStore(config, build, importing); // 4
    const services = buildServices(input, store); // 5
    if (importing?.kind === 'dump') {
      await refuseImport(importDump(importing.file, services, progress), 'dump', async () => {
        await closeServices(services);
        rmSync(config.dbPath, { recursive: true, force: true });
      }); // 6
    }
    if (importing !== null) markImportEnded(config.dbPath);
    const storage = startDatabaseUpgrade(services.store, services.queue, build.pkgVersion); // 7
    const scheduler = buildScheduler(input, services, storage); // 8
    return assemble(input, services, scheduler, lock);
  } catch (err) {
    lock.release();
    throw err;
  }
}

/** The dynamic search rules' limits from the environment; a bad value refuses the start, as v1.50's panic does. */
function ruleLimits(env: NodeJS.ProcessEnv): RuleLimits {
  try {
    return ruleLimitsFromEnv(env);
  } catch (err) {
    throw new StartupRefused(`Error: ${(err as Error).message}`);
  }
}

/** The write forwarding's timings from the environment; a bad value refuses the start (v1.50's first forwarded write panics). */
function writeTimings(env: NodeJS.ProcessEnv): WriteTimings {
  try {
    return writeTimingsFromEnv(env);
  } catch (err) {
    throw new StartupRefused(`Error: ${(err as Error).message}`);
  }
}

function embedderRuntimeOf(input: InstanceInput, outgoing: OutgoingClient): EmbedderRuntime {
  const { logger } = input.logs;
  try {
    return runtimeFromEnv(outgoing, input.env, input.config.experimentalEmbeddingCacheEntries, {
      info: (message) => logger.info({ target: 'hf_hub' }, message),
      warn: (message, err) => logger.warn({ target: 'milli::vector::session', err }, message),
    });
  } catch (err) {
    throw new StartupRefused(`Error: ${(err as Error).message}`);
  }
}

/** Step 5: the services over the instance store and the index environments, and the worker pools. */
function buildServices(input: InstanceInput, store: InstanceStore): Services {
  const { config } = input;
  const queue = new TaskQueue(store);
  const updateFiles = new UpdateFiles(store);
  // A crash between writing a payload and enqueuing its task leaves a file no task needs.
  const referenced = queue.enqueuedContentFiles();
  updateFiles.sweep((uuid) => referenced.has(uuid));
  const workers = new WorkerPools(config.maxIndexingThreads, indexingMemoryBudget(config.maxIndexingMemory));
  useRunSegmenter(workers.runSegmenter());
  // Every request to a URL users give goes through this client, under the one IP policy; a dump's
  // embedders are built while it is imported.
  const proxies = ProxySettings.fromEnv(process.env);
  for (const warning of proxies.unsupported) input.logs.logger.warn({ target: 'quarry::outgoing' }, warning);
  const outgoing = new OutgoingClient(IpPolicy.fromNetworks(config.experimentalAllowedIpNetworks), undefined, proxies);
  setEmbedderRuntime(embedderRuntimeOf(input, outgoing));
  return {
    store,
    keys: new KeyStore(store, config.masterKey),
    queue,
    indexes: new IndexRegistry(store),
    indexEnvs: new IndexEnvs(config.dbPath),
    updateFiles,
    workers,
    outgoing,
    features: new ExperimentalFeatures(store, forcedFeatures(config), config.experimentalLegacySearchDefault ? ['legacySearch'] : []),
    webhooks: new WebhookStore(store, config.taskWebhookUrl, config.taskWebhookAuthorizationHeader),
    chatWorkspaces: new ChatWorkspaceStore(store),
    network: new Network(store),
    remoteWriter: new RemoteWriter(outgoing, writeTimings(input.env)),
    searchRules: new SearchRuleStore(store, ruleLimits(input.env)),
  };
}

/** Where snapshots go when the `--s3-*` options are given (load.ts checked they come together), and the client that sends them. */
function s3SnapshotsOf(input: InstanceInput, outgoing: OutgoingClient): { target: S3Snapshots; request: S3Request } | undefined {
  const { config } = input;
  const { s3BucketUrl, s3BucketRegion, s3BucketName, s3SnapshotPrefix, s3AccessKey, s3SecretKey, experimentalS3RoleArn, experimentalS3WebIdentityTokenFile } = config;
  if (s3BucketUrl === null || s3BucketRegion === null || s3BucketName === null || s3SnapshotPrefix === null) return undefined;
  const credentials =
    s3AccessKey !== null && s3SecretKey !== null
      ? { accessKey: s3AccessKey, secretKey: s3SecretKey }
      : {
          roleArn: experimentalS3RoleArn ?? '',
          tokenFile: experimentalS3WebIdentityTokenFile ?? '',
          durationSeconds: input.env.MEILI_EXPERIMENTAL_S3_WEB_IDENTITY_TOKEN_DURATION_SECONDS ?? '3600',
        };
  return {
    target: {
      bucketUrl: s3BucketUrl,
      region: s3BucketRegion,
      bucketName: s3BucketName,
      prefix: s3SnapshotPrefix,
      credentials,
      maxInFlightParts: config.experimentalS3MaxInFlightParts,
      // zlib's levels stop at 9 (miniz's 10 is its slowest)
      compressionLevel: Math.min(config.experimentalS3CompressionLevel, 9),
      signatureSeconds: config.experimentalS3SignatureDurationSeconds,
      partSize: config.experimentalS3MultipartPartSize,
    },
    // v1.50's S3 client is a reqwest one
    request: (url, init) => outgoing.request(url, { ...init, proxyRules: 'reqwest' }),
  };
}

/** Step 8: the task scheduler (started by the caller, once it is ready to answer), which runs the upgrade task step 7 registered first. */
function buildScheduler(input: InstanceInput, services: Services, storage: StorageFormat): Scheduler {
  const { config, build, logs } = input;
  const { store, queue, indexes, indexEnvs, updateFiles, workers, features, network, webhooks, chatWorkspaces, outgoing, searchRules } = services;
  return new Scheduler({
    store,
    storage,
    queue,
    indexes,
    indexEnvs,
    updateFiles,
    searchRules,
    workers,
    maxBatchedTasks: config.experimentalMaxNumberOfBatchedTasks,
    maxBatchBytes: config.experimentalLimitBatchedTasksTotalSize ?? defaultBatchBytes(workers.indexingMemory),
    log: (message, err) => logs.logger.error({ target: 'index_scheduler', err }, message),
    notice: (level, message) => logs.logger[level]({ target: 'index_scheduler' }, message),
    maxTasks: config.experimentalReplicationParameters ? null : (TEST_HOOKS.maxNumberOfTasks ?? MAX_NUMBER_OF_TASKS),
    archives: {
      store,
      pkgVersion: build.pkgVersion,
      dumpDir: config.dumpDir,
      snapshotDir: config.snapshotDir,
      compactSnapshots: !config.experimentalNoSnapshotCompaction,
      s3Snapshots: s3SnapshotsOf(input, outgoing),
      features: () => features.runtime(),
      network: () => network.get(),
      webhooks: () => webhooks.dumped(),
      chatWorkspaces: () => chatWorkspaces.entries(),
      writeDump: (dumpDir, ...rest) => writeDump(dumpDir, dumpScratchDir(config.dbPath), ...rest),
    },
    exports: {
      request: (url, init) => outgoing.request(url, init),
      visibleSettings: () => ({ foreignKeys: features.enabled('foreignKeys'), chat: features.enabled('chatCompletions') }),
      defaultPayloadSize: defaultExportPayloadSize(config.httpPayloadSizeLimit),
      filterFeature: (feature) => features.enabled(feature),
      searchRulesEnabled: () => features.enabled('dynamicSearchRules'),
      changeHeaders: (origin, data, metadata) => ({ ...originHeaders(origin), ...importHeaders(data, metadata) }),
    },
    networkVersion: () => (network.sharding() ? network.current().version : null),
    shardingOf: () => network.shardingOf(),
    onBatchCommitted: webhookSender(webhooks, outgoing, (message, err) => logs.logger.error({ target: 'index_scheduler::webhook', err }, message)),
    onIndexWritten: (env) => {
      try {
        warmSearchCaches(env);
      } catch (err) {
        // the first search builds them then, as it would have
        logs.logger.warn({ target: 'index_scheduler', err }, 'could not build the search caches of a written index');
      }
    },
  });
}

/** The instance: the services, what the routes read through them, its health and its closing. */
function assemble(input: InstanceInput, services: Services, scheduler: Scheduler, lock: DbLock): Instance {
  const { config, build, logs } = input;
  const { store, keys, queue, indexes, indexEnvs, updateFiles, features, webhooks, chatWorkspaces, network, outgoing, remoteWriter, searchRules } = services;
  const indexing = (): ReadonlySet<string> => {
    const running = queue.processing;
    if (running === null) return new Set();
    return new Set([...running.taskUids].flatMap((uid) => indexesOf(queue.get(uid)!.kind)));
  };
  let mustRestart = false;
  const indexReader = new IndexReader(indexes, indexEnvs);
  return {
    config,
    build,
    logs,
    store,
    keys,
    authenticator: new Authenticator(config.masterKey, keys),
    features,
    queue,
    scheduler,
    indexes,
    indexEnvs,
    stats: new StatsService(store, indexes, indexEnvs, indexing),
    indexReader,
    updateFiles,
    webhooks,
    chatWorkspaces,
    network,
    remoteSearch: new RemoteSearch(outgoing),
    personalization: personalizationService(config.experimentalPersonalizationApiKey, config.experimentalPersonalizationUrl, outgoing),
    remoteWriter,
    forwarding: new WriteForwarding({ network, writer: remoteWriter, queue, updateFiles }),
    outgoing,
    searchRules,
    searchQueue: new SearchQueue(
      config.experimentalSearchQueueSize,
      config.experimentalNbSearchesPerCore * availableParallelism(),
      config.experimentalDropSearchAfter * 1000,
    ),
    formatElsewhere: (job) => services.workers.formatStored(job),
    readSettingsBodyElsewhere: (job) => services.workers.readSettingsBody(job),
    instanceUid: readInstanceUid(config.dbPath),
    healthy: () => !mustRestart,
    mustRestart: async () => {
      mustRestart = true;
      await scheduler.stop();
      // keys, features, webhooks, the network and chat workspaces write this environment too
      refuseWrites(store.root, () => new ApiError('internal', 'The task queue was compacted: restart the instance to write to it.'));
    },
    close: async () => {
      await scheduler.stop();
      await closeServices(services);
      lock.release();
    },
  };
}
