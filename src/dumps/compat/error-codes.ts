/**
 * Error codes of failed tasks in old dumps → v1.50's (Meilisearch's dump reader, compat/v2_to_v3
 * … v5_to_v6): v1 and v2 wrote the snake_case of v3's enum names (`missing_primary_key`), v3 the
 * enum name, v4 and v5 the code strings of their time (`primary_key_inference_failed`); a few
 * codes were renamed or merged since, an unknown one becomes `unretrievable_error_code`. Pure.
 */
import { ERROR_CODES, errorLink, type ErrorCode } from '../../errors/codes.js';
import type { TaskError } from '../../types/task.js';

/** v3's `Code` enum names → the code string v4 wrote for them. */
const V3_CODE_NAMES: Record<string, string> = {
  CreateIndex: 'index_creation_failed',
  IndexAlreadyExists: 'index_already_exists',
  IndexNotFound: 'index_not_found',
  InvalidIndexUid: 'invalid_index_uid',
  InvalidState: 'invalid_state',
  MissingPrimaryKey: 'primary_key_inference_failed',
  PrimaryKeyAlreadyPresent: 'index_primary_key_already_exists',
  MaxFieldsLimitExceeded: 'max_fields_limit_exceeded',
  MissingDocumentId: 'missing_document_id',
  InvalidDocumentId: 'invalid_document_id',
  Filter: 'invalid_filter',
  Sort: 'invalid_sort',
  BadParameter: 'bad_parameter',
  BadRequest: 'bad_request',
  DatabaseSizeLimitReached: 'database_size_limit_reached',
  DocumentNotFound: 'document_not_found',
  Internal: 'internal',
  InvalidGeoField: 'invalid_geo_field',
  InvalidRankingRule: 'invalid_ranking_rule',
  InvalidStore: 'invalid_store_file',
  InvalidToken: 'invalid_api_key',
  MissingAuthorizationHeader: 'missing_authorization_header',
  NoSpaceLeftOnDevice: 'no_space_left_on_device',
  DumpNotFound: 'dump_not_found',
  TaskNotFound: 'task_not_found',
  PayloadTooLarge: 'payload_too_large',
  RetrieveDocument: 'unretrievable_document',
  SearchDocuments: 'search_error',
  UnsupportedMediaType: 'unsupported_media_type',
  DumpAlreadyInProgress: 'dump_already_processing',
  DumpProcessFailed: 'dump_process_failed',
  InvalidContentType: 'invalid_content_type',
  MissingContentType: 'missing_content_type',
  MalformedPayload: 'malformed_payload',
  MissingPayload: 'missing_payload',
  MalformedDump: 'malformed_dump',
  UnretrievableErrorCode: 'unretrievable_error_code',
};

/** Codes v6 renamed (compat/v5_to_v6); the others it kept by name or no longer knows. */
const RENAMED: Record<string, ErrorCode> = {
  invalid_min_word_length_for_typo: 'invalid_settings_typo_tolerance',
  primary_key_inference_failed: 'index_primary_key_no_candidate_found',
  invalid_filter: 'invalid_settings_filterable_attributes',
  invalid_sort: 'invalid_settings_sortable_attributes',
  invalid_geo_field: 'invalid_document_geo_field',
  invalid_ranking_rule: 'invalid_settings_ranking_rules',
  missing_parameter: 'bad_request',
  immutable_field: 'bad_request',
};

/** v5_to_v6 kept these codes by name; anything else is unretrievable. */
const KEPT = new Set([
  'index_creation_failed', 'index_already_exists', 'index_not_found', 'invalid_index_uid', 'invalid_state',
  'index_primary_key_already_exists', 'max_fields_limit_exceeded', 'missing_document_id', 'invalid_document_id',
  'bad_parameter', 'bad_request', 'database_size_limit_reached', 'document_not_found', 'internal', 'invalid_store_file',
  'invalid_api_key', 'missing_authorization_header', 'no_space_left_on_device', 'dump_not_found', 'task_not_found',
  'payload_too_large', 'unretrievable_document', 'unsupported_media_type', 'dump_already_processing', 'dump_process_failed',
  'invalid_content_type', 'missing_content_type', 'malformed_payload', 'missing_payload', 'api_key_not_found',
  'invalid_api_key_actions', 'invalid_api_key_indexes', 'invalid_api_key_expires_at', 'invalid_api_key_description',
  'invalid_api_key_name', 'invalid_api_key_uid', 'api_key_already_exists',
]);

/** v2's code strings were the snake_case of v3's enum names; v3 read all but these two. */
const NOT_READ_FROM_V2 = new Set(['MalformedDump', 'UnretrievableErrorCode']);

/** A v2 (or v1) code string → the v3 `Code` enum name (compat/v2_to_v3), `UnretrievableErrorCode` when unknown. */
export function v2CodeName(code: unknown): string {
  const name = String(code).replace(/(?:^|_)([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return name in V3_CODE_NAMES && !NOT_READ_FROM_V2.has(name) && /^[a-z_]+$/.test(String(code)) ? name : 'UnretrievableErrorCode';
}

/** A v3 `Code` enum name as the code string of later dumps. */
export function v3CodeString(name: unknown): string {
  return V3_CODE_NAMES[String(name)] ?? 'unretrievable_error_code';
}

/** The v1.50 code of an old code string. */
function currentCode(code: string): ErrorCode {
  const current = RENAMED[code] ?? (KEPT.has(code) ? code : 'unretrievable_error_code');
  return current in ERROR_CODES ? (current as ErrorCode) : 'unretrievable_error_code';
}

/** A failed task's error as v1.50 reports it: the old message, the code's current type and link. */
export function currentTaskError(message: string, oldCode: string): TaskError {
  const code = currentCode(oldCode);
  return { message, code, type: ERROR_CODES[code].type, link: errorLink(code) };
}
