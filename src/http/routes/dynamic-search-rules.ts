/**
 * `/dynamic-search-rules` (experimental `dynamicSearchRules`; docs/dynamic-search-rules.md):
 * `POST` lists, `GET /{uid}` shows one, `PATCH /{uid}` creates or updates one and `DELETE /{uid}`
 * deletes one (a `dsrUpdate` task), `DELETE` deletes them all (a `dsrClear` task). The body is
 * read before the feature is checked, as v1.50's extractors run before its handlers; the rule uid
 * has an index uid's format.
 */
import { invalidExpiresAtMessage } from '../../auth/dates.js';
import { ApiError } from '../../errors/api-error.js';
import type { AppDeps } from '../deps.js';
import { validateIndexUid } from '../../indexes/uid.js';
import { listRules } from '../../search-rules/list.js';
import { ruleView, type Conditions, type RuleUpdate } from '../../search-rules/rule.js';
import { formatDateTime, instantOf, parseRfc3339, timeCrateDisplay, TIME_CRATE_RFC3339 } from '../../types/dates.js';
import { indexUidProblem } from '../../types/index-uid.js';
import { enqueue } from '../enqueue.js';
import { defineRoute } from '../route.js';
import { compileBody, compileQuery, parseString } from '../../validation/index.js';

const DISCUSSION = 'https://github.com/orgs/meilisearch/discussions/884';

function requireFeature(deps: AppDeps, action: string): void {
  deps.features.require('dynamicSearchRules', action, 'dynamic search rules', DISCUSSION);
}

const parseWriteQuery = compileQuery({
  customMetadata: { parse: parseString, code: 'invalid_index_custom_metadata' },
});

export interface ListBody {
  offset?: number;
  limit?: number;
  filter?: { query?: string | null; active?: boolean | null } | null;
}

