/**
 * Who is calling: the authenticated identity every handler receives as `ctx.caller`, and the
 * questions route authors ask it about indexes (keys-auth.md §7, "Checks inside handlers").
 *
 * API for route authors:
 * - `caller.canSeeIndex(uid)`: may the caller see index `uid` at all? Use it to leave
 *   unauthorized indexes out of lists and counts (`GET /indexes`, `/stats`, `/tasks`, `/batches`,
 *   task cancelation/deletion matching). True for every index without a master key and for the
 *   master key; for an API key, its `indexes` patterns decide, narrowed by a tenant token's
 *   `searchRules`.
 * - `caller.indexFilter()`: the same as a predicate, or `undefined` when nothing is hidden (the
 *   task queue skips filtering then).
 * - `caller.canPerform(action, uid)`: may the caller use `action` on index `uid` (wildcards
 *   expanded, expiry checked)? Document additions and settings updates ask `'indexes.create'` to
 *   record whether their task may create a missing index.
 * - `caller.assertIndexAction(action, uid)`: the same, throwing 403 `invalid_api_key` ("The
 *   provided API key is invalid.") when refused: `POST /indexes` (`indexes.create` on the new
 *   uid), `POST /swap-indexes` (`indexes.swap` on every index), multi-search (`search` on each
 *   query's index; it prefixes ``Inside `.queries[<i>]`: `` itself).
 * - `caller.seesAllIndexes`: no index restriction at all (`GET /metrics` requires it).
 * - `caller.searchFilter(uid)`: the tenant token's filter for `uid`, to AND with the query's
 *   filter (`[queryFilter, tokenFilter]`), or `null`.
 * - `caller.kind`, `caller.keyUid`: how the request was authenticated, and with which key.
 * The route's own action and the index in its path are checked before the handler runs.
 * Immutable; built by authenticate.ts only.
 */
import type { Action } from '../types/key.js';
import { HANDLER_CHECKED_ACTIONS, expandActions } from './actions.js';
import { invalidApiKey } from './auth-errors.js';
import { nowNs } from '../types/dates.js';
import { patternsCover } from './index-pattern.js';
import { rulePatterns, searchRulesCover, searchRulesFilter, type SearchRules } from './tenant-token.js';

/** What one API key grants: its expanded actions on its index patterns, until it expires. */
export class KeyGrant {
  private readonly actions: ReadonlySet<Action>;
  /** `*` among the patterns: no index restriction. */
  readonly allIndexes: boolean;

  constructor(
    readonly uid: string,
    readonly indexes: readonly string[],
    actions: readonly Action[],
    /** Instant the key stops working, or `null`. */
    private readonly expiresAtNs: bigint | null,
  ) {
    this.actions = expandActions(actions);
    this.allIndexes = indexes.includes('*');
  }

  coversIndex(uid: string): boolean {
    return this.allIndexes || patternsCover(this.indexes, uid);
  }

  /**
   * Whether the key may perform `action` on `index` at `now`. Without an index (routes with no
   * index in their path), an index-restricted key passes only for actions whose handler narrows
   * the work to its indexes; `indexes: []` grants nothing.
   */
  allows(action: Action, index: string | undefined, now: bigint): boolean {
    if (!this.actions.has(action)) return false;
    if (this.expiresAtNs !== null && now >= this.expiresAtNs) return false;
    if (index !== undefined) return this.coversIndex(index);
    return this.allIndexes || (HANDLER_CHECKED_ACTIONS.has(action) && this.indexes.length > 0);
  }
}

export type CallerKind = 'open' | 'master' | 'apiKey' | 'tenantToken';

export class Caller {
  private constructor(
    /** `open`: no master key configured, or a public route. */
    readonly kind: CallerKind,
    private readonly grant: KeyGrant | null,
    private readonly rules: SearchRules | null,
  ) {}

  private static readonly OPEN = new Caller('open', null, null);
  private static readonly MASTER = new Caller('master', null, null);

  static open(): Caller {
    return Caller.OPEN;
  }

  static master(): Caller {
    return Caller.MASTER;
  }

  /** An API key, or a tenant token (`rules` set) signed with it. */
  static forKey(grant: KeyGrant, rules: SearchRules | null): Caller {
    return new Caller(rules === null ? 'apiKey' : 'tenantToken', grant, rules);
  }

  /** The API key used (the signing key of a tenant token); `null` for open and master callers. */
  get keyUid(): string | null {
    return this.grant?.uid ?? null;
  }

  get seesAllIndexes(): boolean {
    if (this.grant === null) return true;
    return this.grant.allIndexes && (this.rules === null || [...rulePatterns(this.rules)].includes('*'));
  }

  canSeeIndex(uid: string): boolean {
    if (this.grant === null) return true;
    return (this.rules === null || searchRulesCover(this.rules, uid)) && this.grant.coversIndex(uid);
  }

  indexFilter(): ((uid: string) => boolean) | undefined {
    return this.seesAllIndexes ? undefined : (uid) => this.canSeeIndex(uid);
  }

  canPerform(action: Action, uid: string): boolean {
    if (this.grant === null) return true;
    return (this.rules === null || searchRulesCover(this.rules, uid)) && this.grant.allows(action, uid, nowNs());
  }

  assertIndexAction(action: Action, uid: string): void {
    if (!this.canPerform(action, uid)) throw invalidApiKey();
  }

  /** The tenant token's filter for index `uid`, or `null` (no token, no filter, index not opened). */
  searchFilter(uid: string): unknown {
    if (this.rules === null || !this.canSeeIndex(uid)) return null;
    return searchRulesFilter(this.rules, uid);
  }
}
