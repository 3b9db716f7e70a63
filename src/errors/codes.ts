/**
 * THE error catalogue: every Meilisearch error code with its HTTP status and error type.
 * Nothing else in Quarry decides a status: inner layers throw `ApiError(code, message)`,
 * the HTTP error handler looks the code up here. The doc link is derived from the code.
 * Source of truth: ../shared/reference/errors.md §3 (Meilisearch v1.50 `error.rs`).
 * Entries marked `// reserved` are never emitted by a v1.50 route or task; they stay so that
 * code → status/type is total (old dumps and task errors may still carry them).
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
  bad_parameter: invalid(), // reserved
  malformed_payload: invalid(),
  missing_payload: invalid(),
  payload_too_large: invalid(413),
  invalid_content_type: invalid(415),
  missing_content_type: invalid(415),
  unsupported_media_type: invalid(415), // reserved
  internal: internal(),
  io_error: system(422),
  no_space_left_on_device: system(422),
  too_many_open_files: system(422),
  database_size_limit_reached: internal(),
  invalid_store_file: internal(),
  invalid_state: internal(), // reserved
  unretrievable_error_code: invalid(), // reserved
  unretrievable_document: internal(400), // reserved
  feature_not_enabled: invalid(),
  requires_enterprise_edition: invalid(451),
  too_many_search_requests: system(503),
  invalid_header_value: invalid(),
  inconsistent_document_change_headers: invalid(),

  // authentication and API keys
  missing_authorization_header: auth(401),
  invalid_api_key: auth(403),
  missing_master_key: auth(401),
  api_key_not_found: invalid(404),
  api_key_already_exists: invalid(409),
  index_scoped_api_key_with_global_action: invalid(),
  invalid_api_key_actions: invalid(),
  invalid_api_key_description: invalid(),
  invalid_api_key_expires_at: invalid(),
  invalid_api_key_indexes: invalid(),
  invalid_api_key_name: invalid(),
  invalid_api_key_uid: invalid(),
  invalid_api_key_offset: invalid(),
  invalid_api_key_limit: invalid(),
  missing_api_key_actions: invalid(),
  missing_api_key_indexes: invalid(),
  missing_api_key_expires_at: invalid(),
  immutable_api_key_uid: invalid(),
  immutable_api_key_actions: invalid(),
  immutable_api_key_indexes: invalid(),
  immutable_api_key_expires_at: invalid(),
  immutable_api_key_created_at: invalid(),
  immutable_api_key_updated_at: invalid(),
  immutable_api_key_key: invalid(), // reserved

  // indexes, swaps, stats
  index_not_found: invalid(404),
  index_already_exists: invalid(409),
  invalid_index_uid: invalid(),
  missing_index_uid: invalid(),
  invalid_index_primary_key: invalid(),
  invalid_index_offset: invalid(),
  invalid_index_limit: invalid(),
  invalid_index_custom_metadata: invalid(),
  immutable_index_created_at: invalid(),
  immutable_index_updated_at: invalid(),
  index_primary_key_already_exists: invalid(),
  index_primary_key_no_candidate_found: invalid(),
  index_primary_key_multiple_candidates_found: invalid(),
  index_creation_failed: internal(), // reserved
  duplicate_index_found: invalid(), // reserved
  invalid_swap_indexes: invalid(),
  invalid_swap_duplicate_index_found: invalid(),
  invalid_swap_rename: invalid(),
  missing_swap_indexes: invalid(),
  invalid_stats_show_internal_database_sizes: invalid(),
  invalid_stats_size_format: invalid(),
  max_fields_limit_exceeded: invalid(),

  // tasks and batches
  task_not_found: invalid(404),
  batch_not_found: invalid(404),
  task_file_not_found: invalid(404),
  missing_task_filters: invalid(),
  invalid_task_uids: invalid(),
  invalid_batch_uids: invalid(),
  invalid_task_canceled_by: invalid(),
  invalid_task_types: invalid(),
  invalid_task_statuses: invalid(),
  invalid_task_limit: invalid(),
  invalid_task_from: invalid(),
  invalid_task_reverse: invalid(),
  invalid_task_before_enqueued_at: invalid(),
  invalid_task_after_enqueued_at: invalid(),
  invalid_task_before_started_at: invalid(),
  invalid_task_after_started_at: invalid(),
  invalid_task_before_finished_at: invalid(),
  invalid_task_after_finished_at: invalid(),

  // documents and vectors
  document_not_found: invalid(404),
  invalid_document_id: invalid(),
  missing_document_id: invalid(),
  invalid_document_fields: invalid(),
  invalid_document_retrieve_vectors: invalid(),
  invalid_document_ids: invalid(),
  invalid_document_limit: invalid(),
  invalid_document_offset: invalid(),
  invalid_document_sort: invalid(),
  invalid_document_filter: invalid(),
  invalid_document_use_network: invalid(),
  invalid_document_csv_delimiter: invalid(),
  invalid_skip_creation: invalid(),
  missing_document_filter: invalid(),
  missing_document_edition_function: invalid(),
  invalid_document_edition_context: invalid(),
  invalid_document_edition_function_filter: invalid(),
  edit_documents_by_function_error: invalid(),
  invalid_document_geo_field: invalid(),
  invalid_document_geojson_field: invalid(),
  invalid_vector_dimensions: invalid(),
  invalid_vectors_type: invalid(),
  too_many_vectors: invalid(),
  vector_embedding_error: invalid(),

  // search, facet search, similar, multi-search
  invalid_search_q: invalid(),
  invalid_search_offset: invalid(),
  invalid_search_limit: invalid(),
  invalid_search_page: invalid(),
  invalid_search_hits_per_page: invalid(),
  invalid_search_attributes_to_retrieve: invalid(),
  invalid_search_attributes_to_crop: invalid(),
  invalid_search_attributes_to_highlight: invalid(),
  invalid_search_attributes_to_search_on: invalid(),
  invalid_search_crop_length: invalid(),
  invalid_search_crop_marker: invalid(),
  invalid_search_highlight_pre_tag: invalid(),
  invalid_search_highlight_post_tag: invalid(),
  invalid_search_filter: invalid(),
  invalid_search_sort: invalid(),
  invalid_search_facets: invalid(),
  invalid_search_distinct: invalid(),
  invalid_search_matching_strategy: invalid(),
  invalid_search_locales: invalid(),
  invalid_search_show_matches_position: invalid(),
  invalid_search_show_ranking_score: invalid(),
  invalid_search_show_ranking_score_details: invalid(),
  invalid_search_show_performance_details: invalid(),
  invalid_search_ranking_score_threshold: invalid(),
  invalid_search_semantic_ratio: invalid(),
  invalid_search_hybrid_query: invalid(),
  invalid_search_embedder: invalid(),
  invalid_search_vector: invalid(),
  invalid_search_media: invalid(),
  invalid_search_retrieve_vectors: invalid(),
  invalid_search_media_and_vector: invalid(),
  missing_search_hybrid: invalid(),
  invalid_search_use_network: invalid(),
  invalid_search_personalize: invalid(),
  invalid_search_personalize_user_context: invalid(),
  invalid_facet_search_facet_name: invalid(),
  missing_facet_search_facet_name: invalid(),
  invalid_facet_search_query: invalid(),
  invalid_facet_search_exhaustive_facet_count: invalid(),
  facet_search_disabled: invalid(),
  invalid_facet_search_name: invalid(), // reserved
  invalid_similar_id: invalid(),
  not_found_similar_id: invalid(),
  invalid_similar_embedder: invalid(),
  invalid_similar_filter: invalid(),
  invalid_similar_limit: invalid(),
  invalid_similar_offset: invalid(),
  invalid_similar_attributes_to_retrieve: invalid(),
  invalid_similar_retrieve_vectors: invalid(),
  invalid_similar_show_ranking_score: invalid(),
  invalid_similar_show_ranking_score_details: invalid(),
  invalid_similar_show_performance_details: invalid(),
  invalid_similar_ranking_score_threshold: invalid(),
  invalid_multi_search_federation_options: invalid(),
  invalid_multi_search_query_pagination: invalid(),
  invalid_multi_search_query_facets: invalid(),
  invalid_multi_search_query_personalization: invalid(),
  invalid_multi_search_query_show_performance_details: invalid(),
  invalid_multi_search_query_ranking_rules: invalid(),
  invalid_multi_search_query_position: invalid(),
  invalid_multi_search_weight: invalid(),
  invalid_multi_search_remote: invalid(),
  invalid_multi_search_distinct: invalid(),
  invalid_multi_search_facets_by_index: invalid(),
  invalid_multi_search_merge_facets: invalid(),
  invalid_multi_search_max_values_per_facet: invalid(),
  invalid_multi_search_facet_order: invalid(),
  invalid_multi_search_facets: invalid(), // reserved
  invalid_multi_search_federated: invalid(), // reserved

  // settings
  invalid_settings_displayed_attributes: invalid(),
  invalid_settings_searchable_attributes: invalid(),
  invalid_settings_filterable_attributes: invalid(),
  invalid_settings_sortable_attributes: invalid(),
  invalid_settings_ranking_rules: invalid(),
  invalid_settings_stop_words: invalid(),
  invalid_settings_non_separator_tokens: invalid(),
  invalid_settings_separator_tokens: invalid(),
  invalid_settings_dictionary: invalid(),
  invalid_settings_synonyms: invalid(),
  invalid_settings_distinct_attribute: invalid(),
  invalid_settings_proximity_precision: invalid(),
  invalid_settings_typo_tolerance: invalid(),
  invalid_settings_faceting: invalid(),
  invalid_settings_pagination: invalid(),
  invalid_settings_embedders: invalid(),
  invalid_settings_search_cutoff_ms: invalid(),
  invalid_settings_localized_attributes: invalid(),
  invalid_settings_facet_search: invalid(),
  invalid_settings_prefix_search: invalid(),
  invalid_settings_foreign_keys: invalid(),
  invalid_settings_index_chat: invalid(),

  // dumps, snapshots, export (S3 names keep the converter's `s_3` split)
  dump_already_processing: invalid(409), // reserved
  dump_not_found: invalid(404), // reserved
  dump_process_failed: internal(), // reserved
  invalid_s_3_snapshot_request: internal(400),
  invalid_s_3_snapshot_parameters: internal(400),
  s_3_snapshot_server_error: internal(502),
  invalid_export_url: invalid(),
  invalid_export_api_key: invalid(),
  invalid_export_payload_size: invalid(),
  invalid_export_index_filter: invalid(),
  invalid_export_index_override_settings: invalid(),
  invalid_export_indexes_patterns: invalid(), // reserved

  // network, sharding, remotes
  invalid_network_self: invalid(),
  invalid_network_remotes: invalid(),
  invalid_network_shards: invalid(),
  invalid_network_leader: invalid(),
  invalid_network_url: invalid(),
  invalid_network_search_api_key: invalid(),
  invalid_network_write_api_key: invalid(),
  missing_network_url: invalid(),
  unexpected_network_previous_remotes: invalid(),
  not_leader: invalid(),
  network_version_too_old: invalid(),
  unprocessed_network_task: invalid(),
  network_version_mismatch: invalid(412),
  import_task_already_received: invalid(412),
  import_task_unknown_remote: invalid(412),
  receive_import_finished_unknown_remote: invalid(412),
  import_task_without_network_task: invalid(503),
  unknown_remote: invalid(),
  remote_bad_request: invalid(),
  remote_invalid_api_key: auth(403),
  remote_bad_response: system(502),
  remote_could_not_send_request: system(502),
  remote_remote_error: system(502),
  remote_timeout: system(502),

  // chats
  chat_not_found: invalid(404),
  unimplemented_external_function_calling: invalid(501),
  unimplemented_non_streaming_chat_completions: invalid(501),
  unimplemented_multi_choice_chat_completions: invalid(501),
  invalid_chat_setting_document_template: invalid(),
  invalid_chat_completion_org_id: invalid(),
  invalid_chat_completion_project_id: invalid(),
  invalid_chat_completion_api_version: invalid(),
  invalid_chat_completion_deployment_id: invalid(),
  invalid_chat_completion_base_api: invalid(),
  invalid_chat_completion_api_key: invalid(),
  invalid_chat_completion_system_prompt: invalid(),
  invalid_chat_completion_search_description_prompt: invalid(),
  invalid_chat_completion_search_query_param_prompt: invalid(),
  invalid_chat_completion_search_filter_param_prompt: invalid(),
  invalid_chat_completion_search_index_uid_param_prompt: invalid(),
  invalid_chat_completion_source: invalid(), // reserved
  invalid_chat_completion_prompts: invalid(), // reserved
  invalid_chat_completion_pre_query_prompt: invalid(), // reserved

  // webhooks
  invalid_webhooks: invalid(),
  invalid_webhook_url: invalid(),
  invalid_webhook_headers: invalid(),
  invalid_webhook_uuid: invalid(),
  webhook_not_found: invalid(404),
  immutable_webhook: invalid(),
  immutable_webhook_uuid: invalid(),
  immutable_webhook_is_editable: invalid(),

  // render template
  invalid_render_template: invalid(),
  invalid_render_input: invalid(),
  template_parsing_error: invalid(),
  template_rendering_error: invalid(),
  render_document_not_found: invalid(404),

  // index fields listing
  invalid_index_fields_filter: invalid(),
  invalid_index_fields_filter_attribute_patterns: invalid(),
  invalid_index_fields_filter_displayed: invalid(),
  invalid_index_fields_filter_searchable: invalid(),
  invalid_index_fields_filter_sortable: invalid(),
  invalid_index_fields_filter_distinct: invalid(),
  invalid_index_fields_filter_ranking_rule: invalid(),
  invalid_index_fields_filter_filterable: invalid(),

  // dynamic search rules
  invalid_dynamic_search_rule_offset: invalid(),
  invalid_dynamic_search_rule_limit: invalid(),
  invalid_dynamic_search_rule_filter: invalid(),
  invalid_dynamic_search_rule_filter_query: invalid(),
  invalid_dynamic_search_rule_filter_active: invalid(),
  invalid_dynamic_search_rule_description: invalid(),
  invalid_dynamic_search_rule_priority: invalid(),
  invalid_dynamic_search_rule_active: invalid(),
  invalid_dynamic_search_rule_conditions: invalid(),
  invalid_dynamic_search_rule_actions: invalid(),
  dynamic_search_rule_not_found: invalid(404),
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_LINK_BASE = 'https://docs.meilisearch.com/errors#';

export function errorLink(code: ErrorCode): string {
  return ERROR_LINK_BASE + code;
}
