/**
 * The lines printed once the server is ready, with Meilisearch's labels and layout (reference
 * cli-config.md §5): tab-aligned `Label:\t"value"` lines with Rust-debug-quoted values.
 *
 * Caller: src/main.ts, once the stores are open and the server is listening.
 * Invariants: pure (no I/O); never prints the master key itself; always says whether one is set.
 * Telemetry always reads "Disabled": Quarry sends none, whatever --no-analytics says, so the analytics
 * paragraph and instance UID of Meilisearch are left out.
 */
import { MASTER_KEY_SET_MESSAGE } from './master-key.js';
import type { Config } from './options.js';

export interface StartupInfo {
  /** Same shape as src/version.ts BuildInfo; "unknown" when absent. */
  build?: { pkgVersion: string; commitSha: string; commitDate: string };
  /** checkMasterKey(config).warnings, to print them where Meilisearch does (after the key status). */
  masterKeyWarnings?: readonly string[];
}

/** Rust's `{:?}` of a string, as Meilisearch prints its values. */
function quote(text: string): string {
  return JSON.stringify(text);
}

export function startupReport(config: Config, info: StartupInfo = {}): string[] {
  const build = info.build ?? { pkgVersion: 'unknown', commitSha: 'unknown', commitDate: 'unknown' };
  const warnings = info.masterKeyWarnings ?? [];
  const keyLines = config.masterKey === null ? [] : [MASTER_KEY_SET_MESSAGE];
  for (const warning of warnings) {
    if (keyLines.length > 0) keyLines.push('');
    keyLines.push(...warning.split('\n'));
  }
  // Without the development warning the report must still tell that every route is open.
  if (keyLines.length === 0) keyLines.push('No master key was found. The server will accept unidentified requests.');
  return [
    '',
    'Quarry: a search engine server that speaks the Meilisearch HTTP API',
    '',
    `Config file path:\t${quote(config.configFilePath ?? 'none')}`,
    `Database path:\t\t${quote(config.dbPath)}`,
    `Server listening on:\t"${config.sslCertPath !== null && config.sslKeyPath !== null ? 'https' : 'http'}://${config.httpAddr}"`,
    `Environment:\t\t${quote(config.env)}`,
    `Commit SHA:\t\t${quote(build.commitSha)}`,
    `Commit date:\t\t${quote(build.commitDate)}`,
    `Package version:\t${quote(build.pkgVersion)}`,
    'Anonymous telemetry:\t"Disabled"',
    '',
    ...keyLines,
    '',
  ];
}
