/**
 * Value codecs: how one option's value is read from a command-line or environment string, and from a
 * TOML value.
 *
 * Callers: options.ts (every option names its codec) and load.ts (runs them).
 * Invariant: a codec returns a valid value or throws InvalidValue, whose message is the reason only;
 * load.ts adds the flag and the environment variable or TOML key the value came from.
 * Integers follow Rust's `usize::from_str` (optional `+`, digits only), with its error wording, because
 * Meilisearch's options are usize fields; they are capped at Number.MAX_SAFE_INTEGER here.
 */
import { isIP } from 'node:net';
import type { TomlValue } from 'smol-toml';
import { parseByteSize } from './byte-size.js';

export class InvalidValue extends Error {}

export interface Codec<T> {
  fromString(raw: string): T;
  /**
   * TOML integers arrive as bigint (smol-toml `integersAsBigInt`), so `1` and `1.0` stay distinct.
   * Absent where v1.50 deserialises the file's value as any string and leaves it to clap, which
   * judges it only after exporting it to its `MEILI_` variable (load.ts parses it as that variable).
   */
  fromToml?(value: TomlValue): T;
}

export type Environment = 'development' | 'production';
export type LogLevel = 'OFF' | 'ERROR' | 'WARN' | 'INFO' | 'DEBUG' | 'TRACE';
export type LogsMode = 'HUMAN' | 'JSON';

/** `--schedule-snapshot` given without a value, or `true` in TOML: one day. */
export const DEFAULT_SNAPSHOT_INTERVAL_SEC = 86_400;

function tomlString(value: TomlValue): string {
  if (typeof value !== 'string') throw new InvalidValue('expected a string');
  return value;
}

function tomlBool(value: TomlValue): boolean {
  if (typeof value !== 'boolean') throw new InvalidValue('expected a boolean (true or false)');
  return value;
}

function checkSafe(n: bigint): number {
  if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw new InvalidValue('number too large to fit in target type');
  return Number(n);
}

function tomlUsize(value: TomlValue): number {
  if (typeof value !== 'bigint') throw new InvalidValue('expected a non-negative integer');
  if (value < 0n) throw new InvalidValue(`invalid value: integer \`${value}\`, expected usize`);
  return checkSafe(value);
}

function parseUsize(raw: string): number {
  if (raw === '') throw new InvalidValue('cannot parse integer from empty string');
  if (!/^\+?\d+$/.test(raw)) throw new InvalidValue('invalid digit found in string');
  return checkSafe(BigInt(raw));
}

function nonZero(n: number): number {
  if (n === 0) throw new InvalidValue('number would be zero for non-zero type');
  return n;
}

function byteCount(raw: string): number {
  try {
    return parseByteSize(raw);
  } catch (err) {
    throw new InvalidValue((err as Error).message);
  }
}

export const text: Codec<string> = { fromString: (raw) => raw, fromToml: tomlString };

export const bool: Codec<boolean> = {
  fromString(raw) {
    const lower = raw.trim().toLowerCase();
    if (lower === 'true') return true;
    if (lower === 'false') return false;
    throw new InvalidValue('expected true or false');
  },
  fromToml: tomlBool,
};

export const usize: Codec<number> = { fromString: parseUsize, fromToml: tomlUsize };

export const nonZeroUsize: Codec<number> = {
  fromString: (raw) => nonZero(parseUsize(raw)),
  fromToml: (value) => nonZero(tomlUsize(value)),
};

export const byteSize: Codec<number> = {
  fromString: byteCount,
  // byte_unit's serde accepts both a size string and a plain integer count.
  fromToml: (value) => (typeof value === 'string' ? byteCount(value) : tomlUsize(value)),
};

/**
 * `""` and `unlimited` mean "let the engine decide" (null), as Meilisearch's MaxThreads; 0 is taken
 * as v1.50 takes it (rayon's `num_threads(0)`: every core).
 */
export const maxThreads: Codec<number | null> = {
  fromString: (raw) => (raw === '' || raw === 'unlimited' ? null : parseUsize(raw)),
  fromToml: (value) => (typeof value === 'string' ? maxThreads.fromString(value) : tomlUsize(value)),
};

/** Seconds between snapshots; null = disabled (empty string, or `false` in TOML). */
export const scheduleSnapshot: Codec<number | null> = {
  fromString: (raw) => (raw === '' ? null : parseUsize(raw)),
  fromToml(value) {
    if (typeof value === 'boolean') return value ? DEFAULT_SNAPSHOT_INTERVAL_SEC : null;
    if (typeof value === 'bigint') return tomlUsize(value);
    throw new InvalidValue('expected an integer or boolean');
  },
};

