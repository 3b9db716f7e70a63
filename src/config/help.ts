/**
 * The `--help` text, laid out like clap's long help, generated from the option table.
 *
 * Callers: load.ts (returned as `{ kind: 'help' }`, printed by main on stdout).
 * Invariant: every option of OPTIONS appears, with its environment names, its TOML key and its default,
 * so the help can never drift from what the loader accepts.
 */
import { OPTION_KEYS, flagLabel, optionNames, optionSpec, type OptionKey } from './options.js';

const FLAG_INDENT = ' '.repeat(6);
const TEXT_INDENT = ' '.repeat(10);

function defaultShown(key: OptionKey): string | null {
  const spec = optionSpec(key);
  if (spec.defaultText !== undefined) return spec.defaultText;
  return typeof spec.default === 'string' || typeof spec.default === 'number' ? String(spec.default) : null;
}

function configFileNote(key: OptionKey): string {
  const { tomlKey } = optionNames(key);
  switch (optionSpec(key).toml) {
    case 'forbidden':
      return '[config file: not allowed]';
    case 'ignored':
      return `[config file: ${tomlKey}, accepted but not applied]`;
    default:
      return `[config file: ${tomlKey}]`;
  }
}

export function helpText(): string {
  const lines = [
    'Quarry: a search engine server that speaks the Meilisearch HTTP API.',
    '',
    'Usage: quarry [OPTIONS]',
    '',
    "Every option can also be set through the environment (QUARRY_<NAME>, or Meilisearch's MEILI_<NAME>;",
    'QUARRY_ wins when both are set) or in the TOML configuration file (key <name> in snake_case).',
    'Precedence: command line > environment > configuration file > default.',
    'Boolean flags take no value on the command line, and true or false elsewhere.',
    '',
    'Options:',
  ];
  for (const key of OPTION_KEYS) {
    const [quarryEnv, meiliEnv] = optionNames(key).envNames;
    const fallback = defaultShown(key);
    lines.push(
      `${FLAG_INDENT}${flagLabel(key)}`,
      `${TEXT_INDENT}${optionSpec(key).help}`,
      `${TEXT_INDENT}[env: ${quarryEnv}, ${meiliEnv}] ${configFileNote(key)}`,
    );
    if (fallback !== null) lines.push(`${TEXT_INDENT}[default: ${fallback}]`);
    lines.push('');
  }
  lines.push('  -h, --help', `${TEXT_INDENT}Print help`, '', '  -V, --version', `${TEXT_INDENT}Print version`, '');
  return lines.join('\n');
}
