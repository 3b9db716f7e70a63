/**
 * THE option table: every launch option, its codec, default, help line and how the config file treats it.
 *
 * Callers: load.ts (argv / environment / TOML), help.ts (--help). Nothing else lists options.
 * Invariants:
 *  - one entry per Config field except the derived `host`/`port`; the mapped type below makes a
 *    missing or extra entry a compile error;
 *  - every name derives from the Config field, as in Meilisearch (field `dbPath` → flag `--db-path`,
 *    TOML key `db_path`, environment `QUARRY_DB_PATH` with Meilisearch's `MEILI_DB_PATH` as an alias);
 *  - an option without `valueName` is a boolean flag: no value on the command line, true/false elsewhere.
 */
import {
  bool,
  byteSize,
  environment,
  httpAddr,
  ipNetworks,
  logLevel,
  logsMode,
  maxThreads,
  nonZeroUsize,
  scheduleSnapshot,
  text,
  url,
  usize,
  DEFAULT_SNAPSHOT_INTERVAL_SEC,
  type Codec,
  type Environment,
  type LogLevel,
  type LogsMode,
} from './values.js';

/** The validated launch configuration. Paths are kept as given (relative ones are relative to the cwd). */
export interface Config {
  /** `host:port` as given; `host`/`port` are its parts, ready for `listen()` (IPv6 without brackets). */
  httpAddr: string;
  host: string;
  port: number;
  masterKey: string | null;
  env: Environment;
  dbPath: string;
  dumpDir: string;
  snapshotDir: string;
  /** Bytes. */
  httpPayloadSizeLimit: number;
  /** PEM certificate chain; with `sslKeyPath`, the server speaks HTTPS. */
  sslCertPath: string | null;
  sslKeyPath: string | null;
  /** PEM roots that client certificates are checked against. */
  sslAuthPath: string | null;
  /** DER OCSP response stapled to the certificate. */
  sslOcspPath: string | null;
  sslRequireAuth: boolean;
  sslResumption: boolean;
  sslTickets: boolean;
  logLevel: LogLevel;
  /** null = engine default (half the cores; all of them for a dump import); 0 = every core. */
  maxIndexingThreads: number | null;
  /** Bytes; null = engine default (2/3 of the RAM). */
  maxIndexingMemory: number | null;
  noAnalytics: boolean;
  /** The configuration file actually read (as given), or null when none was. */
  configFilePath: string | null;
  importDump: string | null;
  ignoreMissingDump: boolean;
  ignoreDumpIfDbExists: boolean;
  importSnapshot: string | null;
  ignoreMissingSnapshot: boolean;
  ignoreSnapshotIfDbExists: boolean;
  /** Seconds between scheduled snapshots; null = disabled. */
  scheduleSnapshot: number | null;
  upgradeDb: boolean;
  experimentalEnableMetrics: boolean;
  experimentalEnableLogsRoute: boolean;
  experimentalContainsFilter: boolean;
  /** The `legacySearch` feature's value until one is set through the API. */
  experimentalLegacySearchDefault: boolean;
  experimentalLogsMode: LogsMode;
  experimentalSearchQueueSize: number;
  /** Seconds. */
  experimentalDropSearchAfter: number;
  experimentalNbSearchesPerCore: number;
  /** null = unlimited. */
  experimentalMaxNumberOfBatchedTasks: number | null;
  /** Bytes; null = engine default (half of the indexing memory, at most 10 GiB). */
  experimentalLimitBatchedTasksTotalSize: number | null;
  experimentalEmbeddingCacheEntries: number;
  /** v1.50's older settings and dump indexers: Quarry has one, whose index is the same (accepted, no effect). */
  experimentalNoEdition2024ForSettings: boolean;
  experimentalNoEdition2024ForDumps: boolean;
  /** v1.50's writemap for index environments, which Quarry always uses (accepted, already in effect). */
  experimentalReduceIndexingMemoryUsage: boolean;
  /** Snapshots copy the environments without compacting them. */
  experimentalNoSnapshotCompaction: boolean;
  /** v1.50's `TaskId`/`DryRun` request headers are read (http/replication-headers.ts), and the task queue is never cleaned up by itself. */
  experimentalReplicationParameters: boolean;
  /** CIDRs (or `any`) that outgoing requests may reach besides global addresses. */
  experimentalAllowedIpNetworks: readonly string[];
  /** Cohere's API key for `personalize`; null (or blank): searches with it fail. */
  experimentalPersonalizationApiKey: string | null;
  /** Where `personalize` reranks (Quarry's option): Cohere's rerank endpoint unless set. */
  experimentalPersonalizationUrl: string;
  taskWebhookUrl: string | null;
  taskWebhookAuthorizationHeader: string | null;
  /** S3 snapshots (v1.50's Enterprise Edition `S3SnapshotOpts`, checked together in load.ts): where, and with what credentials */
  s3BucketUrl: string | null;
  s3BucketRegion: string | null;
  s3BucketName: string | null;
  s3SnapshotPrefix: string | null;
  s3AccessKey: string | null;
  s3SecretKey: string | null;
  experimentalS3RoleArn: string | null;
  experimentalS3WebIdentityTokenFile: string | null;
  /** parts uploaded at once */
  experimentalS3MaxInFlightParts: number;
  /** gzip level of the streamed tarball (0: stored) */
  experimentalS3CompressionLevel: number;
  /** how long a presigned request stays valid */
  experimentalS3SignatureDurationSeconds: number;
  experimentalS3MultipartPartSize: number;
}

