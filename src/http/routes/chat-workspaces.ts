/**
 * Chat workspace routes (chats.md §2–§3): `/chats`, `/chats/{uid}` and `/chats/{uid}/settings`,
 * synchronous, no task. The body and query string are parsed before the `chatCompletions` gate,
 * which the services check first (chats/workspaces.ts).
 */
import { CHAT_SOURCES, type ChatWorkspacePatch } from '../../chats/workspace-settings.js';
import {
  deleteWorkspace,
  resetWorkspaceSettings,
  showWorkspace,
  updateWorkspaceSettings,
  workspaceNames,
  workspaceSettings,
} from '../../chats/workspaces.js';
import { enumOrNull } from '../../settings/schemas.js';
import { defineRoute } from '../route.js';
import { compileBody, compileQuery, parsePositiveInteger } from '../../validation/index.js';
import { offsetPage } from '../views/offset-page.js';

const parseList = compileQuery({
  offset: { parse: parsePositiveInteger, code: 'invalid_index_offset' },
  limit: { parse: parsePositiveInteger, code: 'invalid_index_limit' },
});

const optionalString = { type: ['string', 'null'] };

// `source` and `prompts` have no code of their own in v1.50: their errors are `bad_request`.
const parseSettings = compileBody<ChatWorkspacePatch>(
  {
    type: 'object',
    properties: {
      source: enumOrNull(CHAT_SOURCES),
      orgId: optionalString,
      projectId: optionalString,
      apiVersion: optionalString,
      deploymentId: optionalString,
      baseUrl: optionalString,
      apiKey: optionalString,
      prompts: {
        type: ['object', 'null'],
        properties: {
          system: optionalString,
          searchDescription: optionalString,
          searchQParam: optionalString,
          searchFilterParam: optionalString,
          searchIndexUidParam: optionalString,
        },
        additionalProperties: false,
      },
    },
    additionalProperties: false,
  },
  {
    '.orgId': 'invalid_chat_completion_org_id',
    '.projectId': 'invalid_chat_completion_project_id',
    '.apiVersion': 'invalid_chat_completion_api_version',
    '.deploymentId': 'invalid_chat_completion_deployment_id',
    '.baseUrl': 'invalid_chat_completion_base_api',
    '.apiKey': 'invalid_chat_completion_api_key',
    '.prompts.system': 'invalid_chat_completion_system_prompt',
    '.prompts.searchDescription': 'invalid_chat_completion_search_description_prompt',
    '.prompts.searchQParam': 'invalid_chat_completion_search_query_param_prompt',
    '.prompts.searchFilterParam': 'invalid_chat_completion_search_filter_param_prompt',
    '.prompts.searchIndexUidParam': 'invalid_chat_completion_search_index_uid_param_prompt',
  },
);

export const chatWorkspaceRoutes = [
  defineRoute({
    route: 'GET /chats',
    query: parseList,
    handler: (ctx, deps) => offsetPage(workspaceNames(deps), ctx.query, (uid) => ({ uid })),
  }),
  defineRoute({
    route: 'GET /chats/:workspace',
    handler: (ctx, deps) => showWorkspace(deps, ctx.params.workspace!),
  }),
  defineRoute({
    route: 'DELETE /chats/:workspace',
    status: 204,
    handler: (ctx, deps) => {
      deleteWorkspace(deps, ctx.params.workspace!);
      return undefined;
    },
  }),
  defineRoute({
    route: 'GET /chats/:workspace/settings',
    handler: (ctx, deps) => workspaceSettings(deps, ctx.params.workspace!),
  }),
  defineRoute({
    route: 'PATCH /chats/:workspace/settings',
    body: parseSettings,
    handler: (ctx, deps) => updateWorkspaceSettings(deps, ctx.params.workspace!, ctx.body),
  }),
  defineRoute({
    route: 'DELETE /chats/:workspace/settings',
    handler: (ctx, deps) => resetWorkspaceSettings(deps, ctx.params.workspace!),
  }),
];
