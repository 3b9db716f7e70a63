/**
 * The compatibility steps of old dumps, one record at a time: what each step renames, drops or
 * fails, as Meilisearch's dump reader (compat/v1_to_v2 … v5_to_v6) does.
 */
import { describe, expect, it } from 'vitest';
import { currentTaskError, v2CodeName } from '../../../../src/dumps/compat/error-codes.js';
import { v4KeyToV5, v5KeyToV6Line } from '../../../../src/dumps/compat/key-steps.js';
import { settingsFile, v1SettingsToV2, v1SettingsUpdateToV2, v2SettingsToV3, v5CheckedSettings, v5SettingsToV6 } from '../../../../src/dumps/compat/settings-steps.js';
import { v1UpdateToV2, v2UpdateToV3, v3UpdateToV4, v4TaskToV5, v5TaskToV6Line } from '../../../../src/dumps/compat/update-steps.js';

describe('settings steps', () => {
  it('v1: attributesForFaceting becomes filterable and sortable, wordsPosition and unreadable rules go, asc(field) becomes field:asc', () => {
    const v1 = { rankingRules: ['typo', 'wordsPosition', 'asc(price)', 'nonsense'], attributesForFaceting: ['genre'], distinctAttribute: null };
    expect(v2SettingsToV3(v1SettingsToV2(v1))).toEqual({ filterableAttributes: ['genre'], sortableAttributes: ['genre'], rankingRules: ['typo', 'price:asc'], distinctAttribute: null });
  });

  it('v1 settings updates: Update sets, Clear resets, Nothing leaves out', () => {
    const update = { ranking_rules: { Update: ['Typo', 'WordsPosition', { Desc: 'fame' }] }, stop_words: 'Clear', synonyms: 'Nothing', attributes_for_faceting: 'Nothing' };
    expect(v2SettingsToV3(v1SettingsUpdateToV2(update))).toEqual({ rankingRules: ['typo', 'fame:desc'], stopWords: null });
  });

  it('v5 → v6: a wildcard is a reset, rules v6 cannot read are dropped, maxTotalHits is at least 1', () => {
    const v5 = { displayedAttributes: ['*'], rankingRules: ['words', 'asc(x)', 'sort'], pagination: { maxTotalHits: 0 } };
    expect(settingsFile(v5SettingsToV6(v5CheckedSettings(v5)))).toEqual({ rankingRules: ['words', 'sort'], pagination: { maxTotalHits: 1 } });
  });
});

describe('update and task steps', () => {
  const v1Failed = {
    status: 'failed', updateId: 3, type: { name: 'DocumentsAddition', number: 2 }, duration: 1.5,
    enqueuedAt: '2021-01-01T00:00:00Z', processedAt: '2021-01-01T00:00:10Z',
    error: 'missing primary key', errorCode: 'missing_primary_key', errorType: 'invalid_request_error', errorLink: 'x',
  };

  it('drops v1 updates v2 cannot carry: enqueued ones and Customs', () => {
    expect(v1UpdateToV2({ ...v1Failed, status: 'enqueued' })).toBeUndefined();
    expect(v1UpdateToV2({ ...v1Failed, type: { name: 'Customs' } })).toBeUndefined();
  });

  it('carries a failed v1 update to a v6 line with its error under the current code, started `duration` earlier', () => {
    const v4 = v3UpdateToV4(v2UpdateToV3(v1UpdateToV2(v1Failed)!, 'now'), 7, 'movies')!;
    const line = v5TaskToV6Line(v4TaskToV5(v4), [], null);
    expect(line).toEqual({
      uid: 7, batchUid: null, indexUid: 'movies', status: 'failed',
      type: { documentImport: { primary_key: null, method: 'ReplaceDocuments', documents_count: 0, allow_index_creation: true } },
      details: { DocumentAdditionOrUpdate: { received_documents: 0, indexed_documents: 0 } },
      error: currentTaskError('missing primary key', 'primary_key_inference_failed'),
      enqueuedAt: '2021-01-01T00:00:00Z', startedAt: '2021-01-01T00:00:08.5Z', finishedAt: '2021-01-01T00:00:10Z',
    });
    expect(line.error).toMatchObject({ code: 'index_primary_key_no_candidate_found', type: 'invalid_request', link: 'https://docs.meilisearch.com/errors#index_primary_key_no_candidate_found' });
  });

  it('fails an unfinished v2 document addition whose payload is gone', () => {
    const v2 = { status: 'enqueued', updateId: 1, meta: { type: 'DocumentsAddition', method: 'ReplaceDocuments', format: 'Json', primary_key: null }, enqueuedAt: '2021-01-01T00:00:00Z', content: null };
    expect(v2UpdateToV3(v2, '2024-01-01T00:00:00Z')).toMatchObject({ status: 'failed', msg: 'Malformed task.', code: 'Internal', failedAt: '2024-01-01T00:00:00Z' });
  });

  it('keeps a finished v3 update of an unknown index as `unknown` and drops an unfinished one', () => {
    const update = { status: 'processed', updateId: 0, meta: 'ClearDocuments', enqueuedAt: 'a', startedProcessingAt: 'b', success: 'Other', processedAt: 'c' };
    expect(v3UpdateToV4(update, 0, undefined)).toMatchObject({ index_uid: 'unknown', content: { DocumentDeletion: 'Clear' } });
    expect(v3UpdateToV4({ ...update, status: 'enqueued' }, 0, undefined)).toBeUndefined();
  });

  it('brings back a task that was processing as enqueued, without dates', () => {
    const task = { id: 4, content: { Dump: { uid: '20220608-151140604' } }, events: [{ Created: '2022-06-08T15:11:40.604805Z' }, { Processing: '2022-06-08T15:11:40.6055Z' }] };
    expect(v5TaskToV6Line(task, [], 'abc')).toEqual({
      uid: 4, batchUid: null, indexUid: null, status: 'enqueued',
      type: { dumpCreation: { keys: [], instance_uid: 'abc' } }, details: { Dump: { dump_uid: '20220608-151140604' } },
      enqueuedAt: '2022-06-08T15:11:40.604805Z',
    });
  });

  it('maps an unknown old error code to unretrievable_error_code', () => {
    expect(currentTaskError('?', 'no_such_code').code).toBe('unretrievable_error_code');
    expect(v2CodeName('no_such_code')).toBe('UnretrievableErrorCode');
    expect(v2CodeName('malformed_dump')).toBe('UnretrievableErrorCode');
    expect(v2CodeName('invalid_token')).toBe('InvalidToken');
  });
});

describe('key steps', () => {
  it('gives a v4 key a new uid and drops dumps.get; a v6 line leaves out null names', () => {
    const v4 = { description: 'k', id: [1, 2, 3, 4, 5, 6, 7, 8], actions: ['search', 'dumps.get'], indexes: ['*'], expires_at: null, created_at: 'c', updated_at: 'u' };
    const line = v5KeyToV6Line(v4KeyToV5(v4));
    expect(line).toEqual({ description: 'k', uid: expect.stringMatching(/^[0-9a-f-]{36}$/), actions: ['search'], indexes: ['*'], expires_at: null, created_at: 'c', updated_at: 'u' });
    expect(v5KeyToV6Line(v4KeyToV5(v4)).uid).not.toBe(line.uid);
  });
});
