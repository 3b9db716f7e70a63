// The rule store (search-rules/store.ts) and the listing (search-rules/list.ts) over a real instance environment.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listRules } from '../../../src/search-rules/list.js';
import { SearchRuleStore, type RuleChange } from '../../../src/search-rules/store.js';
import { openInstanceStore, type InstanceStore } from '../../../src/store/env.js';
import { writeTxn } from '../../../src/store/write-txn.js';

let dir: string;
let store: InstanceStore;
let rules: SearchRuleStore;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'quarry-rules-'));
  store = openInstanceStore(dir, '0.1.0');
  rules = new SearchRuleStore(store);
});

afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Changes applied in one batch. */
const apply = (...changes: RuleChange[]) => writeTxn(store.root, () => rules.apply(changes));

describe('SearchRuleStore', () => {
  it('reads a rule stored while Quarry took `conditions.filter`, its values keyed `__proto__` left as data', () => {
    const values = JSON.parse('{"__proto__": "b", "nest": {"__proto__": "n"}}') as Record<string, unknown>;
    apply({ uid: 'r', update: { conditions: { filter: { values } } as never } });
    const stored = (rules.get('r')!.conditions as { filter: { values: object } }).filter.values;
    expect(JSON.stringify(stored)).toBe('{"__proto__":"b","nest":{"__proto__":"n"}}');
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
  });

  it('creates, merges field by field, resets on null (keeping `active: null`, as v1.50 stores it) and deletes', () => {
    apply({ uid: 'r', update: { description: 'first', precedence: 2, conditions: { query: { words: 'a' } } } });
    apply({ uid: 'r', update: { description: null, active: false } });
    expect(rules.get('r')).toEqual({ uid: 'r', precedence: 2, active: false, conditions: { query: { words: 'a' } }, actions: [] });
    apply({ uid: 'r', update: { active: null, conditions: null, precedence: null } });
    expect(rules.get('r')).toEqual({ uid: 'r', active: null, conditions: {}, actions: [] });
    apply({ uid: 'r', update: null }, { uid: 'missing', update: null });
    expect(rules.get('r')).toBeUndefined();
    expect(rules.size).toBe(0);
  });

  it('gives a new rule the smallest free internal id, which orders the rules', () => {
    apply({ uid: 'a', update: {} }, { uid: 'b', update: {} }, { uid: 'c', update: {} });
    apply({ uid: 'a', update: null });
    apply({ uid: 'd', update: {} });
    expect(rules.all().map((rule) => rule.uid)).toEqual(['d', 'b', 'c']);
    expect(writeTxn(store.root, () => rules.clear())).toBe(3);
    expect(rules.all()).toEqual([]);
  });

  it('gives ids within one batch as milli does: a deletion frees its id for later batches only, a missing rule\'s deletion takes one', () => {
    const uids = () => rules.all().map((rule) => rule.uid);
    apply({ uid: 'a', update: {} }, { uid: 'b', update: {} }, { uid: 'c', update: {} });
    // `d` does not take the id `a` frees in the same batch
    apply({ uid: 'a', update: null }, { uid: 'd', update: {} });
    expect(uids()).toEqual(['b', 'c', 'd']);
    // `b` keeps its id through its deletion and recreation; `e` takes the id `a` freed
    apply({ uid: 'b', update: null }, { uid: 'b', update: { description: 'again' } }, { uid: 'e', update: {} });
    expect(uids()).toEqual(['e', 'b', 'c', 'd']);
    // the deletion of the missing `ghost` takes an id, which `g` of a later batch gets, before `f`'s
    apply({ uid: 'ghost', update: null }, { uid: 'f', update: {} });
    apply({ uid: 'g', update: {} });
    expect(uids()).toEqual(['e', 'b', 'c', 'd', 'g', 'f']);
  });

  it('is created by its first update, even a deletion, and stays so once cleared, as v1.50’s `.meili_dsr`', () => {
    expect(rules.created).toBe(false);
    apply({ uid: 'missing', update: null });
    expect(rules.created).toBe(true);
    expect([rules.size, rules.get('.meili_dsr')]).toEqual([0, undefined]);
    apply({ uid: 'a', update: {} });
    expect(writeTxn(store.root, () => rules.clear())).toBe(1);
    expect(rules.created).toBe(true);
    expect(new SearchRuleStore(store).created).toBe(true);
  });
});

describe('listRules', () => {
  it('ranks rules by how many leading query words they hold, and counts every match', () => {
    apply(
      { uid: 'one', update: { description: 'summer' } },
      { uid: 'two', update: { description: 'summer sale', active: false } },
      { uid: 'words', update: { conditions: { query: { words: 'sale' } } } },
    );
    const uids = (query: Parameters<typeof listRules>[1]) => listRules(rules, query).results.map((rule) => rule.uid);
    expect(uids({ offset: 0, limit: 20, query: 'summer sale' })).toEqual(['two', 'one']);
    expect(uids({ offset: 0, limit: 20, query: 'sale' })).toEqual(['two', 'words']);
    expect(uids({ offset: 0, limit: 20, query: 'sale', active: true })).toEqual(['words']);
    expect(listRules(rules, { offset: 1, limit: 1 })).toMatchObject({ offset: 1, limit: 1, total: 3, results: [{ uid: 'two' }] });
  });

  it('lists by internal id, which also breaks ties between rules holding as many query words, as v1.50 lists its document ids', () => {
    apply({ uid: 'b', update: { description: 'sale' } }, { uid: 'a', update: { description: 'summer sale' } }, { uid: 'c', update: { description: 'sale' } });
    apply({ uid: 'b', update: { description: 'summer' } });
    const uids = (query: Parameters<typeof listRules>[1]) => listRules(rules, query).results.map((rule) => rule.uid);
    expect(uids({ offset: 0, limit: 20 })).toEqual(['b', 'a', 'c']);
    expect(uids({ offset: 0, limit: 20, query: 'sale' })).toEqual(['a', 'c']);
    expect(uids({ offset: 0, limit: 20, query: 'summer' })).toEqual(['b', 'a']);
  });
});
