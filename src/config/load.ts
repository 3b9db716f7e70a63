/**
 * loadConfig: command line + environment + TOML configuration file → a validated Config, or
 * --help / --version.
 *
 * Caller: src/main.ts, once at startup (prints ConfigError's message and exits with status 2).
 * Contract (reference cli-config.md §1, §3):
 *  - precedence per option: command line > environment (QUARRY_X, else MEILI_X) > config file > default;
 *  - the config file is `--config-file-path`, else the environment, else `./config.toml` under `cwd`,
 *    which is skipped silently when it cannot be read; an explicit file that cannot be read is an error;
 *  - every key of the file is checked (unknown keys, `config_file_path`, value types) even when a higher
 *    source overrides it, as Meilisearch deserialises the whole file; the import options are checked
 *    but never applied from the file;
 *  - only the winning command-line or environment value is parsed (clap never reads the others), and
 *    so is a file value v1.50 exports to its `MEILI_` variable for clap to judge (`env`): a bad one
 *    stops startup as that variable's would, status 2;
 *  - an empty environment variable counts as unset.
 * Pure apart from reading the configuration file: no process.env, no process.cwd(), no output.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TomlTable, TomlValue } from 'smol-toml';
import { osErrorMessage } from '../errors/os-errors.js';
import { helpText } from './help.js';
import { OPTION_KEYS, allOptionNames, flagLabel, optionNames, optionSpec, type Config, type OptionKey } from './options.js';
import { InvalidValue, splitHttpAddr } from './values.js';

/** A launch configuration that must stop startup, as the argument parser (clap) refuses it: status 2, the message after `error: `. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/**
 * A configuration file that must stop startup (unreadable, not TOML, an unknown key or a value of
 * the wrong type): v1.50 fails reading it before clap runs, so its anyhow error is printed as
 * `Error: <message>`, status 1.
 */
export class ConfigFileError extends ConfigError {
  override name = 'ConfigFileError';
}

export type LoadResult = { kind: 'help'; text: string } | { kind: 'version' } | { kind: 'config'; config: Config };

const DEFAULT_CONFIG_FILE_PATH = './config.toml';
const HELP_HINT = "\n\nFor more information, try '--help'.";

type Source = { kind: 'cli' } | { kind: 'env'; name: string } | { kind: 'file'; path: string; key: string };

interface ConfigFile {
  /** As given (or the default), for messages and the startup report. */
  path: string;
  table: TomlTable;
}

/** Rust's `{:?}` of a path: double-quoted with escapes, as Meilisearch's messages show paths. */
function debugQuote(text: string): string {
  return JSON.stringify(text);
}

function showToml(value: TomlValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(showToml).join(', ')}]`;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') return 'a table';
  return String(value);
}

function invalidValue(key: OptionKey, shown: string, source: Source, reason: string): ConfigError {
  switch (source.kind) {
    case 'cli':
      return new ConfigError(`invalid value ${shown} for '${flagLabel(key)}': ${reason}${HELP_HINT}`);
    case 'env':
      return new ConfigError(
        `invalid value ${shown} for '${flagLabel(key)}' (from environment variable ${source.name}): ${reason}${HELP_HINT}`,
      );
    case 'file':
      return new ConfigFileError(
        `invalid value ${shown} for '${flagLabel(key)}' (key \`${source.key}\` of the ${debugQuote(source.path)} configuration file): ${reason}`,
      );
  }
}

function parseString(key: OptionKey, raw: string, source: Source): unknown {
  try {
    return optionSpec(key).codec.fromString(raw);
  } catch (err) {
    if (err instanceof InvalidValue) throw invalidValue(key, `'${raw}'`, source, err.message);
    throw err;
  }
}

/**
 * Command-line values as strings (a boolean flag reads `true`), or 'help' / 'version' when -h/--help
 * or -V/--version comes first (clap's `version` attribute, which v1.50's options carry).
 */
