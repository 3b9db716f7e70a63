/**
 * `conditions.filter` of dynamic search rules at search time, as v1.50 decides it (filter-parser
 * `FilterConstraints`, milli `apply_filter_conditions` and `resolve_constraints`):
 * - The search's filter becomes a disjunction of conjunctions, each mapping a target (a field as
 *   written, a `_vectors` part, the geo field) to the conditions on it with their polarity: NOT
 *   flips polarity, an OR with positive polarity (or an AND with negative) adds one conjunction per
 *   child, an AND with positive polarity (or an OR with negative) multiplies its children's
 *   conjunctions together, `IN` is an OR of equalities. Fuel bounds it: `or` children, `and`
 *   products and nesting `depth`, spent as v1.50 spends them.
 * - A rule's `filter.values` count one constraint per leaf value (strings, numbers, booleans; a
 *   null none). A rule with more constraints than the largest conjunction has targets is out.
 * - A field target keeps the active rules whose values under `conditions.filter.values.<field>`
 *   meet every one of its conditions (equality and ranges on the normalised string and on the
 *   number, as the internal rules index's facets compare; `EXISTS` keeps every rule, `IS NULL` and
 *   `IS EMPTY` none, `CONTAINS` and `STARTS WITH` nothing at all; a negative condition takes out
 *   what the positive one keeps, so rules without the field stay). Geo, vector and `_foreign`
 *   targets keep nothing.
 * - A rule with k constraints stays when k distinct targets of one conjunction each keep it; each
 *   combination tried spends one unit of `combinations` fuel, and when the fuel runs out every
 *   rule with that many constraints is out.
 * Rules without `conditions.filter` are never taken out here. Pure.
 */
import { normalizeFacet, parseFiniteFloat, truncateFacet } from '../engine/facets/values.js';
import { compareBytes } from '../types/bytes.js';
import type { FilterAst, Token } from '../engine/filter-parser/index.js';
import { combinations } from './combinations.js';
import type { SearchRule } from './rule.js';

/** The filter fuel of one search (v1.50's `FilterConstraintFuel` and `filter_fuel`). */
export interface FilterFuel {
  or: number;
  and: number;
  depth: number;
  combinations: number;
}

type Condition = Extract<FilterAst, { type: 'comparison' | 'between' | 'exists' | 'isNull' | 'isEmpty' | 'contains' | 'startsWith' }>;

interface Constraint {
  readonly condition: Condition | null;
  readonly polarity: boolean;
}

/** Targets by key, in v1.50's order (fields by their text, then vectors, then geo); `field` is null for targets no rule value answers. */
type Conjunction = Map<string, { readonly field: string | null; readonly constraints: Constraint[] }>;

/** Saturating decrement: false once the fuel reached zero (v1.50's `ControlFlow::Break`). */
function spend(fuel: FilterFuel, kind: 'or' | 'and' | 'depth' | 'combinations'): boolean {
  fuel[kind] = Math.max(0, fuel[kind] - 1);
  return fuel[kind] !== 0;
}

const exhausted = (fuel: FilterFuel) => fuel.or === 0 || fuel.and === 0 || fuel.depth === 0;

/** The text of a token as written (v1.50 compares targets by `original_fragment`). */
const written = (token: Token) => token.span.input.slice(token.span.start, token.span.end);

function single(key: string, field: string | null, constraint: Constraint): Conjunction[] {
  return [new Map([[key, { field, constraints: [constraint] }]])];
}

function evaluate(node: FilterAst, polarity: boolean, fuel: FilterFuel, out: Conjunction[]): void {
  if (!spend(fuel, 'depth')) return;
  switch (node.type) {
    case 'not':
      evaluate(node.child, !polarity, fuel, out);
      break;
    case 'comparison':
    case 'between':
    case 'exists':
    case 'isNull':
    case 'isEmpty':
    case 'contains':
    case 'startsWith':
      out.push(...single(`0${written(node.field)}`, written(node.field), { condition: node, polarity }));
      break;
    case 'in':
      evaluate({ type: 'or', children: node.values.map((value) => ({ type: 'comparison', field: node.field, operator: '=', value })) }, polarity, fuel, out);
      break;
    case 'or':
    case 'and':
      if ((node.type === 'or') === polarity) {
        // one conjunction per child
        for (const child of node.children) {
          if (!spend(fuel, 'or')) break;
          evaluate(child, polarity, fuel, out);
        }
      } else {
        out.push(...conjunctionOf(node.children, polarity, fuel));
      }
      break;
    case 'vectorExists':
      out.push(...single(`1${written(node.field)}.${node.embedder === null ? '' : written(node.embedder)}`, null, { condition: null, polarity }));
      break;
    case 'geoRadius':
    case 'geoBoundingBox':
    case 'geoPolygon':
      out.push(...single('2', null, { condition: null, polarity }));
      break;
    case 'foreign':
      out.push(...single(`3${written(node.field)}`, null, { condition: null, polarity }));
      break;
  }
  if (!exhausted(fuel)) fuel.depth += 1;
}