export type OptionKey = Exclude<keyof Config, 'host' | 'port'>;

export interface OptionSpec<T> {
  readonly codec: Codec<T>;
  readonly default: T;
  /** Placeholder in `--flag <VALUE>`; absent for boolean flags. */
  readonly valueName?: string;
  /** Value taken when the flag is given without one (`--schedule-snapshot`). */
  readonly bareValue?: string;
  /**
   * How the config file treats the key: applied (default); `ignored` = type-checked but never applied
   * (Meilisearch never exports the import options); `forbidden` = an error (`config_file_path`).
   */
  readonly toml?: 'ignored' | 'forbidden';
  /** Another option that must be set (on the command line or in the environment) when this one is true. */
  readonly requires?: OptionKey;
  readonly conflictsWith?: OptionKey;
  /** A second name (camelCase, named like a Config field) taken on the command line, in the environment and in the file. */
  readonly alias?: string;
  /** The environment variables' name after `QUARRY_` / `MEILI_` when it is not the flag's (v1.50 names one so). */
  readonly envName?: string;
  /** v1.50's field name when the camelCase key cannot say where its words split (`…_edition_2024_…`, but `s3_…`). */
  readonly snakeName?: string;
  readonly help: string;
  /** For --help when the default is not a plain value. */
  readonly defaultText?: string;
}

// Codecs for nullable values are the non-null ones: a codec never produces null unless it says so.
const optionalText: Codec<string | null> = text;
const optionalByteSize: Codec<number | null> = byteSize;
const optionalNonZeroUsize: Codec<number | null> = nonZeroUsize;

