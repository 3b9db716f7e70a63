import { describe, expect, it } from 'vitest';
import { QueryValueError, starOr, type ValueParser } from '../../../src/validation/query-values.js';
import {
  TASK_STATUSES,
  TASK_TYPES,
  parseTaskDate,
  parseTaskStatus,
  parseTaskType,
} from '../../../src/validation/task-filter-values.js';

function refusal<T>(parse: ValueParser<T>, raw: string, name: string): string {
  try {
    parse(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(QueryValueError);
    return (error as QueryValueError).render(name);
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be refused`);
}

const ns = (iso: string): bigint => BigInt(Date.parse(iso)) * 1_000_000n;

describe('parseTaskType', () => {
  it('reads every type case-insensitively and returns its canonical spelling', () => {
    for (const type of TASK_TYPES) expect(parseTaskType(type.toUpperCase())).toBe(type);
    expect(parseTaskType('INDEXCREATION')).toBe('indexCreation');
  });

  it("takes the spec's `databaseUpgrade` for v1.50's `upgradeDatabase`", () => {
    expect(parseTaskType('databaseUpgrade')).toBe('upgradeDatabase');
    expect(parseTaskType('DATABASEUPGRADE')).toBe('upgradeDatabase');
  });

  it('folds ASCII letters only', () => {
    // U+212A KELVIN SIGN lower-cases to "k" in Unicode, but not in Rust's eq_ignore_ascii_case.
    expect(() => parseTaskType('tas\u212Acancelation')).toThrow(QueryValueError);
  });

  it('lists all types in the error', () => {
    expect(refusal(parseTaskType, 'doggo', 'types')).toBe(
      'Invalid value in parameter `types`: `doggo` is not a valid task type. Available types are `documentAdditionOrUpdate`, `documentEdition`, `documentDeletion`, `settingsUpdate`, `indexCreation`, `indexDeletion`, `indexUpdate`, `indexSwap`, `taskCancelation`, `taskDeletion`, `dumpCreation`, `snapshotCreation`, `export`, `upgradeDatabase`, `indexCompaction`, `networkTopologyChange`, `dsrUpdate`, `dsrClear`.',
    );
  });
});

describe('parseTaskStatus', () => {
  it('reads statuses case-insensitively', () => {
    expect(TASK_STATUSES.map((s) => parseTaskStatus(s.toUpperCase()))).toEqual([...TASK_STATUSES]);
  });

  it('lists all statuses in the error', () => {
    expect(refusal(parseTaskStatus, 'doggo', 'statuses')).toBe(
      'Invalid value in parameter `statuses`: `doggo` is not a valid task status. Available statuses are `enqueued`, `processing`, `succeeded`, `failed`, `canceled`.',
    );
  });
});

describe('parseTaskDate', () => {
  const before = parseTaskDate('before');
  const after = parseTaskDate('after');

  it('reads RFC 3339 date-times as that instant, in nanoseconds', () => {
    expect(before('2024-08-08T16:37:09.971Z')).toBe(ns('2024-08-08T16:37:09.971Z'));
    expect(after('2024-08-08T18:37:09+02:00')).toBe(ns('2024-08-08T16:37:09Z'));
    expect(before('2024-08-08t16:37:09.123456789z')).toBe(ns('2024-08-08T16:37:09Z') + 123_456_789n);
    expect(before('1969-12-31T23:59:59-00:30')).toBe(1_799n * 1_000_000_000n);
  });

  it('reads a bare day as midnight for `before` bounds and the next midnight for `after` bounds', () => {
    expect(before('2024-01-01')).toBe(ns('2024-01-01T00:00:00Z'));
    expect(after('2024-01-01')).toBe(ns('2024-01-02T00:00:00Z'));
    expect(after('2024-02-29')).toBe(ns('2024-03-01T00:00:00Z'));
    expect(before('0001-01-01')).toBe(ns('0001-01-01T00:00:00Z'));
  });

  it.each([
    ['2024-01-01 00:00:00Z', '2024-01-01T00:00:00Z'],
    ['+2024-01-01', '2024-01-02T00:00:00Z'],
    ['2024-12-31T23:59:60Z', '2024-12-31T23:59:59.999999999Z'],
  ])('reads %j as the time crate does (v1.50)', (raw, same) => {
    expect(after(raw)).toBe(after(same));
  });

  it.each([
    'doggo',
    '*',
    '2024-01-01 10:00:00',
    '2024-01-01T10:00:00',
    '2024-1-01',
    '2023-02-29',
    '2024-13-01',
    '2024-01-01T24:00:00Z',
    '2024-01-01T10:00:60Z',
    '2024-01-01T10:00:00+24:00',
    '2024-01-01T10:00:00.Z',
  ])('refuses %j', (raw) => {
    expect(refusal(after, raw, 'afterEnqueuedAt')).toBe(
      `Invalid value in parameter \`afterEnqueuedAt\`: \`${raw}\` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.`,
    );
  });

  it('takes `*` when wrapped in starOr', () => {
    expect(starOr(before)('*')).toBe('*');
  });
});