/** The children's conjunctions multiplied together, targets merged, as far as the `and` fuel goes. */
function conjunctionOf(children: readonly FilterAst[], polarity: boolean, fuel: FilterFuel): Conjunction[] {
  let product: Conjunction[] = [];
  for (const child of children) {
    const local: Conjunction[] = [];
    evaluate(child, polarity, fuel, local);
    if (product.length === 0) {
      product = local;
      continue;
    }
    const next: Conjunction[] = [];
    outer: for (const left of product) {
      for (const right of local) {
        if (!spend(fuel, 'and')) break outer;
        const merged: Conjunction = new Map();
        for (const [key, target] of left) merged.set(key, { field: target.field, constraints: [...target.constraints] });
        for (const [key, target] of right) {
          const known = merged.get(key);
          if (known === undefined) merged.set(key, { field: target.field, constraints: [...target.constraints] });
          else known.constraints.push(...target.constraints);
        }
        next.push(merged);
      }
    }
    product = next;
  }
  return product;
}

/** A rule's values under one path: normalised strings (booleans as `true`/`false`) and numbers. */
interface Leaves {
  readonly strings: string[];
  readonly numbers: number[];
}

const ruleLeaves = new WeakMap<SearchRule, Map<string, Leaves>>();

/** The rule's `filter.values` flattened as its internal index holds them (`a.b` for nested objects, arrays spread). */
function leavesOf(rule: SearchRule): Map<string, Leaves> {
  let leaves = ruleLeaves.get(rule);
  if (leaves !== undefined) return leaves;
  leaves = new Map();
  const into = leaves;
  const add = (path: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) {
      for (const item of value) add(path, item);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) add(`${path}.${key}`, item);
      return;
    }
    let entry = into.get(path);
    if (entry === undefined) into.set(path, (entry = { strings: [], numbers: [] }));
    if (typeof value === 'number') entry.numbers.push(value);
    else entry.strings.push(truncateFacet(normalizeFacet(String(value))));
  };
  for (const [key, value] of Object.entries(rule.conditions.filter?.values ?? {})) add(key, value);
  ruleLeaves.set(rule, leaves);
  return leaves;
}

/** How many constraints a rule's values count (v1.50's `facet_count`): one per string, number or boolean. */
export function constraintCount(values: unknown): number {
  if (values === null || values === undefined) return 0;
  if (Array.isArray(values)) return values.reduce((sum: number, value) => sum + constraintCount(value), 0);
  if (typeof values === 'object') return Object.values(values).reduce((sum: number, value) => sum + constraintCount(value), 0);
  return 1;
}

type Bound = { readonly value: string; readonly inclusive: boolean } | null;
type NumberBound = { readonly value: number; readonly inclusive: boolean };

function within(value: string, low: Bound, high: Bound): boolean {
  if (low !== null) {
    const c = compareBytes(value, low.value);
    if (c < 0 || (c === 0 && !low.inclusive)) return false;
  }
  if (high !== null) {
    const c = compareBytes(value, high.value);
    if (c > 0 || (c === 0 && !high.inclusive)) return false;
  }
  return true;
}

function withinNumbers(value: number, low: NumberBound, high: NumberBound): boolean {
  return (low.inclusive ? value >= low.value : value > low.value) && (high.inclusive ? value <= high.value : value < high.value);
}

/**
 * The rules among `all` a condition keeps on `path` (v1.50's `ValueBounds` over the facets), or
 * 'none' for a condition that makes the whole target keep nothing (`CONTAINS`, `STARTS WITH`).
 */