export const OPTIONS: { readonly [K in OptionKey]: OptionSpec<Config[K]> } = {
  dbPath: {
    codec: text,
    default: './data.ms',
    valueName: 'PATH',
    help: 'Directory where the database files are created and read.',
  },
  httpAddr: {
    codec: httpAddr,
    default: 'localhost:7700',
    valueName: 'HOST:PORT',
    help: 'Address and port the HTTP server binds to.',
  },
  masterKey: {
    codec: optionalText,
    default: null,
    valueName: 'KEY',
    help: 'Master key protecting every route except GET /health (at least 16 bytes in production).',
  },
  env: {
    codec: environment,
    default: 'development',
    valueName: 'ENV',
    help: 'Environment: development or production (production requires a master key).',
  },
  taskWebhookUrl: {
    codec: url,
    default: null,
    valueName: 'URL',
    help: 'URL notified (POST, gzipped NDJSON) with the tasks of every finished batch.',
  },
  taskWebhookAuthorizationHeader: {
    codec: optionalText,
    default: null,
    valueName: 'VALUE',
    help: 'Authorization header sent to --task-webhook-url.',
  },
  noAnalytics: {
    codec: bool,
    default: false,
    help: 'Disables telemetry (accepted for compatibility: Quarry never sends any).',
  },
  httpPayloadSizeLimit: {
    codec: byteSize,
    default: 100_000_000,
    valueName: 'SIZE',
    help: 'Largest accepted request body, in bytes or with a unit (e.g. 100MB, 1GiB).',
    defaultText: '100 MB',
  },
  sslCertPath: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    help: "The server's PEM certificate chain; with --ssl-key-path the server answers over HTTPS only.",
  },
  sslKeyPath: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    help: "The server's private key (PEM: PKCS#8, PKCS#1 RSA or SEC1 EC).",
  },
  sslAuthPath: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    help: 'PEM roots of client certificates: a client presenting a certificate must be signed by one.',
  },
  sslOcspPath: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    help: 'A DER OCSP response stapled to the certificate.',
  },
  sslRequireAuth: {
    codec: bool,
    default: false,
    help: 'Refuses clients without a certificate signed by a root of --ssl-auth-path.',
  },
  sslResumption: {
    codec: bool,
    default: false,
    help: "Accepted as v1.50's: TLS sessions resume by id whether it is given or not (rustls keeps 256 by default too).",
  },
  sslTickets: {
    codec: bool,
    default: false,
    help: 'Issues TLS 1.2 session tickets.',
  },
  importSnapshot: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    toml: 'ignored',
    help: 'Starts from the snapshot at this path.',
  },
  ignoreMissingSnapshot: {
    codec: bool,
    default: false,
    toml: 'ignored',
    requires: 'importSnapshot',
    help: 'Starts normally when --import-snapshot points to no file.',
  },
  ignoreSnapshotIfDbExists: {
    codec: bool,
    default: false,
    toml: 'ignored',
    requires: 'importSnapshot',
    help: 'Ignores --import-snapshot when a database already exists.',
  },
  snapshotDir: {
    codec: text,
    default: 'snapshots/',
    valueName: 'DIR',
    help: 'Directory where snapshots are written.',
  },
  scheduleSnapshot: {
    codec: scheduleSnapshot,
    default: null,
    valueName: 'SECONDS',
    bareValue: String(DEFAULT_SNAPSHOT_INTERVAL_SEC),
    help: `Takes a snapshot every SECONDS (${DEFAULT_SNAPSHOT_INTERVAL_SEC} when given without a value).`,
    defaultText: 'disabled',
  },
  importDump: {
    codec: optionalText,
    default: null,
    valueName: 'FILE',
    toml: 'ignored',
    conflictsWith: 'importSnapshot',
    help: 'Imports the dump file at this path before starting.',
  },
  ignoreMissingDump: {
    codec: bool,
    default: false,
    toml: 'ignored',
    requires: 'importDump',
    help: 'Starts normally when --import-dump points to no file.',
  },
  ignoreDumpIfDbExists: {
    codec: bool,
    default: false,
    toml: 'ignored',
    requires: 'importDump',
    help: 'Ignores --import-dump when a database already exists.',
  },
  dumpDir: {
    codec: text,
    default: 'dumps/',
    valueName: 'DIR',
    help: 'Directory where dumps are written.',
  },
  logLevel: {
    codec: logLevel,
    default: 'INFO',
    valueName: 'LEVEL',
    help: 'Log verbosity: OFF, ERROR, WARN, INFO, DEBUG or TRACE.',
  },
  experimentalContainsFilter: {
    codec: bool,
    default: false,
    help: 'Enables the CONTAINS filter operator (experimental feature containsFilter).',
  },
  experimentalLegacySearchDefault: {
    codec: bool,
    default: false,
    envName: 'EXPERIMENTAL_LEGACY_SEARCH',
    help: 'Turns the legacy search pipeline (experimental feature legacySearch) on until the feature is set through /experimental-features.',
  },
  experimentalEnableMetrics: {
    codec: bool,
    default: false,
    help: 'Enables GET /metrics (experimental feature metrics).',
  },
  experimentalSearchQueueSize: {
    codec: usize,
    default: 1000,
    valueName: 'N',
    help: 'Searches that may wait for a slot; beyond that, searches answer 503.',
  },
  experimentalDropSearchAfter: {
    codec: nonZeroUsize,
    default: 60,
    valueName: 'SECONDS',
    help: 'Queued searches older than this are dropped.',
  },
  experimentalNbSearchesPerCore: {
    codec: nonZeroUsize,
    default: 4,
    valueName: 'N',
    help: 'Searches running at once per CPU core.',
  },
  experimentalLogsMode: {
    codec: logsMode,
    default: 'HUMAN',
    valueName: 'MODE',
    help: 'Log format: HUMAN or JSON.',
  },
  experimentalEnableLogsRoute: {
    codec: bool,
    default: false,
    help: 'Enables the /logs routes (experimental feature logsRoute).',
  },
  experimentalMaxNumberOfBatchedTasks: {
    codec: optionalNonZeroUsize,
    default: null,
    valueName: 'N',
    help: 'Most tasks processed in one batch.',
    defaultText: 'unlimited',
  },
  experimentalLimitBatchedTasksTotalSize: {
    codec: optionalByteSize,
    default: null,
    valueName: 'SIZE',
    help: 'Largest total payload size of one batch.',
    defaultText: 'half of the indexing memory, at most 10 GiB',
  },
  experimentalEmbeddingCacheEntries: {
    codec: usize,
    default: 0,
    valueName: 'N',
    help: 'Entries of the per-embedder cache of query embeddings (0 = no cache).',
  },
  experimentalNoEdition2024ForSettings: {
    codec: bool,
    snakeName: 'experimental_no_edition_2024_for_settings',
    default: false,
    help: 'Meilisearch v1.50 indexes settings changes with its older indexer; Quarry has one indexer, which makes the same index: accepted, no effect.',
  },
  experimentalNoEdition2024ForDumps: {
    codec: bool,
    snakeName: 'experimental_no_edition_2024_for_dumps',
    default: false,
    help: 'Meilisearch v1.50 imports dumps with its older indexer; Quarry has one indexer, which makes the same index: accepted, no effect.',
  },
  experimentalReduceIndexingMemoryUsage: {
    codec: bool,
    default: false,
    help: "Maps index environments with LMDB's writemap, as Quarry always does: accepted, already in effect.",
  },
  experimentalNoSnapshotCompaction: {
    codec: bool,
    default: false,
    help: 'Snapshots copy the databases as they are instead of compacting them: faster, larger.',
  },
  experimentalReplicationParameters: {
    codec: bool,
    default: false,
    help: 'Reads the `TaskId` (the uid a new task gets) and `DryRun` (validate, register nothing) request headers, and stops the automatic cleanup of a full task queue.',
  },
  experimentalPersonalizationApiKey: {
    codec: optionalText,
    default: null,
    valueName: 'KEY',
    help: 'Cohere API key with which searches that ask for `personalize` rerank their hits; without one they fail.',
  },
  experimentalPersonalizationUrl: {
    codec: url as Codec<string>,
    // v1.50's fixed endpoint
    default: 'https://api.cohere.ai/v1/rerank',
    valueName: 'URL',
    help: 'Rerank endpoint for `personalize` (Quarry only; a Cohere-compatible API), reached through the IP policy.',
  },
  experimentalAllowedIpNetworks: {
    codec: ipNetworks,
    default: [],
    valueName: 'CIDRS',
    help: 'Comma-separated CIDRs (or `any`) that outgoing requests may reach besides public addresses.',
    defaultText: 'none',
  },
  s3BucketUrl: {
    codec: optionalText,
    default: null,
    valueName: 'S3_BUCKET_URL',
    help: 'Snapshots are streamed to this S3 endpoint (`https://s3.<region>.amazonaws.com`, path-style) instead of the snapshot directory; needs the other `--s3-*` options.',
  },
  s3BucketRegion: { codec: optionalText, default: null, valueName: 'S3_BUCKET_REGION', help: 'The region of the S3 bucket snapshots go to.' },
  s3BucketName: { codec: optionalText, default: null, valueName: 'S3_BUCKET_NAME', help: 'The S3 bucket snapshots go to.' },
  s3SnapshotPrefix: { codec: optionalText, default: null, valueName: 'S3_SNAPSHOT_PREFIX', help: 'The key prefix of the snapshot object, `<prefix>/<db folder name>.snapshot`.' },
  s3AccessKey: { codec: optionalText, default: null, valueName: 'S3_ACCESS_KEY', help: 'The access key of the S3 credentials (with `--s3-secret-key`).' },
  s3SecretKey: { codec: optionalText, default: null, valueName: 'S3_SECRET_KEY', help: 'The secret key of the S3 credentials.' },
  experimentalS3RoleArn: {
    codec: optionalText,
    default: null,
    valueName: 'EXPERIMENTAL_S3_ROLE_ARN',
    help: 'The role assumed with a web identity token (with `--experimental-s3-web-identity-token-file`) for S3 credentials, from AWS STS.',
  },
  experimentalS3WebIdentityTokenFile: {
    codec: optionalText,
    default: null,
    valueName: 'EXPERIMENTAL_S3_WEB_IDENTITY_TOKEN_FILE',
    help: 'The file holding the web identity token of `--experimental-s3-role-arn`.',
  },
  experimentalS3MaxInFlightParts: { codec: nonZeroUsize, default: 10, valueName: 'EXPERIMENTAL_S3_MAX_IN_FLIGHT_PARTS', help: 'Parts of an S3 snapshot uploaded at once.' },
  experimentalS3CompressionLevel: { codec: usize, default: 0, valueName: 'EXPERIMENTAL_S3_COMPRESSION_LEVEL', help: 'The gzip level of an S3 snapshot (0: stored; above 9: 9).' },
  experimentalS3SignatureDurationSeconds: {
    codec: usize,
    default: 28800,
    valueName: 'EXPERIMENTAL_S3_SIGNATURE_DURATION_SECONDS',
    help: 'How long each presigned S3 request stays valid.',
  },
  experimentalS3MultipartPartSize: {
    codec: byteSize,
    default: 375 * 2 ** 20,
    valueName: 'EXPERIMENTAL_S3_MULTIPART_PART_SIZE',
    help: 'The size of the parts an S3 snapshot is uploaded in.',
    defaultText: '375 MiB',
  },
  maxIndexingMemory: {
    codec: optionalByteSize,
    default: null,
    valueName: 'SIZE',
    help: 'Memory budget of indexing, in bytes or with a unit.',
    defaultText: '2/3 of the RAM',
  },
  maxIndexingThreads: {
    codec: maxThreads,
    default: null,
    valueName: 'N',
    help: 'Threads used for indexing, at most the CPU cores (`unlimited` or empty = default).',
    defaultText: 'unlimited (half of the CPU cores)',
  },
  upgradeDb: {
    codec: bool,
    default: false,
    // the spec's name for it (Meilisearch before v1.50)
    alias: 'experimentalDumplessUpgrade',
    help: 'Upgrades a database made by an older storage format on startup (an `upgradeDatabase` task); also --experimental-dumpless-upgrade.',
  },
  configFilePath: {
    codec: optionalText,
    default: null,
    valueName: 'PATH',
    toml: 'forbidden',
    help: 'TOML configuration file; its keys are the option names in snake_case.',
    defaultText: './config.toml (skipped when absent)',
  },
};

