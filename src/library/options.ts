/**
 * `Quarry.open`'s options → the launch configuration the server would have. Each option is the
 * server's (same name as its Config key, same checks: the option table's codec parses the value as
 * it parses the flag) and every other key is refused: the HTTP-only ones (address, master key,
 * imports, metrics and logs routes...) would otherwise be accepted and ignored. The dump and
 * snapshot folders default to `dumps/` and `snapshots/` inside the db path rather than in the
 * working directory, which a library must not write to unasked.
 */
import path from 'node:path';
import type { Config } from '../config/index.js';
import { OPTION_KEYS, OPTIONS, type OptionKey } from '../config/options.js';
import { InvalidValue, splitHttpAddr } from '../config/values.js';

/** The server options a library instance applies. */
const LIBRARY_KEYS = [
  'dbPath',
  'dumpDir',
  'snapshotDir',
  'httpPayloadSizeLimit',
  'logLevel',
  'maxIndexingThreads',
  'experimentalContainsFilter',
  'experimentalSearchQueueSize',
  'experimentalDropSearchAfter',
  'experimentalNbSearchesPerCore',
  'experimentalMaxNumberOfBatchedTasks',
  'experimentalLimitBatchedTasksTotalSize',
  'experimentalEmbeddingCacheEntries',
  'experimentalAllowedIpNetworks',
  'taskWebhookUrl',
  'taskWebhookAuthorizationHeader',
] as const satisfies readonly OptionKey[];

type LibraryKey = (typeof LIBRARY_KEYS)[number];

/** Numbers for counts, sizes (bytes) and seconds, as the Config holds them; a list for networks. */
export type QuarryOptions = { dbPath: string } & { [K in Exclude<LibraryKey, 'dbPath'>]?: Config[K] };

/** An option that is not one, or a value its flag would refuse. */
export class QuarryOptionError extends TypeError {
  override name = 'QuarryOptionError';
}

function raw(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

export function libraryConfig(options: QuarryOptions): Config {
  if (typeof options !== 'object' || options === null) throw new QuarryOptionError('Quarry.open takes an options object with `dbPath`');
  const values = new Map<OptionKey, unknown>(OPTION_KEYS.map((key) => [key, OPTIONS[key].default]));
  if (typeof options.dbPath === 'string') {
    values.set('dumpDir', path.join(options.dbPath, 'dumps'));
    values.set('snapshotDir', path.join(options.dbPath, 'snapshots'));
  }
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!(LIBRARY_KEYS as readonly string[]).includes(key)) {
      throw new QuarryOptionError(
        `\`${key}\` is not an option of Quarry.open${OPTION_KEYS.includes(key as OptionKey) ? ' (it applies to the HTTP server only)' : ''}; the options are: ${LIBRARY_KEYS.join(', ')}`,
      );
    }
    if (typeof value === 'object' && !Array.isArray(value)) throw new QuarryOptionError(`invalid value for \`${key}\`: expected a string, a number, a boolean or a list`);
    try {
      values.set(key as OptionKey, OPTIONS[key as OptionKey].codec.fromString(raw(value)));
    } catch (err) {
      if (err instanceof InvalidValue) throw new QuarryOptionError(`invalid value for \`${key}\`: ${err.message}`);
      throw err;
    }
  }
  if (typeof options.dbPath !== 'string' || options.dbPath === '') throw new QuarryOptionError('Quarry.open needs `dbPath`, the directory of the database');
  const config = Object.fromEntries(values) as Omit<Config, 'host' | 'port'>;
  return { ...config, ...splitHttpAddr(config.httpAddr) };
}
