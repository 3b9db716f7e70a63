/**
 * `POST /export` (misc-routes.md §10): enqueues an `export` task that sends indexes' documents
 * and settings to another instance (tasks/process/export.ts). Answers 200, not 202, as v1.50
 * does. `payloadSize` is a number of bytes or a size string (`"24MiB"`); `indexes` maps index uid
 * patterns to a document filter and whether the remote's settings are overwritten, `"*"` with
 * neither by default. Errors inside `indexes` are `bad_request`: v1.50 gives that field no code of
 * its own.
 */
import { indexPatternProblem } from '../../auth/index-pattern.js';
import { parseByteSize } from '../../config/byte-size.js';
import { setField } from '../../types/own-record.js';
import type { ExportIndexSettings } from '../../types/task.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute } from '../route.js';
import { compileBody, type FieldValidator } from '../../validation/index.js';

export interface ExportBody {
  url?: string;
  apiKey?: string | null;
  payloadSize?: number | string | null;
  indexes?: Record<string, { filter?: unknown; overrideSettings?: boolean }> | null;
}

/**
 * A size string as byte-unit's `Byte::from_str` refuses it where its words are known: nothing,
 * or a first character that is not a digit; other malformed sizes get Quarry's grammar.
 */
const sizeProblem: FieldValidator = (value) => {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '') return 'no value can be found';
  if (!/^[0-9]/.test(text)) return `the character ${rustChar(String.fromCodePoint(text.codePointAt(0)!))} is not a number`;
  try {
    parseByteSize(value);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
};

/** A character as Rust's `{:?}` writes one: in single quotes, quotes and backslashes escaped. */
function rustChar(char: string): string {
  return `'${char === "'" || char === '\\' ? `\\${char}` : char}'`;
}

/** `indexes` keys are `IndexUidPattern`s, which deserr reads with `FromStr`. */
const patternsProblem: FieldValidator = (value) => {
  if (value === null || typeof value !== 'object') return undefined;
  const bad = Object.keys(value).find((pattern) => indexPatternProblem(pattern) !== undefined);
  return bad === undefined ? undefined : `the key ${JSON.stringify(bad)} could not be deserialized into the key type \`meilisearch_types::index_uid_pattern::IndexUidPattern\``;
};

const parseBody = compileBody<ExportBody>(
  {
    type: 'object',
    properties: {
      url: { type: 'string' },
      apiKey: { type: ['string', 'null'] },
      payloadSize: { type: ['integer', 'string', 'null'], minimum: 0 },
      indexes: {
        type: ['object', 'null'],
        additionalProperties: {
          type: 'object',
          properties: { filter: {}, overrideSettings: { type: 'boolean' } },
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  {
    '.url': 'invalid_export_url',
    '.apiKey': 'invalid_export_api_key',
    '.payloadSize': 'invalid_export_payload_size',
    '.indexes.*.filter': 'invalid_export_index_filter',
    '.indexes.*.overrideSettings': 'invalid_export_index_override_settings',
  },
  { validators: { '.payloadSize': sizeProblem, '.indexes': patternsProblem } },
);

export const exportRoutes = [
  defineRoute({
    route: 'POST /export',
    body: parseBody,
    status: 200,
    handler: (ctx, deps) => {
      const { url = '', apiKey = null, payloadSize = null, indexes } = ctx.body;
      const patterns: Record<string, ExportIndexSettings> = {};
      for (const [pattern, settings] of Object.entries(indexes ?? { '*': {} })) {
        setField(patterns, pattern, { filter: settings.filter ?? null, overrideSettings: settings.overrideSettings ?? false });
      }
      const bytes = typeof payloadSize === 'string' ? parseByteSize(payloadSize) : payloadSize;
      return enqueue(deps, { kind: { name: 'export', url, apiKey, payloadSize: bytes, indexes: patterns }, ...replicationOf(deps, ctx.headers) });
    },
  }),
];