export const OPTION_KEYS = Object.keys(OPTIONS) as OptionKey[];

/** Every option of the table, seen without its value type (for code that only reads names). */
export function optionSpec(key: OptionKey): OptionSpec<unknown> {
  return OPTIONS[key] as OptionSpec<unknown>;
}

export interface OptionNames {
  /** `db-path` (without the leading dashes). */
  readonly flag: string;
  /** `db_path` */
  readonly tomlKey: string;
  /** `[QUARRY_DB_PATH, MEILI_DB_PATH]`: the first one set wins. */
  readonly envNames: readonly [string, string];
}

function namesOf(field: string, envName?: string, snakeName?: string): OptionNames {
  const flag = snakeName?.replaceAll('_', '-') ?? field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  const tomlKey = flag.replaceAll('-', '_');
  const screaming = envName ?? tomlKey.toUpperCase();
  return { flag, tomlKey, envNames: [`QUARRY_${screaming}`, `MEILI_${screaming}`] };
}

export function optionNames(key: OptionKey): OptionNames {
  const { envName, snakeName } = optionSpec(key);
  return namesOf(key, envName, snakeName);
}

/** The option's names, then its alias's when it has one (`--upgrade-db`, `--experimental-dumpless-upgrade`). */
export function allOptionNames(key: OptionKey): OptionNames[] {
  const { alias } = optionSpec(key);
  return alias === undefined ? [optionNames(key)] : [optionNames(key), namesOf(alias)];
}

/** `--db-path <PATH>`, or `--no-analytics` for a boolean flag: how error messages name an option. */
export function flagLabel(key: OptionKey): string {
  const { valueName } = optionSpec(key);
  const flag = `--${optionNames(key).flag}`;
  if (valueName === undefined) return flag;
  return optionSpec(key).bareValue === undefined ? `${flag} <${valueName}>` : `${flag} [${valueName}]`;
}
