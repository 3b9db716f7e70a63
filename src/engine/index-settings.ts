/**
 * Reading and writing an index's settings in its environment (main key `settings`). Writes
 * happen inside the scheduler's index write transaction.
 */
import { defaultSettings, type IndexSettings } from '../types/settings.js';
import { EntryCache } from './entry-cache.js';
import type { IndexEnv } from './index-env.js';
import type { IndexReadEnv } from './index-read-env.js';

const SETTINGS_KEY = 'settings';

export function readSettings(env: IndexReadEnv): IndexSettings {
  const stored = env.main.get(SETTINGS_KEY) as Partial<IndexSettings> | undefined;
  return { ...defaultSettings(), ...stored };
}

const cached = new EntryCache((env) => env.main, SETTINGS_KEY, readSettings);

/** The settings as of the current snapshot, shared between searches until a commit changes them: read-only. */
export function searchSettings(env: IndexReadEnv): Readonly<IndexSettings> {
  return cached.get(env);
}

export function writeSettings(env: IndexEnv, settings: IndexSettings): void {
  env.main.putSync(SETTINGS_KEY, settings);
}
