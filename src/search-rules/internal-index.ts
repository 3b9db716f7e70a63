/**
 * The rules as v1.50 dumps them: the documents of its internal index `.meili_dsr` (primary key
 * `uid`), whose settings are those v1.50 gives that index (index-scheduler
 * `apply_dsr_settings`). Quarry writes that index into its dumps, and reads it back from a dump
 * (Meilisearch's or its own) into the rule store instead of making an index of it.
 */
import { formatDateTime, parseRfc3339, TIME_CRATE_RFC3339 } from '../types/dates.js';
import type { JsonObject } from '../types/task.js';
import type { Conditions, RuleAction, RuleUpdate } from './rule.js';
import type { RuleChange } from './store.js';

const eq = (attribute: string) => ({ attributePatterns: [attribute], features: { facetSearch: false, filter: { equality: true, comparison: false } } });
const cmp = (attribute: string) => ({ attributePatterns: [attribute], features: { facetSearch: false, filter: { equality: true, comparison: true } } });

/** The settings of `.meili_dsr` in a dump. */
export const DSR_INDEX_SETTINGS: JsonObject = {
  displayedAttributes: ['*'],
  searchableAttributes: ['conditions.query.words', 'description'],
  filterableAttributes: [
    eq('active'),
    cmp('conditions.time.start'),
    cmp('conditions.time.end'),
    eq('conditions.query.isEmpty'),
  ],
  sortableAttributes: ['precedence'],
  proximityPrecision: 'byAttribute',
  typoTolerance: { enabled: false, disableOnNumbers: true },
  facetSearch: false,
  prefixSearch: 'disabled',
};

const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

function dateOf(value: unknown): string | undefined {
  const parts = typeof value === 'string' ? parseRfc3339(value, TIME_CRATE_RFC3339) : undefined;
  return parts === undefined ? undefined : formatDateTime(parts);
}

function conditionsOf(value: JsonObject): Conditions {
  const conditions: Conditions = {};
  if (isObject(value.time)) {
    const [start, end] = [dateOf(value.time.start), dateOf(value.time.end)];
    conditions.time = { ...(start === undefined ? {} : { start }), ...(end === undefined ? {} : { end }) };
  }
  if (isObject(value.query)) {
    const { isEmpty, words } = value.query;
    conditions.query = { ...(typeof isEmpty === 'boolean' ? { isEmpty } : {}), ...(typeof words === 'string' ? { words } : {}) };
  }
  return conditions;
}

function actionOf(value: unknown): RuleAction[] {
  if (!isObject(value) || !isObject(value.selector) || !isObject(value.action)) return [];
  const { selector, action } = value;
  const position = action.position;
  if (typeof selector.id !== 'string' || action.type !== 'pin' || typeof position !== 'number' || !Number.isInteger(position) || position < 0 || position > 0xffffffff) return [];
  return [{ selector: typeof selector.indexUid === 'string' ? { indexUid: selector.indexUid, id: selector.id } : { id: selector.id }, action: { type: 'pin', position } }];
}

/**
 * A `.meili_dsr` document as the rule change that recreates it, or null when it is no rule (no
 * string `uid`). Fields of the wrong type are left at their defaults, malformed dates and actions
 * dropped, unknown fields (a `lastUpdatedAt` of an earlier Quarry's dump) ignored; an `active`
 * that is present but no boolean is the `null` a v1.50 update can store (the rule never applies).
 */
export function ruleFromDocument(doc: unknown): RuleChange | null {
  if (!isObject(doc) || typeof doc.uid !== 'string') return null;
  const update: RuleUpdate = {
    description: typeof doc.description === 'string' ? doc.description : null,
    precedence: typeof doc.precedence === 'number' && Number.isInteger(doc.precedence) && doc.precedence >= 0 ? doc.precedence : null,
    conditions: isObject(doc.conditions) ? conditionsOf(doc.conditions) : null,
    actions: Array.isArray(doc.actions) ? doc.actions.flatMap(actionOf) : null,
  };
  if ('active' in doc) update.active = typeof doc.active === 'boolean' ? doc.active : null;
  return { uid: doc.uid, update };
}
