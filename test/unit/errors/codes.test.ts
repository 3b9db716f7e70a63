import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, errorLink, type ErrorCode } from '../../../src/errors/codes.js';

/** Number of distinct codes in errors.md §3 (Meilisearch v1.50), reserved ones included. */
const REFERENCE_CODE_COUNT = 288;

describe('error catalogue', () => {
  const entries = Object.entries(ERROR_CODES) as [ErrorCode, { status: number; type: string }][];

  it('names every code in snake_case, with digits only in the S3 codes', () => {
    for (const [code] of entries) {
      expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
      if (/\d/.test(code)) expect(code).toMatch(/(^|_)s_3_/);
    }
  });

  it('gives every code an HTTP error status and one of the four types', () => {
    for (const [, info] of entries) {
      expect(info.status).toBeGreaterThanOrEqual(400);
      expect(info.status).toBeLessThan(600);
      expect(['invalid_request', 'internal', 'auth', 'system']).toContain(info.type);
    }
  });

  it('maps auth failures to 401/403 and the auth type', () => {
    expect(ERROR_CODES.missing_authorization_header).toEqual({ status: 401, type: 'auth' });
    expect(ERROR_CODES.invalid_api_key).toEqual({ status: 403, type: 'auth' });
    expect(ERROR_CODES.missing_master_key).toEqual({ status: 401, type: 'auth' });
  });

  it('derives the documentation link from the code', () => {
    expect(errorLink('index_not_found')).toBe('https://docs.meilisearch.com/errors#index_not_found');
  });

  it('declares each code once in the source (no entry silently overrides another)', () => {
    const source = readFileSync(new URL('../../../src/errors/codes.ts', import.meta.url), 'utf8');
    const declared = [...source.matchAll(/^ {2}([a-z0-9_]+): (?:invalid|internal|auth|system)\(/gm)].map((m) => m[1]);
    expect(new Set(declared).size).toBe(declared.length);
    expect(declared.length).toBe(entries.length);
  });

  it('holds at least every code of the reference table', () => {
    expect(entries.length).toBeGreaterThanOrEqual(REFERENCE_CODE_COUNT);
  });

  it('keeps the converter quirk in the three S3 code names', () => {
    expect(ERROR_CODES.invalid_s_3_snapshot_request).toEqual({ status: 400, type: 'internal' });
    expect(ERROR_CODES.invalid_s_3_snapshot_parameters).toEqual({ status: 400, type: 'internal' });
    expect(ERROR_CODES.s_3_snapshot_server_error).toEqual({ status: 502, type: 'internal' });
    expect(entries.filter(([code]) => /\d/.test(code))).toHaveLength(3);
  });

  it('answers 503 (and so Retry-After: 10) for exactly the two overload codes', () => {
    const unavailable = entries.filter(([, info]) => info.status === 503).map(([code]) => code);
    expect(unavailable.sort()).toEqual(['import_task_without_network_task', 'too_many_search_requests']);
  });

  // One row per family of the reference (§3.1–§3.10), checking status and type together.
  const spotChecks: [ErrorCode, number, string][] = [
    // generic / payload / transport
    ['bad_request', 400, 'invalid_request'],
    ['payload_too_large', 413, 'invalid_request'],
    ['missing_content_type', 415, 'invalid_request'],
    ['unsupported_media_type', 415, 'invalid_request'],
    ['internal', 500, 'internal'],
    ['io_error', 422, 'system'],
    ['no_space_left_on_device', 422, 'system'],
    ['unretrievable_document', 400, 'internal'],
    ['requires_enterprise_edition', 451, 'invalid_request'],
    ['too_many_search_requests', 503, 'system'],
    // keys
    ['api_key_not_found', 404, 'invalid_request'],
    ['api_key_already_exists', 409, 'invalid_request'],
    ['missing_api_key_expires_at', 400, 'invalid_request'],
    ['immutable_api_key_uid', 400, 'invalid_request'],
    ['immutable_api_key_key', 400, 'invalid_request'],
    // indexes, swaps, stats
    ['index_not_found', 404, 'invalid_request'],
    ['index_already_exists', 409, 'invalid_request'],
    ['index_creation_failed', 500, 'internal'],
    ['invalid_swap_duplicate_index_found', 400, 'invalid_request'],
    ['invalid_stats_size_format', 400, 'invalid_request'],
    // tasks and batches
    ['task_not_found', 404, 'invalid_request'],
    ['batch_not_found', 404, 'invalid_request'],
    ['task_file_not_found', 404, 'invalid_request'],
    ['missing_task_filters', 400, 'invalid_request'],
    ['invalid_task_after_finished_at', 400, 'invalid_request'],
    // documents and vectors
    ['document_not_found', 404, 'invalid_request'],
    ['invalid_document_csv_delimiter', 400, 'invalid_request'],
    ['vector_embedding_error', 400, 'invalid_request'],
    // search, similar, multi-search
    ['invalid_search_q', 400, 'invalid_request'],
    ['missing_search_hybrid', 400, 'invalid_request'],
    ['not_found_similar_id', 400, 'invalid_request'],
    ['invalid_multi_search_federated', 400, 'invalid_request'],
    // settings
    ['invalid_settings_typo_tolerance', 400, 'invalid_request'],
    ['invalid_settings_index_chat', 400, 'invalid_request'],
    // dumps, export
    ['dump_already_processing', 409, 'invalid_request'],
    ['dump_not_found', 404, 'invalid_request'],
    ['dump_process_failed', 500, 'internal'],
    ['invalid_export_indexes_patterns', 400, 'invalid_request'],
    // network
    ['network_version_mismatch', 412, 'invalid_request'],
    ['import_task_without_network_task', 503, 'invalid_request'],
    ['remote_invalid_api_key', 403, 'auth'],
    ['remote_timeout', 502, 'system'],
    // chats, webhooks, render, fields, dynamic search rules
    ['chat_not_found', 404, 'invalid_request'],
    ['unimplemented_non_streaming_chat_completions', 501, 'invalid_request'],
    ['invalid_chat_completion_pre_query_prompt', 400, 'invalid_request'],
    ['webhook_not_found', 404, 'invalid_request'],
    ['immutable_webhook_is_editable', 400, 'invalid_request'],
    ['render_document_not_found', 404, 'invalid_request'],
    ['invalid_index_fields_filter_ranking_rule', 400, 'invalid_request'],
    ['invalid_dynamic_search_rule_priority', 400, 'invalid_request'],
    ['dynamic_search_rule_not_found', 404, 'invalid_request'],
  ];

  it.each(spotChecks)('maps %s to %i %s', (code, status, type) => {
    expect(ERROR_CODES[code]).toEqual({ status, type });
  });
});