function kept(condition: Condition, path: string, all: readonly SearchRule[]): Set<SearchRule> | 'none' {
  const matching = (test: (leaves: Leaves) => boolean) => new Set(all.filter((rule) => {
    const leaves = leavesOf(rule).get(path);
    return leaves !== undefined && test(leaves);
  }));
  const normalized = (token: Token) => normalizeFacet(token.value);
  switch (condition.type) {
    case 'exists':
      return new Set(all);
    case 'isNull':
    case 'isEmpty':
      return new Set();
    case 'contains':
    case 'startsWith':
      return 'none';
    case 'between': {
      const [from, to] = [parseFiniteFloat(condition.from.value), parseFiniteFloat(condition.to.value)];
      const [low, high] = [{ value: normalized(condition.from), inclusive: true }, { value: normalized(condition.to), inclusive: true }];
      return matching(({ strings, numbers }) =>
        strings.some((value) => within(value, low, high)) ||
        (from !== null && to !== null && numbers.some((value) => withinNumbers(value, { value: from, inclusive: true }, { value: to, inclusive: true }))),
      );
    }
    case 'comparison': {
      const text = normalized(condition.value);
      const number = parseFiniteFloat(condition.value.value);
      const { operator } = condition;
      if (operator === '=' || operator === '!=') {
        // the value as written is looked up, not cut as stored ones are
        return matching(({ strings, numbers }) => strings.includes(text) || (number !== null && numbers.includes(number)));
      }
      const inclusive = operator === '>=' || operator === '<=';
      const above = operator === '>' || operator === '>=';
      const low: Bound = above ? { value: text, inclusive } : null;
      const high: Bound = above ? null : { value: text, inclusive };
      const numberLow: NumberBound = above ? { value: number ?? 0, inclusive } : { value: -Number.MAX_VALUE, inclusive: true };
      const numberHigh: NumberBound = above ? { value: Number.MAX_VALUE, inclusive: true } : { value: number ?? 0, inclusive };
      return matching(({ strings, numbers }) => strings.some((value) => within(value, low, high)) || (number !== null && numbers.some((value) => withinNumbers(value, numberLow, numberHigh))));
    }
  }
}

/**
 * The active rules one target keeps (milli `resolve_constraints`); empty for targets no value
 * answers (`fields`: every path the rules' values hold). `keptOf` reads what a condition keeps:
 * the same condition comes back in many conjunctions of a multiplied filter.
 */
function keptByTarget(
  field: string | null,
  constraints: readonly Constraint[],
  active: ReadonlySet<SearchRule>,
  fields: ReadonlySet<string>,
  keptOf: (condition: Condition, path: string) => Set<SearchRule> | 'none',
): Set<SearchRule> {
  if (field === null || !fields.has(field)) return new Set();
  const matching = new Set(active);
  for (const { condition, polarity } of constraints) {
    const evaluated = keptOf(condition!, field);
    if (evaluated === 'none') return new Set();
    // `!=` is the equality with the other polarity
    const positive = condition!.type === 'comparison' && condition!.operator === '!=' ? !polarity : polarity;
    for (const rule of [...matching]) if (evaluated.has(rule) !== positive) matching.delete(rule);
    if (matching.size === 0) break;
  }
  return matching;
}

/** Takes out of `active` the rules whose `conditions.filter` the search's filter does not meet. */
export function applyFilterConditions(rules: readonly SearchRule[], active: Set<SearchRule>, filter: FilterAst | null, fuel: FilterFuel): void {
  const filtered = rules.filter((rule) => rule.conditions.filter !== undefined);
  if (filtered.length === 0) return;
  const disjunction: Conjunction[] = [];
  if (filter !== null) evaluate(filter, true, fuel, disjunction);
  const counts = new Map(filtered.map((rule) => [rule, constraintCount(rule.conditions.filter!.values)]));
  const countOf = (rule: SearchRule) => counts.get(rule) ?? 0;
  const max = disjunction.reduce((most, conjunction) => Math.max(most, conjunction.size), 0);
  for (const rule of filtered) if (countOf(rule) > max) active.delete(rule);
  if (max === 0) return;
  const fields = new Set(rules.flatMap((rule) => [...leavesOf(rule).keys()]));
  const keptByCondition = new Map<Condition, Map<string, Set<SearchRule> | 'none'>>();
  const keptOf = (condition: Condition, path: string): Set<SearchRule> | 'none' => {
    let byPath = keptByCondition.get(condition);
    if (byPath === undefined) keptByCondition.set(condition, (byPath = new Map()));
    let found = byPath.get(path);
    if (found === undefined) byPath.set(path, (found = kept(condition, path, rules)));
    return found;
  };
  const solved = disjunction.map((conjunction) =>
    [...conjunction.entries()]
      .sort(([a], [b]) => compareBytes(a, b))
      .map(([, { field, constraints }]) => keptByTarget(field, constraints, active, fields, keptOf))
      .filter((matching) => matching.size > 0),
  );
  for (let count = 1; count <= max; count++) {
    // every rule with that many constraints, as v1.50 reads them from its index (inactive ones too)
    const bucket = filtered.filter((rule) => countOf(rule) === count);
    if (bucket.length === 0) continue;
    const meets = new Set<SearchRule>();
    for (const targets of solved) {
      for (const combination of combinations(targets, count)) {
        if (!spend(fuel, 'combinations')) break;
        // the intersection, walked from its smallest set: bounded by that set, not by every rule
        const [smallest, ...others] = [...combination].sort((a, b) => a.size - b.size);
        for (const rule of smallest!) if (countOf(rule) === count && others.every((matching) => matching.has(rule))) meets.add(rule);
      }
    }
    const out = spend(fuel, 'combinations') ? bucket.filter((rule) => !meets.has(rule)) : bucket;
    for (const rule of out) active.delete(rule);
  }
}