function parseCommandLine(argv: readonly string[]): Map<OptionKey, string> | 'help' | 'version' {
  const byFlag = new Map(OPTION_KEYS.flatMap((key) => allOptionNames(key).map(({ flag }) => [flag, key] as const)));
  const declared: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'V' },
  };
  for (const [flag, key] of byFlag) {
    const spec = optionSpec(key);
    // An optional value cannot be expressed to parseArgs: declare a flag and pick the value up below.
    declared[flag] = { type: spec.valueName === undefined || spec.bareValue !== undefined ? 'boolean' : 'string' };
  }
  // strict: false so that unknown flags and missing values reach the checks below, which word them as clap.
  const { tokens } = parseArgs({ args: [...argv], options: declared, strict: false, allowPositionals: true, tokens: true });

  const values = new Map<OptionKey, string>();
  for (let i = 0; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw new ConfigError(`unexpected argument '${token.value}' found${HELP_HINT}`);
    if (token.name === 'help' || token.name === 'version') return token.name;
    const key = byFlag.get(token.name);
    if (key === undefined) throw new ConfigError(`unexpected argument '${token.rawName}' found${HELP_HINT}`);
    if (values.has(key)) throw new ConfigError(`the argument '${flagLabel(key)}' cannot be used multiple times${HELP_HINT}`);
    const spec = optionSpec(key);
    if (spec.valueName === undefined) {
      if (token.value !== undefined) {
        throw new ConfigError(`unexpected value '${token.value}' for '${flagLabel(key)}' found; no more were expected${HELP_HINT}`);
      }
      values.set(key, 'true');
    } else if (spec.bareValue !== undefined) {
      const next = tokens[i + 1];
      if (token.value !== undefined) {
        values.set(key, token.value);
      } else if (next?.kind === 'positional' && next.index === token.index + 1) {
        values.set(key, next.value);
        i += 1;
      } else {
        values.set(key, spec.bareValue);
      }
    } else {
      // parseArgs takes whatever follows; clap refuses a following flag as a value, and so do we.
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
        throw new ConfigError(`a value is required for '${flagLabel(key)}' but none was supplied${HELP_HINT}`);
      }
      values.set(key, token.value);
    }
  }
  return values;
}

function readEnvironment(env: Record<string, string | undefined>): Map<OptionKey, { raw: string; name: string }> {
  const values = new Map<OptionKey, { raw: string; name: string }>();
  for (const key of OPTION_KEYS) {
    for (const name of allOptionNames(key).flatMap(({ envNames }) => envNames)) {
      const raw = env[name];
      if (raw !== undefined && raw !== '') {
        values.set(key, { raw, name });
        break;
      }
    }
  }
  return values;
}

function readConfigFile(explicitPath: string | undefined, cwd: string): ConfigFile | null {
  const shown = explicitPath ?? DEFAULT_CONFIG_FILE_PATH;
  let source: string;
  try {
    source = readFileSync(path.resolve(cwd, shown), 'utf8');
  } catch (err) {
    if (explicitPath === undefined) return null;
    throw new ConfigFileError(
      `unable to open or read the ${debugQuote(explicitPath)} configuration file: ${osErrorMessage(err) ?? (err as Error).message}.`,
    );
  }
  // the TOML parser is loaded only to read a file: its modules took ~12 ms of every start's CPU
  const { parse: parseToml, TomlError } = createRequire(import.meta.url)('smol-toml') as typeof import('smol-toml');
  let table: TomlTable;
  try {
    table = parseToml(source, { integersAsBigInt: true });
  } catch (err) {
    if (err instanceof TomlError) {
      throw new ConfigFileError(`TOML parse error in the ${debugQuote(shown)} configuration file: ${err.message.trimEnd()}`);
    }
    throw err;
  }
  return { path: shown, table };
}

/**
 * What the file applies: values already parsed, and strings v1.50 leaves for clap to judge as the
 * `MEILI_` variable it exports them to (parsed only if they win, as then).
 */
interface FileValues {
  parsed: Map<OptionKey, unknown>;
  exported: Map<OptionKey, string>;
}

/**
 * Checks every key of the file and returns the values it applies. Order as Meilisearch: unknown keys
 * (deserialisation), then `config_file_path`, then the values.
 */
function readFileValues(file: ConfigFile): FileValues {
  const byTomlKey = new Map(OPTION_KEYS.flatMap((key) => allOptionNames(key).map(({ tomlKey }) => [tomlKey, key] as const)));
  const unknown = Object.keys(file.table).find((tomlKey) => !byTomlKey.has(tomlKey));
  if (unknown !== undefined) {
    const expected = OPTION_KEYS.filter((key) => optionSpec(key).toml !== 'forbidden')
      .map((key) => `\`${optionNames(key).tomlKey}\``)
      .join(', ');
    throw new ConfigFileError(
      `unknown field \`${unknown}\` in the ${debugQuote(file.path)} configuration file, expected one of ${expected}`,
    );
  }
  const values: FileValues = { parsed: new Map(), exported: new Map() };
  for (const [tomlKey, value] of Object.entries(file.table)) {
    const key = byTomlKey.get(tomlKey)!;
    const spec = optionSpec(key);
    if (spec.toml === 'forbidden') throw new ConfigFileError(`\`${tomlKey}\` is not supported in the configuration file`);
    try {
      if (spec.codec.fromToml !== undefined) {
        const parsed = spec.codec.fromToml(value);
        if (spec.toml === undefined) values.parsed.set(key, parsed);
      } else if (typeof value !== 'string') {
        throw new InvalidValue('expected a string');
      } else if (spec.toml === undefined) {
        values.exported.set(key, value);
      }
    } catch (err) {
      if (err instanceof InvalidValue) {
        throw invalidValue(key, showToml(value), { kind: 'file', path: file.path, key: tomlKey }, err.message);
      }
      throw err;
    }
  }
  return values;
}

