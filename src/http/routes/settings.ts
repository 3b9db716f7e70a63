/**
 * `/indexes/{uid}/settings` routes (settings.md §1): GET reads the index's stored settings (the
 * object searches share, not a copy decoded per request) and writes a long answer in pieces, the
 * event loop given turns between them (search/streamed-answer.ts): 450,000 synonyms, decoded and
 * serialised whole, held the thread answering every request ~2-9 s per GET; PATCH,
 * the sub-routes' PUT/PATCH and every DELETE enqueue a `settingsUpdate` task carrying the
 * canonical patch (src/settings/patch.ts), which is also what the task shows as its details.
 * A large body (PATCH, or a sub-route's PUT/PATCH) is parsed, validated and made canonical on a
 * formatting thread (settings/body.ts): 9.7 MB of synonyms held the thread answering requests ~3 s.
 *
 * Order of checks, as Meilisearch: the body (schema, then field checks), the index uid, then the
 * request-time rules (experimental gates, embedders, ranking-rule mix). The sub-routes share one
 * route per verb with a `:setting` parameter: an unknown setting answers 404 and a setting updated
 * with the other verb 405, both with an empty body, before the body is read.
 */
import { SETTING_ROUTES, settingByRoute, type SettingSpec } from '../../settings/catalogue.js';
import { ELSEWHERE_BYTES, settingsBodyRead, settingsPatchOf } from '../../settings/body.js';
import { resetAllPatch, singleSettingPatch, type SettingsPatch } from '../../settings/patch.js';
import { parseSetting, parseSettings } from '../../settings/parse.js';
import { checkPatch } from '../../settings/validate.js';
import { settingView, settingsView } from '../../settings/view.js';
import { validateIndexUid } from '../../indexes/uid.js';
import type { JsonObject } from '../../types/task.js';
import { readJsonBytes } from '../body/json.js';
import { parseJsonBody } from '../../validation/json-body.js';
import type { AppDeps } from '../deps.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute, type RouteContext } from '../route.js';
import { parseSentBody } from '../../validation/sent-values.js';
import { stringifyReply } from '../../types/reply-text.js';
import { StreamedJson } from '../../types/streamed-json.js';
import { streamedWhenLong } from '../../search/streamed-answer.js';

/** Every settings route registers so; a leader re-sends the change as a settings object to `PATCH /indexes/{uid}/settings` (network.md §5). */
function enqueueUpdate(ctx: RouteContext<unknown, unknown>, deps: AppDeps, uid: string, patch: SettingsPatch, isDeletion: boolean) {
  return enqueue(
    deps,
    {
      kind: {
        name: 'settingsUpdate',
        indexUid: uid,
        settings: patch as JsonObject,
        isDeletion,
        allowIndexCreation: ctx.caller.canPerform('indexes.create', uid),
      },
      ...replicationOf(deps, ctx.headers),
    },
    { ctx, body: { kind: 'json', value: patch }, as: { method: 'PATCH', path: `/indexes/${uid}/settings` } },
  );
}

/** A setting's own routes take the settings' names only: another segment is no route (404 for any method). */
const SETTING_PARAM = { setting: SETTING_ROUTES };

/**
 * The setting named in the path, or undefined after answering 404 (unknown) or 405 (`verb` is
 * not how it is updated) with an empty body.
 */
function routedSetting(ctx: RouteContext<unknown, unknown>, verb?: 'PUT' | 'PATCH'): SettingSpec | undefined {
  const setting = settingByRoute(ctx.params.setting!);
  if (setting !== undefined && (verb === undefined || setting.verb === verb)) return setting;
  ctx.stream?.resume();
  ctx.reply.code(setting === undefined ? 404 : 405);
  return undefined;
}

