/**
 * The public form of an index's settings (settings.md §2): `GET /settings` shows the 20 always
 * visible keys in Meilisearch's order, plus `foreignKeys` and `chat` when their experimental
 * features are on; the sub-routes show one value each, whatever the features. Embedder API keys
 * are masked, but for what leaves the server to be applied elsewhere (dumps, exports), which
 * reveals them. Pure.
 */
import { maskSecret } from '../types/settings.js';
import type { IndexSettings } from '../types/settings.js';
import { setField } from '../types/own-record.js';
import { SETTING_KEYS, type SettingKey } from './catalogue.js';
import { embedderView } from './embedders.js';

/** How an embedder's API key is shown: masked, or revealed for a dump or an export. */
export type SecretPolicy = (secret: string) => string;
export const REVEAL_SECRETS: SecretPolicy = (secret) => secret;

/** One setting as its sub-route shows it. */
export function settingView(settings: IndexSettings, key: SettingKey, secrets: SecretPolicy = maskSecret): unknown {
  if (key !== 'embedders') return settings[key];
  const view: Record<string, unknown> = {};
  for (const [name, embedder] of Object.entries(settings.embedders)) setField(view, name, embedderView(embedder, secrets));
  return view;
}

export interface VisibleExperimentalSettings {
  foreignKeys: boolean;
  chat: boolean;
}

/** The body of `GET /settings`. */
export function settingsView(settings: IndexSettings, visible: VisibleExperimentalSettings, secrets: SecretPolicy = maskSecret): Record<string, unknown> {
  const view: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    if ((key === 'foreignKeys' || key === 'chat') && !visible[key]) continue;
    view[key] = settingView(settings, key, secrets);
  }
  return view;
}
