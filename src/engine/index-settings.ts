/**
 * Reading and writing an index's settings in its environment (main key `settings`). Writes
 * happen inside the scheduler's index write transaction. The settings reads on the thread
 * answering requests (searches, `GET /settings`) share one object per stored version: decoding
 * 450,000 synonyms takes that thread ~1.4-1.8 s, so the object a settings write was made from
 * is handed to them once it is committed (`primeSearchSettings`) rather than decoded again.
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

/**
 * After a commit wrote `settings` to `env`: the reads of `searchSettings` share that object (never
 * mutated after) instead of decoding it. The environment's read snapshot is renewed first, so the
 * object is held for the entry as committed, not as an older snapshot still showed it.
 */
export function primeSearchSettings(env: IndexEnv, settings: IndexSettings): void {
  env.root.resetReadTxn();
  cached.prime(env, settings);
}

export function writeSettings(env: IndexEnv, settings: IndexSettings): void {
  env.main.putSync(SETTINGS_KEY, settings);
}
