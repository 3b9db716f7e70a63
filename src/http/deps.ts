/**
 * What the HTTP layer is given: configuration and the services it calls. Built by main.ts
 * (and by tests), so routes never reach for globals.
 */
import type { Authenticator } from '../auth/authenticate.js';
import type { KeyStore } from '../auth/key-store.js';
import type { ChatWorkspaceStore } from '../chats/workspace-store.js';
import type { Config } from '../config/index.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { IndexReader } from '../indexes/reader.js';
import type { IndexRegistry } from '../indexes/registry.js';
import type { LogHub } from '../logs/log-hub.js';
import type { Network } from '../network/network.js';
import type { WriteForwarding } from '../network/forward.js';
import type { RemoteWriter } from '../network/remote-write.js';
import type { RemoteSearch } from '../search/remote-search.js';
import type { Reranker } from '../search/personalization.js';
import type { OutgoingClient } from '../outgoing/client.js';
import type { SearchQueue } from '../search/search-queue.js';
import type { FormatElsewhere } from '../search/formatting.js';
import type { SettingsBodyAnswer, SettingsBodyJob } from '../settings/body.js';
import type { SearchRuleStore } from '../search-rules/store.js';
import type { StatsService } from '../indexes/stats.js';
import type { InstanceStore } from '../store/env.js';
import type { UpdateFiles } from '../store/update-files.js';
import type { TaskQueue } from '../tasks/queue.js';
import type { Task } from '../types/task.js';
import type { BuildInfo } from '../version.js';
import type { WebhookStore } from '../webhooks/store.js';

export interface AppDeps {
  config: Config;
  authenticator: Authenticator;
  keys: KeyStore;
  store: InstanceStore;
  build: BuildInfo;
  features: ExperimentalFeatures;
  queue: TaskQueue;
  /**
   * Woken after every registration (a cancelation may abort the running batch); told of a large
   * documents payload as its upload begins (the extraction threads start then).
   */
  scheduler: { wake(task?: Task): void; expectDocuments(bytes: number): void };
  indexes: IndexRegistry;
  stats: StatsService;
  /** Index lookups and reads (settings, fields, documents, search) by uid. */
  indexReader: IndexReader;
  updateFiles: UpdateFiles;
  logs: LogHub;
  webhooks: WebhookStore;
  /** the chat workspaces of `/chats` and their settings */
  chatWorkspaces: ChatWorkspaceStore;
  network: Network;
  /** sends the queries that name another instance to it */
  remoteSearch: RemoteSearch;
  /** reranks the hits of searches with `personalize` (Cohere, with `--experimental-personalization-api-key`) */
  personalization: Reranker;
  /** admits the writes of a sharded network and re-sends the leader's (network.md §5) */
  forwarding: WriteForwarding;
  /** sends writes to the other instances of the network, with v1.50's retries (the timings read at start) */
  remoteWriter: RemoteWriter;
  /** every request to a URL users give (the checks of a network change) */
  outgoing: OutgoingClient;
  /** searches waiting for, or holding, one of the search slots */
  searchQueue: SearchQueue;
  /** formats a search's large documents on a formatting thread */
  formatElsewhere?: FormatElsewhere;
  /** reads a large settings body on a formatting thread (settings/body.ts) */
  readSettingsBodyElsewhere?: (job: SettingsBodyJob) => Promise<SettingsBodyAnswer>;
  /** the dynamic search rules of `/dynamic-search-rules` */
  searchRules: SearchRuleStore;
  /** `<db path>/instance-uid`, which a dump carries on (store/instance-uid.ts) */
  instanceUid: string | null;
  /** Health of the process: `false` once a fatal storage error requires a restart. */
  healthy: () => boolean;
  /**
   * Stops every writer (the scheduler after its current batch, new registrations) and turns the
   * process unhealthy until restart: used before the task store's file is replaced under it.
   */
  mustRestart: () => Promise<void>;
}
