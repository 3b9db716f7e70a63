import { describe, expect, expectTypeOf, it } from 'vitest';
import { compileQuery } from '../../../src/validation/query.js';
import {
  parseBoolean,
  parseEnum,
  parseIndexUid,
  parsePositiveInteger,
  parseU32,
  starOr,
  starOrList,
} from '../../../src/validation/query-values.js';
import { parseTaskDate, parseTaskStatus, parseTaskType, type TaskType } from '../../../src/validation/task-filter-values.js';
import { apiErrorOf } from './expect-api-error.js';

const parseListKeys = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_api_key_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_api_key_limit' },
});

// The filters of `POST /tasks/cancel` and `DELETE /tasks`, as the tasks routes declare them.
const TASK_FILTERS = {
  uids: { parse: starOrList(parseU32), code: 'invalid_task_uids' },
  batchUids: { parse: starOrList(parseU32), code: 'invalid_batch_uids' },
  canceledBy: { parse: starOrList(parseU32), code: 'invalid_task_canceled_by' },
  types: { parse: starOrList(parseTaskType), code: 'invalid_task_types' },
  statuses: { parse: starOrList(parseTaskStatus), code: 'invalid_task_statuses' },
  indexUids: { parse: starOrList(parseIndexUid), code: 'invalid_index_uid' },
  afterEnqueuedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_enqueued_at' },
  beforeEnqueuedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_enqueued_at' },
  afterStartedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_started_at' },
  beforeStartedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_started_at' },
  afterFinishedAt: { parse: starOr(parseTaskDate('after')), code: 'invalid_task_after_finished_at' },
  beforeFinishedAt: { parse: starOr(parseTaskDate('before')), code: 'invalid_task_before_finished_at' },
} as const;
const parseCancelTasks = compileQuery(TASK_FILTERS);
const parseListTasks = compileQuery({
  limit: { parse: parsePositiveInteger, code: 'invalid_task_limit' },
  from: { parse: parseU32, code: 'invalid_task_from' },
  reverse: { parse: parseBoolean, code: 'invalid_task_reverse' },
  ...TASK_FILTERS,
});

describe('compileQuery: accepted query strings', () => {
  it('returns the declared parameters that are present, converted', () => {
    expect(parseListKeys('offset=2&limit=10')).toEqual({ offset: 2, limit: 10 });
    expect(parseListKeys('')).toEqual({});
  });

  it('types the result from the spec', () => {
    expectTypeOf(parseListKeys('')).toEqualTypeOf<{ offset?: number; limit?: number }>();
    expectTypeOf(parseListTasks('').types).toEqualTypeOf<'*' | TaskType[] | undefined>();
    expectTypeOf(parseListTasks('').beforeEnqueuedAt).toEqualTypeOf<'*' | bigint | undefined>();
  });

  it('converts every kind of task filter', () => {
    expect(
      parseListTasks(
        'limit=3&from=8&reverse=true&uids=1,2&batchUids=*&types=INDEXCREATION,settingsUpdate&statuses=failed&indexUids=movies&beforeEnqueuedAt=2024-01-01&afterFinishedAt=*',
      ),
    ).toEqual({
      limit: 3,
      from: 8,
      reverse: true,
      uids: [1, 2],
      batchUids: '*',
      types: ['indexCreation', 'settingsUpdate'],
      statuses: ['failed'],
      indexUids: ['movies'],
      beforeEnqueuedAt: BigInt(Date.parse('2024-01-01T00:00:00Z')) * 1_000_000n,
      afterFinishedAt: '*',
    });
  });

  it('decodes percent-escapes and `+` as a space', () => {
    const parse = compileQuery({ q: { parse: (raw: string) => raw, code: 'invalid_search_q' } });
    expect(parse('q=the+best%20doggo%2C%2B')).toEqual({ q: 'the best doggo,+' });
  });

  it('keeps the last value of a repeated parameter', () => {
    expect(parseListKeys('limit=doggo&limit=2')).toEqual({ limit: 2 });
  });
});

