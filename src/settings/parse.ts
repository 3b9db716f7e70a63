/**
 * The settings parsers, with deserr's messages and codes: the schemas of schemas.ts compiled by
 * validation/. `PATCH /indexes/{uid}/settings` and the sub-routes parse their bodies with them, and
 * a dump's `settings.json` is parsed as a `PATCH` body, so a value the API refuses (synonyms that
 * are no lists, a negative `maxTotalHits`) fails the import, as v1.50's typed reader does.
 */
import { compileBody } from '../validation/index.js';
import { SETTINGS, SETTING_KEYS, type SettingKey } from './catalogue.js';
import { settingSchema, settingsBodySchema } from './schemas.js';

/** A settings object (every key optional, `null` a reset), or throws the ApiError Meilisearch would answer. */
export const parseSettings = (() => {
  const { schema, codes, checks } = settingsBodySchema();
  return compileBody<Record<string, unknown>>(schema, codes, { validators: checks });
})();

/** One parser per setting: the body is the value itself, so its code covers the root. */
export const parseSetting = Object.fromEntries(
  SETTING_KEYS.map((key) => {
    const { schema, checks } = settingSchema(key);
    return [key, compileBody<unknown>(schema, { '': SETTINGS[key].code }, { validators: checks })];
  }),
) as Record<SettingKey, (value: unknown) => unknown>;
