/**
 * A dynamic search rule as v1.50 stores and shows it (meilisearch-types
 * `dynamic_search_rules.rs`: uid, description, precedence, active, conditions, actions), and the
 * update a `dsrUpdate` task carries. Pure.
 *
 * An update is merged into the stored rule field by field, as v1.50 merges it (a document update
 * of its internal rules index: top-level fields replace, nested objects are not merged). Rules
 * stored by earlier Quarry versions may still hold a `lastUpdatedAt`, which nothing reads.
 *
 * A `null` is stored as v1.50 stores it. For `description` and `precedence` it means none. For
 * `active`, `conditions` and `actions` v1.50's reader fails on it (GET and the listing answer 500)
 * while its search reads an `active: null` rule as neither active nor inactive (never applied, in
 * neither `filter.active` listing) and null conditions and actions as none. Quarry keeps that
 * search behaviour and shows what is stored instead of failing: `active: null`, and `conditions`
 * and `actions` reset to `{}` and `[]`, which search reads alike.
 */
import type { JsonObject } from '../types/task.js';

export interface TimeCondition {
  /** RFC 3339, as v1.50 prints it back (`Z` for UTC, fraction only when non-zero) */
  start?: string;
  end?: string;
}

export interface QueryCondition {
  isEmpty?: boolean;
  words?: string;
}

export interface Conditions {
  time?: TimeCondition;
  query?: QueryCondition;
}

export interface RuleAction {
  selector: { indexUid?: string; id: string };
  action: { type: 'pin'; position: number };
}

export interface SearchRule {
  uid: string;
  description?: string;
  /** lower wins; none: after every rule that has one */
  precedence?: number;
  /** null: set to null by an update; the rule never applies */
  active: boolean | null;
  conditions: Conditions;
  actions: RuleAction[];
}

/** The body of `PATCH /dynamic-search-rules/{uid}`, normalised: absent = unchanged, null = reset (`active` kept null). */
export interface RuleUpdate {
  description?: string | null;
  precedence?: number | null;
  active?: boolean | null;
  conditions?: Conditions | null;
  actions?: RuleAction[] | null;
}

/** The rule `uid` after `update`, starting from `existing` (a new rule when undefined). */
export function applyRuleUpdate(uid: string, existing: SearchRule | undefined, update: RuleUpdate): SearchRule {
  const base: SearchRule = existing ?? { uid, active: true, conditions: {}, actions: [] };
  const description = update.description === undefined ? base.description : (update.description ?? undefined);
  const precedence = update.precedence === undefined ? base.precedence : (update.precedence ?? undefined);
  return {
    uid,
    ...(description === undefined ? {} : { description }),
    ...(precedence === undefined ? {} : { precedence }),
    active: update.active === undefined ? base.active : update.active,
    conditions: update.conditions === undefined ? base.conditions : (update.conditions ?? {}),
    actions: update.actions === undefined ? base.actions : (update.actions ?? []),
  };
}

/** The rule in v1.50's key order (uid, description, precedence, active, conditions, actions). */
export function ruleView(rule: SearchRule): JsonObject {
  const conditions: JsonObject = {};
  if (rule.conditions.time !== undefined) conditions.time = { ...rule.conditions.time } as JsonObject;
  if (rule.conditions.query !== undefined) conditions.query = { ...rule.conditions.query } as JsonObject;
  return {
    uid: rule.uid,
    ...(rule.description === undefined ? {} : { description: rule.description }),
    ...(rule.precedence === undefined ? {} : { precedence: rule.precedence }),
    active: rule.active,
    conditions,
    actions: rule.actions.map((action) => ({
      selector: action.selector.indexUid === undefined ? { id: action.selector.id } : { indexUid: action.selector.indexUid, id: action.selector.id },
      action: { type: action.action.type, position: action.action.position },
    })),
  } as JsonObject;
}

/**
 * The body of `PATCH /dynamic-search-rules/{uid}` that recreates the rule on another instance
 * (v1.50's `into_uid_update`, which a topology change's leader sends): every field but the uid.
 */
export function ruleUpdateBody(rule: SearchRule): JsonObject {
  const { uid: _uid, ...body } = ruleView(rule);
  return body;
}