/** v1.50's `env` is a String to serde: a file's `env = "staging"` is refused by clap, from `MEILI_ENV`. */
export const environment: Codec<Environment> = {
  fromString(raw) {
    // clap's possible values: exact match, no trimming or case folding.
    if (raw === 'development' || raw === 'production') return raw;
    throw new InvalidValue('possible values: development, production');
  },
};

/** serde's unit enum with `rename_all = "UPPERCASE"`: the file must name the variant exactly, where clap's FromStr folds case. */
function tomlVariant<T extends string>(variants: readonly T[], value: TomlValue): T {
  const variant = variants.find((v) => v === tomlString(value));
  if (variant !== undefined) return variant;
  throw new InvalidValue(`unknown variant \`${String(value)}\`, expected one of ${variants.map((v) => `\`${v}\``).join(', ')}`);
}

const LOG_LEVELS: readonly LogLevel[] = ['OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', 'TRACE'];

export const logLevel: Codec<LogLevel> = {
  fromString(raw) {
    const level = LOG_LEVELS.find((l) => l === raw.trim().toUpperCase());
    if (level !== undefined) return level;
    throw new InvalidValue(
      `Log level '${raw}' is invalid. Accepted values are 'OFF', 'ERROR', 'WARN', 'INFO', 'DEBUG', and 'TRACE'.`,
    );
  },
  fromToml: (value) => tomlVariant(LOG_LEVELS, value),
};

const LOGS_MODES: readonly LogsMode[] = ['HUMAN', 'JSON'];

export const logsMode: Codec<LogsMode> = {
  fromString(raw) {
    const mode = raw.trim().toUpperCase();
    if (mode === 'HUMAN' || mode === 'JSON') return mode;
    throw new InvalidValue(`Unsupported log mode level \`${raw}\`. Supported values are \`HUMAN\` and \`JSON\`.`);
  },
  fromToml: (value) => tomlVariant(LOGS_MODES, value),
};

/**
 * Splits `host:port` (`[v6]:port` for IPv6) into what `listen()` wants. The host is not resolved
 * here: that happens at bind time, where Meilisearch fails too.
 */
export function splitHttpAddr(addr: string): { host: string; port: number } {
  const match = /^\[([^\]]+)\]:(\d{1,5})$/.exec(addr) ?? /^([A-Za-z0-9._-]+):(\d{1,5})$/.exec(addr);
  const port = match === null ? NaN : Number(match[2]);
  const host = match?.[1] ?? '';
  if (match === null || port > 65_535 || (addr.startsWith('[') && isIP(host) !== 6)) {
    throw new InvalidValue('expected HOST:PORT with a port from 0 to 65535, e.g. localhost:7700, 0.0.0.0:7700 or [::1]:7700');
  }
  return { host, port };
}

export const httpAddr: Codec<string> = {
  fromString(raw) {
    splitHttpAddr(raw);
    return raw;
  },
  fromToml: (value) => httpAddr.fromString(tomlString(value)),
};

/** Normalised as Meilisearch's `Url` (e.g. a trailing `/` is added to a bare origin). */
export const url: Codec<string | null> = {
  fromString(raw) {
    if (!URL.canParse(raw)) throw new InvalidValue('expected an absolute URL, e.g. https://example.com/hook');
    return new URL(raw).href;
  },
  fromToml: (value) => url.fromString(tomlString(value)),
};

function checkNetwork(entry: string): string {
  if (entry === 'any') return entry;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  const maxPrefix = family === 6 ? 128 : 32;
  const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= maxPrefix);
  if (family === 0 || !prefixOk || rest.length > 0) {
    throw new InvalidValue(`\`${entry}\` is not an IP network: expected a CIDR such as 10.0.0.0/8 or fd00::/8, or \`any\``);
  }
  return entry;
}

/** Comma-separated CIDRs on the command line, a list of strings in TOML. */
export const ipNetworks: Codec<string[]> = {
  fromString: (raw) =>
    raw
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map(checkNetwork),
  fromToml(value) {
    if (!Array.isArray(value) || !value.every((entry): entry is string => typeof entry === 'string')) {
      throw new InvalidValue('expected a list of strings');
    }
    return value.map((entry) => checkNetwork(entry.trim()));
  },
};
