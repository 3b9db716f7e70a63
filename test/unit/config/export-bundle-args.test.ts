// `quarry export-bundle`'s arguments: the db path from the flag, else the environment, else the
// default; fields split on commas; clap's messages for what is missing, repeated or unknown.
import { describe, expect, it } from 'vitest';

import { parseExportBundleArgs } from '../../../src/config/export-bundle-args.js';

describe('parseExportBundleArgs', () => {
  it('reads the index, the output, the db path and the fields', () => {
    expect(parseExportBundleArgs(['--db-path', 'db', '--index', 'movies', '--out=m.bundle', '--fields', 'title, overview,'], {})).toEqual({
      dbPath: 'db',
      index: 'movies',
      out: 'm.bundle',
      fields: ['title', 'overview'],
    });
  });

  it('takes the db path from QUARRY_DB_PATH, then MEILI_DB_PATH, then ./data.ms; whole documents without --fields', () => {
    const args = ['--index', 'i', '--out', 'o'];
    expect(parseExportBundleArgs(args, { QUARRY_DB_PATH: 'q', MEILI_DB_PATH: 'm' })).toMatchObject({ dbPath: 'q', fields: null });
    expect(parseExportBundleArgs(args, { MEILI_DB_PATH: 'm' })).toMatchObject({ dbPath: 'm' });
    expect(parseExportBundleArgs(args, {})).toMatchObject({ dbPath: './data.ms' });
  });

  it('answers help', () => {
    expect(parseExportBundleArgs(['--index', 'i', '-h'], {})).toBe('help');
  });

  it('refuses missing, repeated, valueless and unknown arguments', () => {
    expect(() => parseExportBundleArgs(['--index', 'i'], {})).toThrow("the following required arguments were not provided:\n  --out <FILE>");
    expect(() => parseExportBundleArgs(['--index', 'i', '--index', 'j', '--out', 'o'], {})).toThrow("the argument '--index' cannot be used multiple times");
    expect(() => parseExportBundleArgs(['--index', '--out', 'o'], {})).toThrow("a value is required for '--index' but none was supplied");
    expect(() => parseExportBundleArgs(['--index', 'i', '--out', 'o', '--master-key', 'k'], {})).toThrow("unexpected argument '--master-key' found");
    expect(() => parseExportBundleArgs(['movies'], {})).toThrow("unexpected argument 'movies' found");
  });
});