/** clap's `requires` / `conflicts_with`, checked on the final values (the file never sets these options). */
function checkRelations(values: Map<OptionKey, unknown>): void {
  for (const key of OPTION_KEYS) {
    const { requires, conflictsWith } = optionSpec(key);
    if (requires !== undefined && values.get(key) === true && values.get(requires) === null) {
      throw new ConfigError(`the argument '${flagLabel(key)}' requires '${flagLabel(requires)}'${HELP_HINT}`);
    }
    if (conflictsWith !== undefined && values.get(key) !== null && values.get(conflictsWith) !== null) {
      throw new ConfigError(`the argument '${flagLabel(key)}' cannot be used with '${flagLabel(conflictsWith)}'${HELP_HINT}`);
    }
  }
}

/** The options of v1.50's `S3SnapshotOpts` (`--s3-*`, `--experimental-s3-*`); any of them given asks for the bucket, the prefix and credentials. */
const S3_OPTIONS: readonly OptionKey[] = OPTION_KEYS.filter((key) => /^(?:s3|experimentalS3)[A-Z]/.test(key));

/**
 * clap's rules over `S3SnapshotOpts`: static keys (`--s3-access-key` with `--s3-secret-key`) or a
 * web identity (`--experimental-s3-role-arn` with its token file), never both; and once any S3
 * option is given, the bucket's URL, region, name, the prefix and one of the credentials.
 */
function checkS3Snapshot(given: ReadonlySet<OptionKey>): void {
  const pairs: [OptionKey, OptionKey][] = [
    ['s3SecretKey', 'experimentalS3RoleArn'],
    ['s3SecretKey', 'experimentalS3WebIdentityTokenFile'],
    ['experimentalS3WebIdentityTokenFile', 's3AccessKey'],
  ];
  for (const [key, other] of pairs) {
    if (given.has(key) && given.has(other)) throw new ConfigError(`the argument '${flagLabel(key)}' cannot be used with '${flagLabel(other)}'${HELP_HINT}`);
  }
  for (const [key, needed] of [['s3AccessKey', 's3SecretKey'], ['experimentalS3RoleArn', 'experimentalS3WebIdentityTokenFile']] as const) {
    if (given.has(key) && !given.has(needed)) throw new ConfigError(`the argument '${flagLabel(key)}' requires '${flagLabel(needed)}'${HELP_HINT}`);
  }
  if (!S3_OPTIONS.some((key) => given.has(key))) return;
  const missing = (['s3BucketUrl', 's3BucketRegion', 's3BucketName', 's3SnapshotPrefix'] as const).filter((key) => !given.has(key)).map(flagLabel);
  if (!given.has('s3AccessKey') && !given.has('experimentalS3RoleArn')) missing.push(`<${flagLabel('s3AccessKey')}|${flagLabel('experimentalS3RoleArn')}>`);
  if (missing.length > 0) throw new ConfigError(`the following required arguments were not provided:\n${missing.map((label) => `  ${label}`).join('\n')}${HELP_HINT}`);
}

/**
 * Builds the launch configuration from `argv` (without node and the script), an environment and the
 * directory the default config file and relative `--config-file-path` are looked up in.
 * @throws ConfigError for anything that must stop startup.
 */
export function loadConfig(argv: string[], env: Record<string, string | undefined>, cwd: string): LoadResult {
  const cli = parseCommandLine(argv);
  if (cli === 'help') return { kind: 'help', text: helpText() };
  if (cli === 'version') return { kind: 'version' };
  const fromEnv = readEnvironment(env);
  const file = readConfigFile(cli.get('configFilePath') ?? fromEnv.get('configFilePath')?.raw, cwd);
  const fromFile: FileValues = file === null ? { parsed: new Map(), exported: new Map() } : readFileValues(file);

  const values = new Map<OptionKey, unknown>();
  const given = new Set<OptionKey>();
  for (const key of OPTION_KEYS) {
    const cliRaw = cli.get(key);
    const envRaw = fromEnv.get(key);
    if (cliRaw !== undefined) values.set(key, parseString(key, cliRaw, { kind: 'cli' }));
    else if (envRaw !== undefined) values.set(key, parseString(key, envRaw.raw, { kind: 'env', name: envRaw.name }));
    else if (fromFile.parsed.has(key)) values.set(key, fromFile.parsed.get(key));
    else if (fromFile.exported.has(key)) values.set(key, parseString(key, fromFile.exported.get(key)!, { kind: 'env', name: optionNames(key).envNames[1] }));
    else values.set(key, optionSpec(key).default);
    if (cliRaw !== undefined || envRaw !== undefined || fromFile.parsed.has(key) || fromFile.exported.has(key)) given.add(key);
  }
  checkRelations(values);
  checkS3Snapshot(given);
  // The option holds what the user asked for; the Config reports the file actually read.
  values.set('configFilePath', file?.path ?? null);

  const options = Object.fromEntries(values) as Omit<Config, 'host' | 'port'>;
  return { kind: 'config', config: { ...options, ...splitHttpAddr(options.httpAddr) } };
}
