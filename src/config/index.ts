/**
 * Launch configuration, as Meilisearch's: flags, QUARRY_/MEILI_ environment variables, TOML file.
 *
 * Caller: src/main.ts (loadConfig → checkMasterKey → startupReport); other modules only read Config.
 * Layout: options.ts is the single option table; values.ts and byte-size.ts parse values; load.ts
 * merges the sources; help.ts, master-key.ts and startup-report.ts produce text.
 */
export { ConfigError, ConfigFileError, loadConfig, type LoadResult } from './load.js';
export type { Config } from './options.js';
export type { Environment, LogLevel, LogsMode } from './values.js';
export { checkMasterKey, MASTER_KEY_MIN_SIZE, type MasterKeyCheck } from './master-key.js';
export { startupReport, type StartupInfo } from './startup-report.js';
