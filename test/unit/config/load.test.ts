import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ConfigFileError, loadConfig, type Config } from '../../../src/config/index.js';
import { OPTION_KEYS, optionNames, optionSpec, type OptionKey } from '../../../src/config/options.js';

const root = mkdtempSync(path.join(tmpdir(), 'quarry-config-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let dirCount = 0;
/** A fresh working directory, optionally holding a ./config.toml. */
function workdir(toml?: string): string {
  const dir = path.join(root, `cwd-${dirCount++}`);
  mkdirSync(dir);
  if (toml !== undefined) writeFileSync(path.join(dir, 'config.toml'), toml);
  return dir;
}

function load(argv: string[] = [], env: Record<string, string | undefined> = {}, cwd = workdir()): Config {
  const result = loadConfig(argv, env, cwd);
  if (result.kind !== 'config') throw new Error('expected a configuration, got --help');
  return result.config;
}

function loadError(argv: string[] = [], env: Record<string, string | undefined> = {}, cwd = workdir()): ConfigError {
  try {
    loadConfig(argv, env, cwd);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it('match Meilisearch when nothing is given', () => {
    expect(load()).toEqual({
      httpAddr: 'localhost:7700',
      host: 'localhost',
      port: 7700,
      masterKey: null,
      env: 'development',
      dbPath: './data.ms',
      dumpDir: 'dumps/',
      snapshotDir: 'snapshots/',
      httpPayloadSizeLimit: 100_000_000,
      logLevel: 'INFO',
      maxIndexingThreads: null,
      maxIndexingMemory: null,
      noAnalytics: false,
      configFilePath: null,
      importDump: null,
      ignoreMissingDump: false,
      ignoreDumpIfDbExists: false,
      importSnapshot: null,
      ignoreMissingSnapshot: false,
      ignoreSnapshotIfDbExists: false,
      scheduleSnapshot: null,
      upgradeDb: false,
      sslCertPath: null,
      sslKeyPath: null,
      sslAuthPath: null,
      sslOcspPath: null,
      sslRequireAuth: false,
      sslResumption: false,
      sslTickets: false,
      experimentalEnableMetrics: false,
      experimentalEnableLogsRoute: false,
      experimentalContainsFilter: false,
      experimentalLegacySearchDefault: false,
      experimentalLogsMode: 'HUMAN',
      experimentalSearchQueueSize: 1000,
      experimentalDropSearchAfter: 60,
      experimentalNbSearchesPerCore: 4,
      experimentalMaxNumberOfBatchedTasks: null,
      experimentalLimitBatchedTasksTotalSize: null,
      experimentalEmbeddingCacheEntries: 0,
      experimentalNoEdition2024ForSettings: false,
      experimentalNoEdition2024ForDumps: false,
      experimentalReduceIndexingMemoryUsage: false,
      experimentalNoSnapshotCompaction: false,
      experimentalReplicationParameters: false,
      experimentalAllowedIpNetworks: [],
      experimentalPersonalizationApiKey: null,
      experimentalPersonalizationUrl: 'https://api.cohere.ai/v1/rerank',
      taskWebhookUrl: null,
      taskWebhookAuthorizationHeader: null,
      s3BucketUrl: null,
      s3BucketRegion: null,
      s3BucketName: null,
      s3SnapshotPrefix: null,
      s3AccessKey: null,
      s3SecretKey: null,
      experimentalS3RoleArn: null,
      experimentalS3WebIdentityTokenFile: null,
      experimentalS3MaxInFlightParts: 10,
      experimentalS3CompressionLevel: 0,
      experimentalS3SignatureDurationSeconds: 28800,
      experimentalS3MultipartPartSize: 375 * 1024 * 1024,
    } satisfies Config);
  });
});

/**
 * One sample per option: the raw command-line/environment value (undefined for a boolean flag), the same
 * value as a TOML literal, the parsed result, and options it needs alongside (given the same way).
 */
interface Sample {
  raw?: string;
  toml: string;
  expected: unknown;
  with?: Partial<Record<OptionKey, string>>;
}

const SAMPLES: Record<Exclude<OptionKey, 'configFilePath'>, Sample> = {
  dbPath: { raw: '/srv/quarry/db', toml: '"/srv/quarry/db"', expected: '/srv/quarry/db' },
  httpAddr: { raw: '0.0.0.0:8080', toml: '"0.0.0.0:8080"', expected: '0.0.0.0:8080' },
  masterKey: { raw: 'a-master-key-of-24-bytes', toml: '"a-master-key-of-24-bytes"', expected: 'a-master-key-of-24-bytes' },
  env: { raw: 'production', toml: '"production"', expected: 'production' },
  taskWebhookUrl: { raw: 'https://example.com/hook', toml: '"https://example.com/hook"', expected: 'https://example.com/hook' },
  taskWebhookAuthorizationHeader: { raw: 'Bearer token', toml: '"Bearer token"', expected: 'Bearer token' },
  noAnalytics: { toml: 'true', expected: true },
  httpPayloadSizeLimit: { raw: '10 MiB', toml: '"10 MiB"', expected: 10_485_760 },
  importSnapshot: { raw: 'backup.snapshot', toml: '"backup.snapshot"', expected: 'backup.snapshot' },
  ignoreMissingSnapshot: { toml: 'true', expected: true, with: { importSnapshot: 'backup.snapshot' } },
  ignoreSnapshotIfDbExists: { toml: 'true', expected: true, with: { importSnapshot: 'backup.snapshot' } },
  snapshotDir: { raw: '/srv/snapshots', toml: '"/srv/snapshots"', expected: '/srv/snapshots' },
  scheduleSnapshot: { raw: '3600', toml: '3600', expected: 3600 },
  importDump: { raw: 'movies.dump', toml: '"movies.dump"', expected: 'movies.dump' },
  ignoreMissingDump: { toml: 'true', expected: true, with: { importDump: 'movies.dump' } },
  ignoreDumpIfDbExists: { toml: 'true', expected: true, with: { importDump: 'movies.dump' } },
  dumpDir: { raw: '/srv/dumps', toml: '"/srv/dumps"', expected: '/srv/dumps' },
  logLevel: { raw: 'debug', toml: '"DEBUG"', expected: 'DEBUG' },
  experimentalContainsFilter: { toml: 'true', expected: true },
  experimentalReplicationParameters: { toml: 'true', expected: true },
  sslCertPath: { raw: '/srv/cert.pem', toml: '"/srv/cert.pem"', expected: '/srv/cert.pem' },
  sslKeyPath: { raw: '/srv/key.pem', toml: '"/srv/key.pem"', expected: '/srv/key.pem' },
  sslAuthPath: { raw: '/srv/roots.pem', toml: '"/srv/roots.pem"', expected: '/srv/roots.pem' },
  sslOcspPath: { raw: '/srv/ocsp.der', toml: '"/srv/ocsp.der"', expected: '/srv/ocsp.der' },
  sslRequireAuth: { toml: 'true', expected: true },
  sslResumption: { toml: 'true', expected: true },
  sslTickets: { toml: 'true', expected: true },
  experimentalLegacySearchDefault: { toml: 'true', expected: true },
  experimentalEnableMetrics: { toml: 'true', expected: true },
  experimentalSearchQueueSize: { raw: '50', toml: '50', expected: 50 },
  experimentalDropSearchAfter: { raw: '5', toml: '5', expected: 5 },
  experimentalNbSearchesPerCore: { raw: '2', toml: '2', expected: 2 },
  experimentalLogsMode: { raw: 'json', toml: '"JSON"', expected: 'JSON' },
  experimentalEnableLogsRoute: { toml: 'true', expected: true },
  experimentalMaxNumberOfBatchedTasks: { raw: '10', toml: '10', expected: 10 },
  experimentalLimitBatchedTasksTotalSize: { raw: '1GB', toml: '"1GB"', expected: 1_000_000_000 },
  experimentalEmbeddingCacheEntries: { raw: '100', toml: '100', expected: 100 },
  experimentalAllowedIpNetworks: { raw: '127.0.0.0/8,::1', toml: '["127.0.0.0/8", "::1"]', expected: ['127.0.0.0/8', '::1'] },
  experimentalPersonalizationApiKey: { raw: 'cohere-key', toml: '"cohere-key"', expected: 'cohere-key' },
  experimentalPersonalizationUrl: { raw: 'http://127.0.0.1:9000/v1/rerank', toml: '"http://127.0.0.1:9000/v1/rerank"', expected: 'http://127.0.0.1:9000/v1/rerank' },
  maxIndexingMemory: { raw: '2 GiB', toml: '"2 GiB"', expected: 2 * 1024 ** 3 },
  maxIndexingThreads: { raw: '3', toml: '3', expected: 3 },
  upgradeDb: { toml: 'true', expected: true },
  experimentalNoEdition2024ForSettings: { toml: 'true', expected: true },
  experimentalNoEdition2024ForDumps: { toml: 'true', expected: true },
  experimentalReduceIndexingMemoryUsage: { toml: 'true', expected: true },
  experimentalNoSnapshotCompaction: { toml: 'true', expected: true },
  s3BucketUrl: { raw: 'https://s3.eu-west-3.amazonaws.com', toml: '"https://s3.eu-west-3.amazonaws.com"', expected: 'https://s3.eu-west-3.amazonaws.com', with: s3With('s3BucketUrl') },
  s3BucketRegion: { raw: 'eu-west-3', toml: '"eu-west-3"', expected: 'eu-west-3', with: s3With('s3BucketRegion') },
  s3BucketName: { raw: 'snapshots', toml: '"snapshots"', expected: 'snapshots', with: s3With('s3BucketName') },
  s3SnapshotPrefix: { raw: 'daily', toml: '"daily"', expected: 'daily', with: s3With('s3SnapshotPrefix') },
  s3AccessKey: { raw: 'AKIA', toml: '"AKIA"', expected: 'AKIA', with: s3With('s3AccessKey') },
  s3SecretKey: { raw: 'secret', toml: '"secret"', expected: 'secret', with: s3With('s3SecretKey') },
  experimentalS3RoleArn: { raw: 'arn:aws:iam::1:role/r', toml: '"arn:aws:iam::1:role/r"', expected: 'arn:aws:iam::1:role/r', with: s3With('experimentalS3RoleArn', 'identity') },
  experimentalS3WebIdentityTokenFile: { raw: '/run/token', toml: '"/run/token"', expected: '/run/token', with: s3With('experimentalS3WebIdentityTokenFile', 'identity') },
  experimentalS3MaxInFlightParts: { raw: '4', toml: '4', expected: 4, with: s3With('experimentalS3MaxInFlightParts') },
  experimentalS3CompressionLevel: { raw: '6', toml: '6', expected: 6, with: s3With('experimentalS3CompressionLevel') },
  experimentalS3SignatureDurationSeconds: { raw: '600', toml: '600', expected: 600, with: s3With('experimentalS3SignatureDurationSeconds') },
  experimentalS3MultipartPartSize: { raw: '50 MiB', toml: '"50 MiB"', expected: 50 * 1024 * 1024, with: s3With('experimentalS3MultipartPartSize') },
};

/** The S3 options a sample of `key` needs beside it (the bucket, the prefix, credentials of one kind), all strings. */
function s3With(key: OptionKey, credentials: 'keys' | 'identity' = 'keys'): Partial<Record<OptionKey, string>> {
  const all: Partial<Record<OptionKey, string>> = {
    s3BucketUrl: 'https://s3.eu-west-3.amazonaws.com',
    s3BucketRegion: 'eu-west-3',
    s3BucketName: 'snapshots',
    s3SnapshotPrefix: 'daily',
    ...(credentials === 'keys' ? { s3AccessKey: 'AKIA', s3SecretKey: 'secret' } : { experimentalS3RoleArn: 'arn', experimentalS3WebIdentityTokenFile: '/run/token' }),
  };
  delete all[key];
  return all;
}

function cliArgs(key: OptionKey, raw: string | undefined): string[] {
  const flag = `--${optionNames(key).flag}`;
  return raw === undefined ? [flag] : [flag, raw];
}

function envOf(key: OptionKey, raw: string | undefined, prefix: 0 | 1): Record<string, string> {
  return { [optionNames(key).envNames[prefix]]: raw ?? 'true' };
}

describe('every option', () => {
  const cases = Object.entries(SAMPLES) as [Exclude<OptionKey, 'configFilePath'>, Sample][];

  it('has a sample here', () => {
    expect(cases.map(([key]) => key).sort()).toEqual(OPTION_KEYS.filter((key) => key !== 'configFilePath').sort());
  });

  it.each(cases)('%s is read from the command line', (key, sample) => {
    const extra = Object.entries(sample.with ?? {}).flatMap(([k, raw]) => cliArgs(k as OptionKey, raw));
    expect(load([...cliArgs(key, sample.raw), ...extra])[key]).toEqual(sample.expected);
  });

  it.each(cases)('%s is read from its QUARRY_ environment variable', (key, sample) => {
    const env = Object.assign(envOf(key, sample.raw, 0), ...Object.entries(sample.with ?? {}).map(([k, raw]) => envOf(k as OptionKey, raw, 0)));
    expect(load([], env)[key]).toEqual(sample.expected);
  });

  it.each(cases)('%s is read from its MEILI_ environment variable alias', (key, sample) => {
    const env = Object.assign(envOf(key, sample.raw, 1), ...Object.entries(sample.with ?? {}).map(([k, raw]) => envOf(k as OptionKey, raw, 1)));
    expect(load([], env)[key]).toEqual(sample.expected);
  });

  it.each(cases)('%s is read from the config file unless Meilisearch ignores it there', (key, sample) => {
    const beside = Object.entries(sample.with ?? {}).map(([k, raw]) => `${optionNames(k as OptionKey).tomlKey} = ${JSON.stringify(raw)}\n`);
    const config = load([], {}, workdir(`${optionNames(key).tomlKey} = ${sample.toml}\n${beside.join('')}`));
    expect(config[key]).toEqual(optionSpec(key).toml === 'ignored' ? optionSpec(key).default : sample.expected);
    expect(config.configFilePath).toBe('./config.toml');
  });
});

describe("v1.50's names", () => {
  it('split the words where v1.50 splits them: --experimental-no-edition-2024-for-settings, --s3-bucket-url', () => {
    expect(load(['--experimental-no-edition-2024-for-settings', '--experimental-no-edition-2024-for-dumps'])).toMatchObject({
      experimentalNoEdition2024ForSettings: true,
      experimentalNoEdition2024ForDumps: true,
    });
    expect(load([], { MEILI_EXPERIMENTAL_NO_EDITION_2024_FOR_SETTINGS: 'true' }).experimentalNoEdition2024ForSettings).toBe(true);
    expect(load([], {}, workdir('experimental_no_edition_2024_for_dumps = true\n')).experimentalNoEdition2024ForDumps).toBe(true);
    expect(loadError(['--experimental-no-edition2024-for-settings']).message).toContain("unexpected argument '--experimental-no-edition2024-for-settings' found");
  });
});

describe('S3 snapshot options', () => {
  const bucket = ['--s3-bucket-url', 'https://s3.eu-west-3.amazonaws.com', '--s3-bucket-region', 'eu-west-3', '--s3-bucket-name', 'b', '--s3-snapshot-prefix', 'p'];

  it('take static keys together, or a role with its token file, never both', () => {
    expect(loadError([...bucket, '--s3-access-key', 'a']).message).toContain("the argument '--s3-access-key <S3_ACCESS_KEY>' requires '--s3-secret-key <S3_SECRET_KEY>'");
    expect(loadError([...bucket, '--experimental-s3-role-arn', 'r']).message).toContain("requires '--experimental-s3-web-identity-token-file <EXPERIMENTAL_S3_WEB_IDENTITY_TOKEN_FILE>'");
    expect(loadError([...bucket, '--s3-access-key', 'a', '--s3-secret-key', 's', '--experimental-s3-role-arn', 'r', '--experimental-s3-web-identity-token-file', 't']).message).toContain(
      "the argument '--s3-secret-key <S3_SECRET_KEY>' cannot be used with '--experimental-s3-role-arn <EXPERIMENTAL_S3_ROLE_ARN>'",
    );
    expect(load([...bucket, '--experimental-s3-role-arn', 'r', '--experimental-s3-web-identity-token-file', 't'])).toMatchObject({ experimentalS3RoleArn: 'r', s3AccessKey: null });
  });

  it('need the bucket, the prefix and credentials once any is given, from any source', () => {
    expect(loadError([], { MEILI_EXPERIMENTAL_S3_MAX_IN_FLIGHT_PARTS: '3' }).message).toMatch(/^the following required arguments were not provided:\n {2}--s3-bucket-url <S3_BUCKET_URL>\n/);
    expect(loadError([...bucket]).message).toContain('  <--s3-access-key <S3_ACCESS_KEY>|--experimental-s3-role-arn <EXPERIMENTAL_S3_ROLE_ARN>>');
    expect(load([])).toMatchObject({ s3BucketUrl: null, experimentalS3MaxInFlightParts: 10 });
  });
});

describe('precedence', () => {
  const toml = 'db_path = "from-file"\nlog_level = "WARN"\n';

  it('puts the command line above the environment, the file and the default', () => {
    const config = load(['--db-path', 'from-cli'], { QUARRY_DB_PATH: 'from-env', MEILI_DB_PATH: 'from-meili-env' }, workdir(toml));
    expect(config.dbPath).toBe('from-cli');
  });

  it('puts the environment above the file', () => {
    expect(load([], { MEILI_DB_PATH: 'from-env' }, workdir(toml)).dbPath).toBe('from-env');
  });

  it('puts the file above the default', () => {
    const config = load([], {}, workdir(toml));
    expect(config.dbPath).toBe('from-file');
    expect(config.logLevel).toBe('WARN');
    expect(config.dumpDir).toBe('dumps/');
  });

  it('prefers QUARRY_ over MEILI_ when both are set', () => {
    expect(load([], { QUARRY_DB_PATH: 'quarry', MEILI_DB_PATH: 'meili' }).dbPath).toBe('quarry');
  });

  it('treats an empty environment variable as unset', () => {
    expect(load([], { QUARRY_DB_PATH: '', MEILI_DB_PATH: 'meili' }).dbPath).toBe('meili');
    expect(load([], { MEILI_MASTER_KEY: '' }).masterKey).toBeNull();
  });

  it('lets an environment false override a file true for a boolean', () => {
    expect(load([], { MEILI_NO_ANALYTICS: 'false' }, workdir('no_analytics = true\n')).noAnalytics).toBe(false);
  });

  it('parses only the winning value: a bad overridden environment value is not an error', () => {
    expect(load(['--log-level', 'warn'], { MEILI_LOG_LEVEL: 'loud' }).logLevel).toBe('WARN');
    expect(load([], { QUARRY_LOG_LEVEL: 'error', MEILI_LOG_LEVEL: 'loud' }).logLevel).toBe('ERROR');
  });

  it('still checks every file value even when a higher source overrides it, as Meilisearch does', () => {
    const err = loadError(['--log-level', 'warn'], {}, workdir('log_level = "loud"\n'));
    expect(err.message).toContain("for '--log-level <LEVEL>'");
  });
});

describe('--upgrade-db and its spec name --experimental-dumpless-upgrade', () => {
  it('sets the same option from either flag', () => {
    expect(load(['--upgrade-db']).upgradeDb).toBe(true);
    expect(load(['--experimental-dumpless-upgrade']).upgradeDb).toBe(true);
  });

  it('sets it from either environment form, as from the file key of either name', () => {
    for (const name of ['MEILI_UPGRADE_DB', 'QUARRY_UPGRADE_DB', 'MEILI_EXPERIMENTAL_DUMPLESS_UPGRADE', 'QUARRY_EXPERIMENTAL_DUMPLESS_UPGRADE']) {
      expect(load([], { [name]: 'true' }).upgradeDb, name).toBe(true);
    }
    expect(load([], {}, workdir('experimental_dumpless_upgrade = true')).upgradeDb).toBe(true);
  });
});

describe('command line syntax', () => {
  it('accepts --flag=value', () => {
    expect(load(['--db-path=/x', '--http-addr=127.0.0.1:0']).dbPath).toBe('/x');
  });

  it('splits the address into host and port, IPv6 without brackets', () => {
    expect(load(['--http-addr', '127.0.0.1:0'])).toMatchObject({ host: '127.0.0.1', port: 0 });
    expect(load(['--http-addr', '[::1]:7701'])).toMatchObject({ httpAddr: '[::1]:7701', host: '::1', port: 7701 });
  });

  it('takes --schedule-snapshot without a value as one day', () => {
    expect(load(['--schedule-snapshot']).scheduleSnapshot).toBe(86_400);
    expect(load(['--schedule-snapshot', '--no-analytics'])).toMatchObject({ scheduleSnapshot: 86_400, noAnalytics: true });
    expect(load(['--schedule-snapshot=60']).scheduleSnapshot).toBe(60);
    expect(load(['--schedule-snapshot', '--']).scheduleSnapshot).toBe(86_400);
  });

  it('disables scheduled snapshots with an empty value, and reads TOML booleans', () => {
    expect(load(['--schedule-snapshot='], {}, workdir('schedule_snapshot = 60\n')).scheduleSnapshot).toBeNull();
    expect(load([], {}, workdir('schedule_snapshot = true\n')).scheduleSnapshot).toBe(86_400);
    expect(load([], {}, workdir('schedule_snapshot = false\n')).scheduleSnapshot).toBeNull();
  });

  it('treats unlimited or empty indexing threads as the default', () => {
    expect(load(['--max-indexing-threads', 'unlimited']).maxIndexingThreads).toBeNull();
    expect(load(['--max-indexing-threads=']).maxIndexingThreads).toBeNull();
    // v1.50's MaxThreads takes 0 (rayon: every core), where Quarry refused to start
    expect(load(['--max-indexing-threads', '0']).maxIndexingThreads).toBe(0);
    expect(load([], { MEILI_MAX_INDEXING_THREADS: '0' }).maxIndexingThreads).toBe(0);
  });

  it('accepts a value that starts with a dash only in the --flag=value form', () => {
    expect(load(['--master-key=-starts-with-a-dash']).masterKey).toBe('-starts-with-a-dash');
    expect(loadError(['--master-key', '-starts-with-a-dash']).message).toBe(
      "a value is required for '--master-key <KEY>' but none was supplied\n\nFor more information, try '--help'.",
    );
  });

  it('rejects an unknown flag, naming it', () => {
    expect(loadError(['--no-such-flag']).message).toBe("unexpected argument '--no-such-flag' found\n\nFor more information, try '--help'.");
    expect(loadError(['--experimental-dumpless-upgrades']).message).toContain("'--experimental-dumpless-upgrades'");
    expect(loadError(['-x']).message).toContain("unexpected argument '-x' found");
  });


  it('rejects a stray positional argument', () => {
    expect(loadError(['data.ms']).message).toContain("unexpected argument 'data.ms' found");
    expect(loadError(['--no-analytics', 'true']).message).toContain("unexpected argument 'true' found");
  });

  it('rejects a missing value, naming the flag', () => {
    expect(loadError(['--db-path']).message).toContain("a value is required for '--db-path <PATH>' but none was supplied");
    expect(loadError(['--db-path', '--no-analytics']).message).toContain("'--db-path <PATH>'");
  });

  it('rejects a value given to a boolean flag', () => {
    expect(loadError(['--no-analytics=true']).message).toContain(
      "unexpected value 'true' for '--no-analytics' found; no more were expected",
    );
  });

  it('rejects a flag given twice', () => {
    expect(loadError(['--env', 'production', '--env', 'development']).message).toContain(
      "the argument '--env <ENV>' cannot be used multiple times",
    );
  });
});

describe('bad values stop startup, naming the flag and the source', () => {
  it.each([
    ['httpAddr', 'localhost'],
    ['httpAddr', 'localhost:99999'],
    ['env', 'staging'],
    ['httpPayloadSizeLimit', '10 parsecs'],
    ['httpPayloadSizeLimit', '-5'],
    ['logLevel', 'loud'],
    ['maxIndexingThreads', '2.5'],
    ['maxIndexingThreads', 'two'],
    ['maxIndexingMemory', 'lots'],
    ['scheduleSnapshot', 'daily'],
    ['experimentalSearchQueueSize', '1e3'],
    ['experimentalDropSearchAfter', '0'],
    ['experimentalNbSearchesPerCore', 'x'],
    ['experimentalMaxNumberOfBatchedTasks', '0'],
    ['experimentalLimitBatchedTasksTotalSize', '1 XB'],
    ['experimentalEmbeddingCacheEntries', '-1'],
    ['experimentalLogsMode', 'xml'],
    ['experimentalAllowedIpNetworks', '10.0.0.0/99'],
    ['taskWebhookUrl', 'not a url'],
  ] as [OptionKey, string][])('%s = %j', (key, raw) => {
    const flag = `--${optionNames(key).flag}`;
    const fromCli = loadError([`${flag}=${raw}`]).message;
    expect(fromCli).toMatch(new RegExp(`^invalid value '${raw.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}' for '${flag} [<[]`));
    expect(fromCli).toMatch(/\n\nFor more information, try '--help'\.$/);

    const [quarryEnv, meiliEnv] = optionNames(key).envNames;
    expect(loadError([], { [quarryEnv]: raw }).message).toContain(`for '${flag} `);
    expect(loadError([], { [quarryEnv]: raw }).message).toContain(`(from environment variable ${quarryEnv})`);
    expect(loadError([], { [meiliEnv]: raw }).message).toContain(`(from environment variable ${meiliEnv})`);
  });

  it('quotes the exact reason of Meilisearch for a bad log level', () => {
    expect(loadError(['--log-level', 'loud']).message).toBe(
      "invalid value 'loud' for '--log-level <LEVEL>': Log level 'loud' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'.\n\nFor more information, try '--help'.",
    );
  });

  it('lists the possible environments', () => {
    expect(loadError(['--env', 'staging']).message).toContain(
      "invalid value 'staging' for '--env <ENV>': possible values: development, production",
    );
  });

  it.each(['yes', '1', 'on'])('rejects %j as a boolean environment value', (raw) => {
    expect(loadError([], { MEILI_NO_ANALYTICS: raw }).message).toBe(
      `invalid value '${raw}' for '--no-analytics' (from environment variable MEILI_NO_ANALYTICS): expected true or false\n\nFor more information, try '--help'.`,
    );
  });

  it('accepts true and false in the environment for every boolean flag', () => {
    expect(load([], { QUARRY_EXPERIMENTAL_ENABLE_METRICS: 'true', MEILI_NO_ANALYTICS: 'false' })).toMatchObject({
      experimentalEnableMetrics: true,
      noAnalytics: false,
    });
  });
});

describe('option relations', () => {
  it('refuses --import-dump together with --import-snapshot', () => {
    expect(loadError(['--import-dump', 'a.dump', '--import-snapshot', 'b.snapshot']).message).toContain(
      "the argument '--import-dump <FILE>' cannot be used with '--import-snapshot <FILE>'",
    );
  });

  it('refuses an ignore flag without the import it modifies', () => {
    expect(loadError(['--ignore-missing-dump']).message).toContain(
      "the argument '--ignore-missing-dump' requires '--import-dump <FILE>'",
    );
    expect(loadError([], { MEILI_IGNORE_SNAPSHOT_IF_DB_EXISTS: 'true' }).message).toContain(
      "the argument '--ignore-snapshot-if-db-exists' requires '--import-snapshot <FILE>'",
    );
  });

  it('does not apply the import options from the config file, so they cannot trip these rules', () => {
    const config = load([], {}, workdir('import_dump = "a.dump"\nimport_snapshot = "b.snapshot"\nignore_missing_dump = true\n'));
    expect(config).toMatchObject({ importDump: null, importSnapshot: null, ignoreMissingDump: false });
  });
});

describe('config file', () => {
  it('reads ./config.toml from the given working directory by default', () => {
    const config = load([], {}, workdir('env = "production"\nmaster_key = "aSampleMasterKeyOfAtLeast16Bytes"\nhttp_payload_size_limit = "100 MB"\n'));
    expect(config).toMatchObject({ env: 'production', configFilePath: './config.toml', httpPayloadSizeLimit: 100_000_000 });
  });

  it('skips a missing default file silently', () => {
    expect(load([], {}, workdir()).configFilePath).toBeNull();
  });

  it('reads the file named by --config-file-path, relative to the working directory', () => {
    const cwd = workdir();
    writeFileSync(path.join(cwd, 'quarry.toml'), 'db_path = "custom"\n');
    expect(load(['--config-file-path', 'quarry.toml'], {}, cwd)).toMatchObject({ dbPath: 'custom', configFilePath: 'quarry.toml' });
  });

  it('reads the file named by the environment', () => {
    const cwd = workdir();
    const file = path.join(cwd, 'from-env.toml');
    writeFileSync(file, 'db_path = "from-env-file"\n');
    expect(load([], { MEILI_CONFIG_FILE_PATH: file }, cwd)).toMatchObject({ dbPath: 'from-env-file', configFilePath: file });
    expect(load([], { QUARRY_CONFIG_FILE_PATH: file }, cwd).dbPath).toBe('from-env-file');
  });

  it('prefers the command-line file over the environment one and over ./config.toml', () => {
    const cwd = workdir('db_path = "default-file"\n');
    writeFileSync(path.join(cwd, 'a.toml'), 'db_path = "a"\n');
    writeFileSync(path.join(cwd, 'b.toml'), 'db_path = "b"\n');
    expect(load(['--config-file-path', 'a.toml'], { MEILI_CONFIG_FILE_PATH: 'b.toml' }, cwd).dbPath).toBe('a');
  });

  it('fails on an explicit file that does not exist, with Meilisearch message', () => {
    expect(loadError(['--config-file-path', 'missing.toml']).message).toBe(
      'unable to open or read the "missing.toml" configuration file: No such file or directory (os error 2).',
    );
    expect(loadError([], { MEILI_CONFIG_FILE_PATH: './nope.toml' }).message).toBe(
      'unable to open or read the "./nope.toml" configuration file: No such file or directory (os error 2).',
    );
  });

  it('fails on an explicit path that is a directory', () => {
    const cwd = workdir();
    mkdirSync(path.join(cwd, 'dir.toml'));
    expect(loadError(['--config-file-path', 'dir.toml'], {}, cwd).message).toBe(
      'unable to open or read the "dir.toml" configuration file: Is a directory (os error 21).',
    );
  });

  it.skipIf(process.getuid?.() === 0)('fails on an explicit unreadable file but skips an unreadable default one', () => {
    const cwd = workdir('db_path = "x"\n');
    chmodSync(path.join(cwd, 'config.toml'), 0o000);
    expect(load([], {}, cwd).configFilePath).toBeNull();
    expect(loadError(['--config-file-path', 'config.toml'], {}, cwd).message).toBe(
      'unable to open or read the "config.toml" configuration file: Permission denied (os error 13).',
    );
  });

  it('rejects an unknown key, naming it and the file', () => {
    const message = loadError([], {}, workdir('db_path = "x"\nmax_index_size = "1 GiB"\n')).message;
    expect(message).toMatch(/^unknown field `max_index_size` in the "\.\/config\.toml" configuration file, expected one of `db_path`, /);
    expect(message).not.toContain('`config_file_path`');
  });

  it('rejects a TOML table as an unknown key', () => {
    expect(loadError([], {}, workdir('[server]\nport = 1\n')).message).toContain('unknown field `server`');
  });

  it('rejects config_file_path inside the file', () => {
    expect(loadError([], {}, workdir('config_file_path = "other.toml"\n')).message).toBe(
      '`config_file_path` is not supported in the configuration file',
    );
  });

  it('rejects a file that is not TOML, naming it', () => {
    expect(loadError([], {}, workdir('db_path = \n')).message).toMatch(
      /^TOML parse error in the "\.\/config\.toml" configuration file: Invalid TOML document/,
    );
  });

  it.each([
    ['no_analytics = "yes"', "invalid value \"yes\" for '--no-analytics' (key `no_analytics` of the \"./config.toml\" configuration file): expected a boolean (true or false)"],
    ['env = 1', "invalid value 1 for '--env <ENV>' (key `env` of the \"./config.toml\" configuration file): expected a string"],
    ['log_level = "info"', "invalid value \"info\" for '--log-level <LEVEL>' (key `log_level` of the \"./config.toml\" configuration file): unknown variant `info`, expected one of `OFF`, `ERROR`, `WARN`, `INFO`, `DEBUG`, `TRACE`"],
    ['experimental_logs_mode = "json"', 'unknown variant `json`, expected one of `HUMAN`, `JSON`'],
    ['http_payload_size_limit = "big"', "for '--http-payload-size-limit <SIZE>' (key `http_payload_size_limit`"],
    ['experimental_search_queue_size = 1.5', "invalid value 1.5 for '--experimental-search-queue-size <N>' (key `experimental_search_queue_size`"],
    ['max_indexing_threads = -1', "invalid value -1 for '--max-indexing-threads <N>'"],
    ['master_key = 1234567890123456', "invalid value 1234567890123456 for '--master-key <KEY>' (key `master_key`"],
    ['http_addr = "nope"', "for '--http-addr <HOST:PORT>' (key `http_addr`"],
    ['experimental_allowed_ip_networks = "any"', 'expected a list of strings'],
    ['schedule_snapshot = "daily"', 'expected an integer or boolean'],
    ['import_dump = 5', "for '--import-dump <FILE>' (key `import_dump`"],
  ])('rejects the bad value %s, naming flag, key and file', (toml, expected) => {
    expect(loadError([], {}, workdir(`${toml}\n`)).message).toContain(expected);
  });

  it('leaves a file env to clap as v1.50 does, which judges it as MEILI_ENV: a bad one stops startup with status 2 unless overridden', () => {
    const err = loadError([], {}, workdir('env = "staging"\n'));
    expect(err).not.toBeInstanceOf(ConfigFileError);
    expect(err.message).toBe(
      "invalid value 'staging' for '--env <ENV>' (from environment variable MEILI_ENV): possible values: development, production\n\nFor more information, try '--help'.",
    );
    expect(load(['--env', 'production'], {}, workdir('env = "staging"\n')).env).toBe('production');
    expect(load([], { MEILI_ENV: 'development' }, workdir('env = "staging"\n')).env).toBe('development');
    expect(load([], {}, workdir('env = "production"\n')).env).toBe('production');
  });

  it('takes log levels and modes in the file only as serde names them, upper case', () => {
    expect(load([], {}, workdir('log_level = "DEBUG"\nexperimental_logs_mode = "JSON"\n'))).toMatchObject({ logLevel: 'DEBUG', experimentalLogsMode: 'JSON' });
    expect(loadError([], {}, workdir('log_level = "debug"\n'))).toBeInstanceOf(ConfigFileError);
  });

  it('accepts byte sizes as TOML integers', () => {
    expect(load([], {}, workdir('max_indexing_memory = 1073741824\n')).maxIndexingMemory).toBe(1_073_741_824);
  });
});

describe('--help', () => {
  it('returns the help text for --help and -h instead of a configuration', () => {
    for (const argv of [['--help'], ['-h'], ['--db-path', 'x', '--help']]) {
      const result = loadConfig(argv, {}, workdir());
      expect(result.kind).toBe('help');
      if (result.kind === 'help') expect(result.text).toContain('Usage: quarry [OPTIONS]');
    }
  });

  it('wins over bad values that come after it, as clap stops at it', () => {
    expect(loadConfig(['--help', '--env', 'staging', '--nope'], {}, workdir()).kind).toBe('help');
  });

  it('does not read the configuration file', () => {
    expect(loadConfig(['--config-file-path', 'missing.toml', '--help'], {}, workdir()).kind).toBe('help');
  });
});

describe('--version', () => {
  it('returns the version for --version and -V instead of a configuration, whatever comes after', () => {
    for (const argv of [['--version'], ['-V'], ['--db-path', 'x', '-V'], ['--version', '--env', 'staging', '--nope']]) {
      expect(loadConfig(argv, {}, workdir()).kind).toBe('version');
    }
  });

  it('is listed in the help text', () => {
    const result = loadConfig(['--help'], {}, workdir());
    expect(result.kind === 'help' && result.text).toContain('  -V, --version\n');
  });
});
