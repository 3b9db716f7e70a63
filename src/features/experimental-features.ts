/**
 * Experimental feature flags (misc-routes.md §4): persisted in the instance environment,
 * OR-ed at start-up with the flags forced on the command line; a flag never set through the API
 * takes its command-line default (`legacySearch`, `--experimental-legacy-search-default`).
 * Changes apply at once, and a change persists every flag as it then is (forced ones included),
 * as v1.50's PATCH does.
 * Routes read `enabled(name)` to gate their behaviour with `feature_not_enabled`.
 */
import { ApiError } from '../errors/api-error.js';
import type { InstanceStore } from '../store/env.js';
import { MAIN_KEYS } from '../store/dbs.js';
import { FEATURE_NAMES, type FeatureName } from '../types/features.js';

export type Features = Record<FeatureName, boolean>;

export class ExperimentalFeatures {
  private current: Features;

  constructor(
    private readonly store: InstanceStore,
    forcedOn: readonly FeatureName[],
    /** on until set through the API */
    private readonly onByDefault: readonly FeatureName[] = [],
  ) {
    const runtime = this.runtime();
    this.current = Object.fromEntries(FEATURE_NAMES.map((name) => [name, runtime[name] || forcedOn.includes(name)])) as Features;
  }

  all(): Features {
    return { ...this.current };
  }

  /** The flags set through the API (or by a dump), and only those. */
  private saved(): Partial<Features> {
    return { ...((this.store.main.get(MAIN_KEYS.experimentalFeatures) ?? {}) as Partial<Features>) };
  }

  /** The flags as set through the API (else their defaults), without those forced on by CLI flags: what a dump records. */
  runtime(): Features {
    const saved = this.saved();
    return Object.fromEntries(FEATURE_NAMES.map((name) => [name, saved[name] === undefined ? this.onByDefault.includes(name) : saved[name] === true])) as Features;
  }

  enabled(name: FeatureName): boolean {
    return this.current[name];
  }

  /**
   * Applies the given flags (`null` or absent: unchanged) and persists the whole set as it now
   * is, as v1.50 stores its runtime features: flags forced on by the command line and
   * command-line defaults included, so they stay at later starts without those flags. Returns
   * the full set.
   */
  update(changes: Partial<Record<FeatureName, boolean | null>>): Features {
    const next = { ...this.current };
    for (const name of FEATURE_NAMES) {
      const value = changes[name];
      if (typeof value === 'boolean') next[name] = value;
    }
    this.store.main.putSync(MAIN_KEYS.experimentalFeatures, next);
    this.current = next;
    return this.all();
  }

  /**
   * A dump's flags (`null`: the dump does not set it): applied and persisted alone, as v1.50
   * stores a dump's features as they are, so a flag it leaves unset keeps taking its
   * command-line default at later starts.
   */
  restoreDumped(dumped: Record<FeatureName, boolean | null>): void {
    const saved = this.saved();
    for (const name of FEATURE_NAMES) {
      const value = dumped[name];
      if (typeof value === 'boolean') this.current[name] = saved[name] = value;
    }
    this.store.main.putSync(MAIN_KEYS.experimentalFeatures, saved);
  }

  /** Throws `feature_not_enabled` with Meilisearch's wording unless `name` is on. */
  require(name: FeatureName, action: string, featureWords: string, link: string): void {
    if (!this.current[name]) {
      throw new ApiError('feature_not_enabled', `${action} requires enabling the \`${featureWords}\` experimental feature. See ${link}`);
    }
  }
}