async function updateSetting(ctx: RouteContext<unknown, unknown>, deps: AppDeps, verb: 'PUT' | 'PATCH') {
  const setting = routedSetting(ctx, verb);
  if (setting === undefined) return undefined;
  const bytes = await readJsonBytes(
    { contentType: ctx.headers['content-type'], contentEncoding: ctx.headers['content-encoding'], stream: ctx.stream },
    deps.config.httpPayloadSizeLimit,
  );
  const patch =
    bytes.length < ELSEWHERE_BYTES || deps.readSettingsBodyElsewhere === undefined
      ? // the value's numbers as sent, for an integer written as a float (`1.0`) and for error messages
        singleSettingPatch(setting.key, parseSetting[setting.key](parseJsonBody(bytes, (text) => parseSentBody(text, JSON.parse))))
      : settingsPatchOf(settingsBodyRead(await deps.readSettingsBodyElsewhere({ bytes, setting: setting.key })));
  const uid = validateIndexUid(ctx.params.indexUid!);
  checkPatch(patch, deps.features);
  return enqueueUpdate(ctx, deps, uid, patch, false);
}

export const settingsRoutes = [
  defineRoute({
    route: 'GET /indexes/:indexUid/settings',
    handler: (ctx, deps) => {
      const view = settingsView(deps.indexReader.settings(ctx.params.indexUid!), {
        foreignKeys: deps.features.enabled('foreignKeys'),
        chat: deps.features.enabled('chatCompletions'),
      });
      return streamedWhenLong(view, 0);
    },
  }),
  defineRoute({
    route: 'PATCH /indexes/:indexUid/settings',
    body: parseSettings,
    bodyElsewhere: (bytes, deps) =>
      bytes.length < ELSEWHERE_BYTES || deps.readSettingsBodyElsewhere === undefined ? undefined : deps.readSettingsBodyElsewhere({ bytes }).then(settingsBodyRead),
    status: 202,
    handler: (ctx, deps) => {
      const uid = validateIndexUid(ctx.params.indexUid!);
      const patch = settingsPatchOf(ctx.body);
      checkPatch(patch, deps.features);
      return enqueueUpdate(ctx, deps, uid, patch, false);
    },
  }),
  defineRoute({
    route: 'DELETE /indexes/:indexUid/settings',
    status: 202,
    handler: (ctx, deps) => enqueueUpdate(ctx, deps, validateIndexUid(ctx.params.indexUid!), resetAllPatch(), true),
  }),
  defineRoute({
    route: 'GET /indexes/:indexUid/settings/:setting',
    paramValues: SETTING_PARAM,
    handler: (ctx, deps) => {
      const setting = routedSetting(ctx);
      if (setting === undefined) return undefined;
      const value = settingView(deps.indexReader.settings(ctx.params.indexUid!), setting.key);
      const long = typeof value === 'object' && value !== null ? streamedWhenLong(value, 0) : value;
      if (long instanceof StreamedJson) return long;
      // Fastify would send a bare string as text: serialize every value as JSON ourselves, as
      // every answer is written (a distribution's floats as v1.50 writes them)
      ctx.reply.type('application/json');
      return stringifyReply(value);
    },
  }),
  defineRoute({
    route: 'PUT /indexes/:indexUid/settings/:setting',
    paramValues: SETTING_PARAM,
    body: 'stream',
    status: 202,
    handler: (ctx, deps) => updateSetting(ctx, deps, 'PUT'),
  }),
  defineRoute({
    route: 'PATCH /indexes/:indexUid/settings/:setting',
    paramValues: SETTING_PARAM,
    body: 'stream',
    status: 202,
    handler: (ctx, deps) => updateSetting(ctx, deps, 'PATCH'),
  }),
  defineRoute({
    route: 'DELETE /indexes/:indexUid/settings/:setting',
    paramValues: SETTING_PARAM,
    status: 202,
    handler: (ctx, deps) => {
      const setting = routedSetting(ctx);
      if (setting === undefined) return undefined;
      const uid = validateIndexUid(ctx.params.indexUid!);
      return enqueueUpdate(ctx, deps, uid, singleSettingPatch(setting.key, null), true);
    },
  }),
];
