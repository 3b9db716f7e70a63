/**
 * The arguments of `quarry export-bundle` (an index written as a read-only bundle file), worded
 * as the server's own options (clap's messages): `--db-path` (else QUARRY_DB_PATH / MEILI_DB_PATH,
 * else `./data.ms`), `--index`, `--out`, and `--fields` (comma-separated document fields to keep).
 */
import { parseArgs } from 'node:util';
import { ConfigError } from './load.js';

export interface ExportBundleArgs {
  readonly dbPath: string;
  readonly index: string;
  readonly out: string;
  /** null: whole documents */
  readonly fields: string[] | null;
}

const HELP_HINT = "\n\nFor more information, try '--help'.";

export const EXPORT_BUNDLE_HELP = `Writes one index of a Quarry database as a read-only bundle: one file holding what a search needs (dictionary, postings, facets, documents, settings), searchable in-process or in a browser.

Usage: quarry export-bundle [OPTIONS] --index <UID> --out <FILE>

Options:
      --db-path <DB_PATH>  The database to read [env: QUARRY_DB_PATH=] [default: ./data.ms]
      --index <UID>        The index to export
      --out <FILE>         Where to write the bundle
      --fields <FIELDS>    Comma-separated document fields to keep (default: every field); the primary key, the distinct attribute and _geo are always kept
  -h, --help               Print help
`;

const FLAGS = ['db-path', 'index', 'out', 'fields'] as const;
type Flag = (typeof FLAGS)[number];

/** The arguments after `export-bundle`, or 'help'. */
export function parseExportBundleArgs(argv: readonly string[], env: Record<string, string | undefined>): ExportBundleArgs | 'help' {
  const options = Object.fromEntries([...FLAGS.map((flag) => [flag, { type: 'string' as const }]), ['help', { type: 'boolean' as const, short: 'h' }]]);
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<Flag, string>();
  for (const token of tokens) {
    if (token.kind === 'option-terminator') continue;
    if (token.kind === 'positional') throw new ConfigError(`unexpected argument '${token.value}' found${HELP_HINT}`);
    if (token.name === 'help') return 'help';
    const flag = FLAGS.find((name) => name === token.name);
    if (flag === undefined) throw new ConfigError(`unexpected argument '${token.rawName}' found${HELP_HINT}`);
    if (values.has(flag)) throw new ConfigError(`the argument '--${flag}' cannot be used multiple times${HELP_HINT}`);
    if (token.value === undefined || token.value === '' || (!token.inlineValue && token.value.startsWith('-'))) {
      throw new ConfigError(`a value is required for '--${flag}' but none was supplied${HELP_HINT}`);
    }
    values.set(flag, token.value);
  }
  const missing = (['index', 'out'] as const).filter((flag) => !values.has(flag));
  if (missing.length > 0) {
    throw new ConfigError(`the following required arguments were not provided:\n${missing.map((flag) => `  --${flag} <${flag === 'index' ? 'UID' : 'FILE'}>`).join('\n')}${HELP_HINT}`);
  }
  const fields = values.get('fields');
  return {
    dbPath: values.get('db-path') ?? env.QUARRY_DB_PATH ?? env.MEILI_DB_PATH ?? './data.ms',
    index: values.get('index')!,
    out: values.get('out')!,
    fields: fields === undefined ? null : fields.split(',').map((field) => field.trim()).filter((field) => field !== ''),
  };
}
