/**
 * What the HTTP layer is given: configuration and the services it calls. Built by main.ts
 * (and by tests), so routes never reach for globals.
 */
import type { Authenticator } from '../auth/authenticate.js';
import type { Config } from '../config/index.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { InstanceStore } from '../store/env.js';
import type { BuildInfo } from '../version.js';

export interface AppDeps {
  config: Config;
  authenticator: Authenticator;
  store: InstanceStore;
  build: BuildInfo;
  features: ExperimentalFeatures;
  /** Health of the process: `false` once a fatal storage error requires a restart. */
  healthy: () => boolean;
}
