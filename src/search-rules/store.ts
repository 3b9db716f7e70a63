/**
 * The dynamic search rules of the instance (`/dynamic-search-rules`), in the instance environment
 * (they are instance-wide, as v1.50's internal `.meili_dsr` index is): rule uid → the rule and its
 * internal id. Internal ids order the rules where v1.50 orders them by document id (listing
 * without a query, rules of equal precedence); a new rule takes the smallest free id, as milli
 * gives a new document (apply). Only the `dsrUpdate`/`dsrClear` batch processor writes, inside the
 * scheduler's transaction; readers get an in-memory copy kept until the next write.
 * The store also remembers when v1.50 would have created `.meili_dsr` (the first `dsrUpdate`
 * batch; clears keep it), which decides whether a topology change's leader exports its rules.
 */
import type { Database } from 'lmdb';
import { INSTANCE_DBS } from '../store/dbs.js';
import { PROTO_SAFE_VALUES } from '../store/proto-safe-packr.js';
import { DSR_INDEX_UID } from '../types/task.js';
import type { InstanceStore } from '../store/env.js';
import { DEFAULT_RULE_LIMITS, type RuleLimits } from './limits.js';
import { applyRuleUpdate, type RuleUpdate, type SearchRule } from './rule.js';

interface StoredRule {
  id: number;
  rule: SearchRule;
}

/** The entry saying the rules "index" exists, under a key no rule uid can take (uids cannot hold a dot). */
const CREATED_KEY = DSR_INDEX_UID;
type Entry = StoredRule | { created: true };

const isRule = (entry: Entry | undefined): entry is StoredRule => entry !== undefined && 'rule' in entry;

/** One `dsrUpdate` task's change: a creation or update (`update`), or a deletion (`null`). */
export interface RuleChange {
  uid: string;
  update: RuleUpdate | null;
}

export class SearchRuleStore {
  private readonly db: Database<Entry, string>;
  /** every rule by ascending internal id; null until read after a write */
  private cached: readonly StoredRule[] | null = null;

  /** `limits`: how searches apply the rules (limits.ts) */
  constructor(
    store: InstanceStore,
    readonly limits: RuleLimits = DEFAULT_RULE_LIMITS,
  ) {
    // rules stored while Quarry took `conditions.filter` hold values keyed by field names, `__proto__` included
    this.db = store.root.openDB<Entry, string>({ name: INSTANCE_DBS.searchRules, ...PROTO_SAFE_VALUES });
  }

  /** Every rule, by ascending internal id. */
  all(): readonly SearchRule[] {
    return this.stored().map((entry) => entry.rule);
  }

  get(uid: string): SearchRule | undefined {
    const entry = this.db.get(uid);
    return isRule(entry) ? entry.rule : undefined;
  }

  /** Whether v1.50's internal rules index would exist: a `dsrUpdate` batch ran (rules stored before this was kept count too). */
  get created(): boolean {
    return this.db.get(CREATED_KEY) !== undefined || this.size > 0;
  }

  get size(): number {
    return this.stored().length;
  }

  /**
   * Applies the changes in order; call inside the batch's instance transaction. Internal ids go
   * as milli gives document ids in one indexing: a rule that existed when the batch began keeps
   * its id (deleted and recreated in the batch too); every other uid, at its first change, takes
   * the smallest id free when the batch began and not taken yet, even when the batch leaves no
   * rule under it (the deletion of a missing rule), so an id a deletion frees serves the next
   * batches only.
   */
  apply(changes: readonly RuleChange[]): void {
    const before = new Map(this.readAll().map((entry) => [entry.rule.uid, entry.id]));
    const used = new Set(before.values());
    const taken = new Map<string, number>();
    let next = 0;
    this.db.putSync(CREATED_KEY, { created: true });
    for (const { uid, update } of changes) {
      let id = before.get(uid) ?? taken.get(uid);
      if (id === undefined) {
        while (used.has(next)) next++;
        id = next++;
        taken.set(uid, id);
      }
      const entry = this.db.get(uid);
      const existing = isRule(entry) ? entry.rule : undefined;
      if (update === null) {
        if (existing !== undefined) this.db.removeSync(uid);
        continue;
      }
      this.db.putSync(uid, { id, rule: applyRuleUpdate(uid, existing, update) });
    }
    this.invalidate();
  }

  /** Removes every rule; call inside the batch's instance transaction. Answers how many there were. */
  clear(): number {
    const count = this.readAll().length;
    for (const { key } of this.db.getRange()) if (key !== CREATED_KEY) this.db.removeSync(key);
    this.invalidate();
    return count;
  }

  /** Drops the in-memory copy (after a commit, whose writes a read made meanwhile did not see). */
  invalidate(): void {
    this.cached = null;
  }

  private stored(): readonly StoredRule[] {
    return (this.cached ??= this.readAll());
  }

  private readAll(): StoredRule[] {
    return [...this.db.getRange()].flatMap(({ value }) => (isRule(value) ? [value] : [])).sort((a, b) => a.id - b.id);
  }
}
