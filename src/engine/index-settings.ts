/**
 * Reading and writing an index's settings in its environment (main key `settings`). Writes
 * happen inside the scheduler's index write transaction.
 */
import { defaultSettings, type IndexSettings } from '../types/settings.js';
import type { IndexEnv } from './index-env.js';

const SETTINGS_KEY = 'settings';

export function readSettings(env: IndexEnv): IndexSettings {
  const stored = env.main.get(SETTINGS_KEY) as Partial<IndexSettings> | undefined;
  return { ...defaultSettings(), ...stored };
}

export function writeSettings(env: IndexEnv, settings: IndexSettings): void {
  env.main.putSync(SETTINGS_KEY, settings);
}