describe('compileQuery: bad values', () => {
  it('reports the parser message with the parameter code', () => {
    expect(apiErrorOf(() => parseListKeys('offset=doggo'))).toEqual({
      code: 'invalid_api_key_offset',
      message: 'Invalid value in parameter `offset`: could not parse `doggo` as a positive integer',
    });
    expect(apiErrorOf(() => parseListTasks('reverse=*'))).toEqual({
      code: 'invalid_task_reverse',
      message: 'Invalid value in parameter `reverse`: could not parse `*` as a boolean, expected either `true` or `false`',
    });
    expect(apiErrorOf(() => parseCancelTasks('afterEnqueuedAt=doggo'))).toEqual({
      code: 'invalid_task_after_enqueued_at',
      message:
        'Invalid value in parameter `afterEnqueuedAt`: `doggo` is an invalid date-time. It should follow the YYYY-MM-DD or RFC 3339 date-time format.',
    });
  });

  it('locates list elements as `name[i]` when the list has several elements', () => {
    expect(apiErrorOf(() => parseCancelTasks('uids=1,dogo'))).toEqual({
      code: 'invalid_task_uids',
      message: 'Invalid value in parameter `uids[1]`: could not parse `dogo` as a positive integer',
    });
    expect(apiErrorOf(() => parseCancelTasks('canceledBy=doggo'))).toEqual({
      code: 'invalid_task_canceled_by',
      message: 'Invalid value in parameter `canceledBy`: could not parse `doggo` as a positive integer',
    });
  });

  it('reports index uids of the filter with invalid_index_uid, after decoding', () => {
    expect(apiErrorOf(() => parseCancelTasks('indexUids=the%20good+doggo'))).toEqual({
      code: 'invalid_index_uid',
      message:
        'Invalid value in parameter `indexUids`: `the good doggo` is not a valid index uid. Index uid can be an integer or a string containing only alphanumeric characters, hyphens (-) and underscores (_), and can not be more than 512 bytes.',
    });
  });

  it('words enum parameters as "Unknown value … for parameter …"', () => {
    const parseStats = compileQuery({
      showInternalDatabaseSizes: { parse: parseBoolean, code: 'invalid_stats_show_internal_database_sizes' },
      sizeFormat: { parse: parseEnum(['raw', 'human'] as const), code: 'invalid_stats_size_format' },
    });
    expect(parseStats('sizeFormat=human')).toEqual({ sizeFormat: 'human' });
    expect(apiErrorOf(() => parseStats('sizeFormat=humans'))).toEqual({
      code: 'invalid_stats_size_format',
      message: 'Unknown value `humans` for parameter `sizeFormat`: did you mean `human`? expected one of `raw`, `human`',
    });
  });

  it('lets errors other than QueryValueError through (bugs are not client errors)', () => {
    const parse = compileQuery({
      x: {
        parse: () => {
          throw new RangeError('boom');
        },
        code: 'bad_request',
      },
    });
    expect(() => parse('x=1')).toThrow(RangeError);
  });
});

describe('compileQuery: unknown parameters', () => {
  it('answers bad_request with the accepted names in declaration order', () => {
    expect(apiErrorOf(() => parseListKeys('doggo=no_limit'))).toEqual({
      code: 'bad_request',
      message: 'Unknown parameter `doggo`: expected one of `offset`, `limit`',
    });
    expect(apiErrorOf(() => parseCancelTasks('limit=doggo'))).toEqual({
      code: 'bad_request',
      message:
        'Unknown parameter `limit`: expected one of `uids`, `batchUids`, `canceledBy`, `types`, `statuses`, `indexUids`, `afterEnqueuedAt`, `beforeEnqueuedAt`, `afterStartedAt`, `beforeStartedAt`, `afterFinishedAt`, `beforeFinishedAt`',
    });
  });

  it('adds the did-you-mean hint', () => {
    expect(apiErrorOf(() => parseListKeys('lmit=3')).message).toBe(
      'Unknown parameter `lmit`: did you mean `limit`? expected one of `offset`, `limit`',
    );
  });

  it("keeps a leading `?` in the name (the string is what follows the URL's first `?`)", () => {
    expect(apiErrorOf(() => parseListKeys('?limit=10'))).toEqual({
      code: 'bad_request',
      message: 'Unknown parameter `?limit`: did you mean `limit`? expected one of `offset`, `limit`',
    });
  });

  it('does not mistake inherited object properties for parameters', () => {
    expect(apiErrorOf(() => parseListKeys('constructor=1')).code).toBe('bad_request');
  });
});

describe('compileQuery: which error comes first', () => {
  it('follows the order of parameters in the query string', () => {
    expect(apiErrorOf(() => parseListKeys('limit=x&doggo=1')).code).toBe('invalid_api_key_limit');
    expect(apiErrorOf(() => parseListKeys('doggo=1&limit=x')).code).toBe('bad_request');
    expect(apiErrorOf(() => parseListTasks('statuses=doggo&types=doggo')).code).toBe('invalid_task_statuses');
  });

  it('places a repeated parameter at its first occurrence', () => {
    expect(apiErrorOf(() => parseListKeys('limit=1&doggo=1&limit=x')).code).toBe('invalid_api_key_limit');
  });
});
