/**
 * Experimental feature flags (misc-routes.md §4): persisted in the instance environment,
 * OR-ed at start-up with the flags forced on the command line; a flag never set through the API
 * takes its command-line default (`legacySearch`, `--experimental-legacy-search-default`).
 * Changes apply at once, and a change persists every flag as it then is (forced ones included),
 * as v1.50's PATCH does. An imported dump's flags replace them all until a restart; `legacySearch`
 * is then null (off) when the dump leaves it unset, as v1.50 keeps its Option.
 * Routes read `enabled(name)` to gate their behaviour with `feature_not_enabled`.
 */
import { ApiError } from '../errors/api-error.js';
import type { InstanceStore } from '../store/env.js';
import { MAIN_KEYS } from '../store/dbs.js';
import { FEATURE_NAMES, type FeatureName } from '../types/features.js';

export type Features = Record<FeatureName, boolean>;

/**
 * The flags as GET /experimental-features answers them and a dump records them: `legacySearch`
 * is null while a dump that left it unset is in force (v1.50's `Option`, given its command-line
 * default only when the instance next starts).
 */
export type FeatureStates = Omit<Features, 'legacySearch'> & { legacySearch: boolean | null };

export class ExperimentalFeatures {
  private current: Features;
  /** An imported dump left `legacySearch` unset: null (and off) until it is set or the instance restarts. */
  private legacySearchUnset = false;

  constructor(
    private readonly store: InstanceStore,
    forcedOn: readonly FeatureName[],
    /** on until set through the API */
    private readonly onByDefault: readonly FeatureName[] = [],
  ) {
    const runtime = this.runtime();
    this.current = Object.fromEntries(FEATURE_NAMES.map((name) => [name, runtime[name] || forcedOn.includes(name)])) as Features;
  }

  all(): FeatureStates {
    return this.shown({ ...this.current });
  }

  private shown(flags: Features): FeatureStates {
    return this.legacySearchUnset ? { ...flags, legacySearch: null } : flags;
  }

  /** What is stored: an unset `legacySearch` is left out, so the next start gives it its default. */
  private persist(flags: Features): void {
    const { legacySearch, ...others } = flags;
    this.store.main.putSync(MAIN_KEYS.experimentalFeatures, this.legacySearchUnset ? others : { ...others, legacySearch });
  }

  /** The flags set through the API (or by a dump), and only those. */
  private saved(): Partial<Features> {
    return { ...((this.store.main.get(MAIN_KEYS.experimentalFeatures) ?? {}) as Partial<Features>) };
  }

  /** The flags as set through the API (else their defaults), without those forced on by CLI flags: what a dump records. */
  runtime(): FeatureStates {
    const saved = this.saved();
    return this.shown(Object.fromEntries(FEATURE_NAMES.map((name) => [name, saved[name] === undefined ? this.onByDefault.includes(name) : saved[name] === true])) as Features);
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
  update(changes: Partial<Record<FeatureName, boolean | null>>): FeatureStates {
    const next = { ...this.current };
    for (const name of FEATURE_NAMES) {
      const value = changes[name];
      if (typeof value === 'boolean') next[name] = value;
    }
    if (typeof changes.legacySearch === 'boolean') this.legacySearchUnset = false;
    this.persist(next);
    this.current = next;
    return this.all();
  }

  /**
   * A dump's flags (`null`: the dump does not set it) replace the whole set until the next start,
   * as v1.50 puts the dump's features in force as they are: a flag the dump leaves unset is off
   * (forced on by the command line or not), `legacySearch` null. The next start ORs the forced
   * flags back in and gives `legacySearch` its command-line default.
   */
  restoreDumped(dumped: Record<FeatureName, boolean | null>): void {
    this.current = Object.fromEntries(FEATURE_NAMES.map((name) => [name, dumped[name] === true])) as Features;
    this.legacySearchUnset = dumped.legacySearch === null;
    this.persist(this.current);
  }

  /** Throws `feature_not_enabled` with Meilisearch's wording unless `name` is on. */
  require(name: FeatureName, action: string, featureWords: string, link: string): void {
    if (!this.current[name]) {
      throw new ApiError('feature_not_enabled', `${action} requires enabling the \`${featureWords}\` experimental feature. See ${link}`);
    }
  }
}
