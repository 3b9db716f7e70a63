import { describe, expect, it } from 'vitest';
import { bool } from '../../../src/config/values.js';
import { OPTION_KEYS, flagLabel, optionNames, optionSpec } from '../../../src/config/options.js';

describe('option table', () => {
  it('derives flag, TOML key and both environment names from the Config field', () => {
    expect(optionNames('dbPath')).toEqual({ flag: 'db-path', tomlKey: 'db_path', envNames: ['QUARRY_DB_PATH', 'MEILI_DB_PATH'] });
    expect(optionNames('experimentalMaxNumberOfBatchedTasks')).toEqual({
      flag: 'experimental-max-number-of-batched-tasks',
      tomlKey: 'experimental_max_number_of_batched_tasks',
      envNames: ['QUARRY_EXPERIMENTAL_MAX_NUMBER_OF_BATCHED_TASKS', 'MEILI_EXPERIMENTAL_MAX_NUMBER_OF_BATCHED_TASKS'],
    });
  });

  it("names the legacy search default's environment variable as v1.50 does, not as its flag", () => {
    expect(optionNames('experimentalLegacySearchDefault')).toEqual({
      flag: 'experimental-legacy-search-default',
      tomlKey: 'experimental_legacy_search_default',
      envNames: ['QUARRY_EXPERIMENTAL_LEGACY_SEARCH', 'MEILI_EXPERIMENTAL_LEGACY_SEARCH'],
    });
  });

  it('lists every option the contract names', () => {
    const flags = OPTION_KEYS.map((key) => optionNames(key).flag);
    for (const flag of [
      'http-addr',
      'master-key',
      'env',
      'db-path',
      'dump-dir',
      'snapshot-dir',
      'http-payload-size-limit',
      'log-level',
      'max-indexing-threads',
      'max-indexing-memory',
      'no-analytics',
      'config-file-path',
      'import-dump',
      'schedule-snapshot',
      'experimental-enable-metrics',
      'experimental-enable-logs-route',
      'experimental-contains-filter',
      'experimental-search-queue-size',
      'experimental-max-number-of-batched-tasks',
      'task-webhook-url',
    ]) {
      expect(flags).toContain(flag);
    }
  });

  it('makes exactly the boolean options value-less flags with a false default', () => {
    for (const key of OPTION_KEYS) {
      const spec = optionSpec(key);
      expect(spec.valueName === undefined, key).toBe(spec.codec === bool);
      if (spec.codec === bool) expect(spec.default, key).toBe(false);
    }
  });

  it('keeps every default valid for its own codec where it is a plain value', () => {
    for (const key of OPTION_KEYS) {
      const spec = optionSpec(key);
      if (typeof spec.default === 'string') expect(spec.codec.fromString(spec.default), key).toEqual(spec.default);
    }
  });

  it('names options in messages with their value placeholder', () => {
    expect(flagLabel('dbPath')).toBe('--db-path <PATH>');
    expect(flagLabel('noAnalytics')).toBe('--no-analytics');
    expect(flagLabel('scheduleSnapshot')).toBe('--schedule-snapshot [SECONDS]');
  });
});
