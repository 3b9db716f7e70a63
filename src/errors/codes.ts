/**
 * THE error catalogue: every Meilisearch error code with its HTTP status and error type.
 * Nothing else in Quarry decides a status: inner layers throw `ApiError(code, message)`,
 * the HTTP error handler looks the code up here. The doc link is derived from the code.
 * Source of truth: ../shared/reference/errors.md §3 (Meilisearch v1.50 `error.rs`).
 */
export type ErrorType = 'invalid_request' | 'internal' | 'auth' | 'system';

export interface CodeInfo {
  readonly status: number;
  readonly type: ErrorType;
}

const invalid = (status = 400): CodeInfo => ({ status, type: 'invalid_request' });
const internal = (status = 500): CodeInfo => ({ status, type: 'internal' });
const auth = (status: number): CodeInfo => ({ status, type: 'auth' });
const system = (status: number): CodeInfo => ({ status, type: 'system' });

export const ERROR_CODES = {
  // generic, payload, transport
  bad_request: invalid(),
  bad_parameter: invalid(),
  malformed_payload: invalid(),
  missing_payload: invalid(),
  payload_too_large: invalid(413),
  invalid_content_type: invalid(415),
  missing_content_type: invalid(415),
  unsupported_media_type: invalid(415),
  internal: internal(),
  io_error: system(422),
  no_space_left_on_device: system(422),
  too_many_open_files: system(422),
  database_size_limit_reached: internal(),
  invalid_store_file: internal(),
  invalid_state: internal(),
  unretrievable_error_code: invalid(),
  unretrievable_document: internal(400),
  feature_not_enabled: invalid(),
  requires_enterprise_edition: invalid(451),
  too_many_search_requests: system(503),
  invalid_header_value: invalid(),
  inconsistent_document_change_headers: invalid(),

  // authentication and API keys
  missing_authorization_header: auth(401),
  invalid_api_key: auth(403),
  missing_master_key: auth(401),
  remote_invalid_api_key: auth(403),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_LINK_BASE = 'https://docs.meilisearch.com/errors#';

export function errorLink(code: ErrorCode): string {
  return ERROR_LINK_BASE + code;
}