const parseListBody = compileBody<ListBody>(
  {
    type: 'object',
    properties: {
      offset: { type: 'integer', minimum: 0 },
      limit: { type: 'integer', minimum: 0 },
      filter: {
        type: ['object', 'null'],
        properties: { query: { type: ['string', 'null'] }, active: { type: ['boolean', 'null'] } },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  {
    '.offset': 'invalid_dynamic_search_rule_offset',
    '.limit': 'invalid_dynamic_search_rule_limit',
    '.filter': 'invalid_dynamic_search_rule_filter',
    '.filter.query': 'invalid_dynamic_search_rule_filter_query',
    '.filter.active': 'invalid_dynamic_search_rule_filter_active',
  },
);

/** `time` dates: RFC 3339, refused with v1.50's `ParseOffsetDateTimeError`, the message of a key's bad `expiresAt`. */
function dateProblem(value: unknown): string | undefined {
  return typeof value !== 'string' || parseRfc3339(value, TIME_CRATE_RFC3339) !== undefined ? undefined : invalidExpiresAtMessage(value);
}

const nullable = (type: string) => ({ type: [type, 'null'] });

const parseRuleBody = compileBody<Record<string, unknown>>(
  {
    type: 'object',
    properties: {
      description: nullable('string'),
      precedence: { type: ['integer', 'null'], minimum: 0 },
      active: nullable('boolean'),
      conditions: {
        type: ['object', 'null'],
        properties: {
          // `time` takes unknown keys (a plain deserr struct); `query` does not
          time: { type: ['object', 'null'], properties: { start: nullable('string'), end: nullable('string') } },
          query: {
            type: ['object', 'null'],
            properties: { isEmpty: nullable('boolean'), words: nullable('string') },
            additionalProperties: false,
          },
        },
        additionalProperties: false,
      },
      actions: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          properties: {
            selector: {
              type: 'object',
              properties: { indexUid: nullable('string'), id: { type: 'string' } },
              required: ['id'],
              additionalProperties: false,
            },
            action: {
              type: 'object',
              properties: { type: { enum: ['pin'] }, position: { type: 'integer', minimum: 0, maximum: 4294967295 } },
              required: ['type', 'position'],
              additionalProperties: false,
            },
          },
          required: ['selector', 'action'],
          additionalProperties: false,
        },
      },
    },
    additionalProperties: false,
  },
  {
    '.description': 'invalid_dynamic_search_rule_description',
    '.precedence': 'invalid_dynamic_search_rule_priority',
    '.active': 'invalid_dynamic_search_rule_active',
    '.conditions': 'invalid_dynamic_search_rule_conditions',
    '.actions': 'invalid_dynamic_search_rule_actions',
  },
  {
    validators: {
      '.conditions.time.start': dateProblem,
      '.conditions.time.end': dateProblem,
      '.actions[].selector.indexUid': (value) => (value === null ? undefined : indexUidProblem(value)),
    },
  },
);

type Raw = Record<string, unknown>;

/** `conditions` as v1.50 keeps it: null members dropped, dates re-printed, its two cross-checks applied. */
function conditionsOf(raw: Raw): Conditions {
  const conditions: Conditions = {};
  const time = raw.time as Raw | null | undefined;
  if (time !== null && time !== undefined) {
    const start = typeof time.start === 'string' ? parseRfc3339(time.start, TIME_CRATE_RFC3339)! : undefined;
    const end = typeof time.end === 'string' ? parseRfc3339(time.end, TIME_CRATE_RFC3339)! : undefined;
    conditions.time = {
      ...(start === undefined ? {} : { start: formatDateTime(start) }),
      ...(end === undefined ? {} : { end: formatDateTime(end) }),
    };
    if (start !== undefined && end !== undefined && instantOf(start) > instantOf(end)) {
      throw new ApiError('bad_request', `Invalid value at \`.conditions.time\`: \`end\` (\`${timeCrateDisplay(end)}\`) should be later than \`start\` (\`${timeCrateDisplay(start)}\`)`);
    }
  }
  const query = raw.query as Raw | null | undefined;
  if (query !== null && query !== undefined) {
    if (query.isEmpty === true && typeof query.words === 'string') {
      throw new ApiError('bad_request', 'Invalid value at `.conditions.query`: either `isEmpty` or `words` can be used, not both at once');
    }
    conditions.query = {
      ...(typeof query.isEmpty === 'boolean' ? { isEmpty: query.isEmpty } : {}),
      ...(typeof query.words === 'string' ? { words: query.words } : {}),
    };
  }
  return conditions;
}

/** The update a `dsrUpdate` task carries, as v1.50 serialises it (absent fields left out, nulls kept). */
function ruleUpdateOf(body: Raw): RuleUpdate {
  const update: RuleUpdate = {};
  if ('description' in body) update.description = body.description as string | null;
  if ('precedence' in body) update.precedence = body.precedence as number | null;
  if ('active' in body) update.active = body.active as boolean | null;
  if ('conditions' in body) update.conditions = body.conditions === null ? null : conditionsOf(body.conditions as Raw);
  if ('actions' in body) {
    update.actions =
      body.actions === null
        ? null
        : (body.actions as { selector: { indexUid?: string | null; id: string }; action: { type: 'pin'; position: number } }[]).map(({ selector, action }) => ({
            selector: typeof selector.indexUid === 'string' ? { indexUid: selector.indexUid, id: selector.id } : { id: selector.id },
            action: { type: action.type, position: action.position },
          }));
  }
  return update;
}

export const dynamicSearchRuleRoutes = [
  defineRoute({
    route: 'POST /dynamic-search-rules',
    body: parseListBody,
    handler: (ctx, deps) => {
      requireFeature(deps, 'Calling the `POST /dynamic-search-rules` route');
      const { offset = 0, limit = 20, filter } = ctx.body;
      return listRules(deps.searchRules, { offset, limit, query: filter?.query, active: filter?.active });
    },
  }),
  defineRoute({
    route: 'GET /dynamic-search-rules/:ruleUid',
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.ruleUid!);
      requireFeature(deps, 'Calling the `GET /dynamic-search-rules/{:ruleUid}` route');
      const rule = deps.searchRules.get(uid);
      if (rule === undefined) throw new ApiError('dynamic_search_rule_not_found', `Dynamic search rule \`${uid}\` not found.`);
      return ruleView(rule);
    },
  }),
  defineRoute({
    route: 'PATCH /dynamic-search-rules/:ruleUid',
    query: parseWriteQuery,
    body: parseRuleBody,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.ruleUid!);
      const rule = ruleUpdateOf(ctx.body);
      requireFeature(deps, 'Using the `/dynamic-search-rules` routes');
      return enqueue(
        deps,
        { kind: { name: 'dsrUpdate', ruleUid: uid, rule: rule as Record<string, unknown> }, customMetadata: ctx.query.customMetadata ?? null },
        { ctx, body: { kind: 'json', value: ctx.body } },
      );
    },
  }),
  defineRoute({
    route: 'DELETE /dynamic-search-rules/:ruleUid',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.ruleUid!);
      requireFeature(deps, 'Using the `/dynamic-search-rules` routes');
      return enqueue(deps, { kind: { name: 'dsrUpdate', ruleUid: uid, rule: null }, customMetadata: ctx.query.customMetadata ?? null }, { ctx, body: { kind: 'none' } });
    },
  }),
  defineRoute({
    route: 'DELETE /dynamic-search-rules',
    query: parseWriteQuery,
    status: 202,
    handler: (ctx, deps) => {
      requireFeature(deps, 'Using the `/dynamic-search-rules` routes');
      return enqueue(deps, { kind: { name: 'dsrClear' }, customMetadata: ctx.query.customMetadata ?? null }, { ctx, body: { kind: 'none' } });
    },
  }),
];
