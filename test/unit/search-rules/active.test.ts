// Which dynamic search rules apply to a search, and their pins in v1.50's order (search-rules/active.ts).
import { describe, expect, it } from 'vitest';
import { rulePins } from '../../../src/search-rules/active.js';
import { DEFAULT_RULE_LIMITS } from '../../../src/search-rules/limits.js';
import type { SearchRule } from '../../../src/search-rules/rule.js';
import { instantOfRfc3339 } from '../../../src/types/dates.js';
import { mulberry32 } from '../../helpers/random.js';

const NOW = instantOfRfc3339('2026-01-01T12:00:00Z');

function rule(uid: string, extra: Partial<SearchRule> = {}, ...pins: [string, number, string?][]): SearchRule {
  return {
    uid,
    active: true,
    conditions: {},
    actions: pins.map(([id, position, indexUid]) => ({ selector: indexUid === undefined ? { id } : { indexUid, id }, action: { type: 'pin', position } })),
    ...extra,
  };
}

const ids = (rules: SearchRule[], words: string[] = [], index = 'movies', limits = DEFAULT_RULE_LIMITS) => rulePins(rules, index, NOW, words, limits).map((pin) => pin.id);

describe('rulePins', () => {
  it('keeps active rules only, a rule set to `active: null` being none', () => {
    expect(ids([rule('a', { active: false }, ['1', 0]), rule('b', {}, ['2', 0]), rule('c', { active: null }, ['3', 0])])).toEqual(['2']);
  });

  it('keeps a rule within its time window, ends and starts included', () => {
    const at = (start?: string, end?: string) => rule('t', { conditions: { time: { ...(start ? { start } : {}), ...(end ? { end } : {}) } } }, ['1', 0]);
    expect(ids([at('2026-01-01T12:00:00Z', '2026-01-01T12:00:00Z')])).toEqual(['1']);
    expect(ids([at('2026-01-01T13:00:00+02:00')])).toEqual(['1']);
    expect(ids([at('2026-01-01T12:00:01Z')])).toEqual([]);
    expect(ids([at(undefined, '2026-01-01T11:59:59Z')])).toEqual([]);
  });

  it('matches isEmpty against a query without words', () => {
    const empty = rule('e', { conditions: { query: { isEmpty: true } } }, ['1', 0]);
    const nonEmpty = rule('n', { conditions: { query: { isEmpty: false } } }, ['2', 0]);
    expect(ids([empty, nonEmpty])).toEqual(['1']);
    expect(ids([empty, nonEmpty], ['batman'])).toEqual(['2']);
  });

  it('needs every word of the rule among the query words, each once', () => {
    const words = (text: string) => rule(text, { conditions: { query: { words: text } } }, [text, 0]);
    expect(ids([words('Mario Luigi')], ['mario', 'luigi'])).toEqual(['Mario Luigi']);
    expect(ids([words('Mario Luigi')], ['mario'])).toEqual([]);
    expect(ids([words('mario mario')], ['mario', 'luigi'])).toEqual([]);
    expect(ids([words('')], ['anything'])).toEqual(['']);
    // only the first ten distinct query words in byte order count
    const query = ['k', 'j', 'i', 'h', 'g', 'f', 'e', 'd', 'c', 'b', 'a'];
    expect(ids([words('k')], query)).toEqual([]);
    expect(ids([words('a')], query)).toEqual(['a']);
  });

  it('orders rules by precedence, rules without one last, and keeps each rule’s actions in order', () => {
    const rules = [rule('none', {}, ['n', 0]), rule('ten', { precedence: 10 }, ['t1', 5], ['t2', 0]), rule('one', { precedence: 1 }, ['o', 3])];
    expect(ids(rules)).toEqual(['o', 't1', 't2', 'n']);
  });

  it('applies the limits: counted words, rules read, word combinations', () => {
    const words = (text: string) => rule(text, { conditions: { query: { words: text } } }, [text, 0]);
    expect(ids([words('b')], ['a', 'b'], 'movies', { ...DEFAULT_RULE_LIMITS, maxCountedWords: 1 })).toEqual([]);
    expect(ids([words('a')], ['a', 'b'], 'movies', { ...DEFAULT_RULE_LIMITS, maxCountedWords: 1 })).toEqual(['a']);
    expect(ids([rule('x', {}, ['1', 0]), rule('y', {}, ['2', 0])], [], 'movies', { ...DEFAULT_RULE_LIMITS, maxActiveRules: 1 })).toEqual(['1']);
    // one word count checked costs one unit: two counts need more than two units
    const rules = [words('a'), words('a b')];
    expect(ids(rules, ['a', 'b'], 'movies', { ...DEFAULT_RULE_LIMITS, wordFuel: 4 })).toEqual(['a', 'a b']);
    expect(ids(rules, ['a', 'b'], 'movies', { ...DEFAULT_RULE_LIMITS, wordFuel: 2 })).toEqual(['a']);
  });

  it('keeps the rules milli\'s trial of every word combination keeps, on random rules, queries and fuel', () => {
    /** milli's way: each combination of the held query words tried against every rule of its size, a unit of fuel each */
    function brute(rules: SearchRule[], query: string[], fuel: number): string[] {
      const tokens = (text: string) => text.split(' ').filter((word) => word !== '');
      const counted = [...new Set(query)].sort().slice(0, DEFAULT_RULE_LIMITS.maxCountedWords);
      const active = new Set(rules.filter((r) => tokens(r.conditions.query!.words!).length <= counted.length));
      const holders = counted.map((word) => new Set([...active].filter((r) => tokens(r.conditions.query!.words!).includes(word)))).filter((set) => set.size > 0);
      const spend = () => (fuel = Math.max(0, fuel - 1)) === 0;
      const combos = (from: number, size: number, prefix: Set<SearchRule>[]): Set<SearchRule>[][] =>
        prefix.length === size ? [prefix] : holders.slice(from).flatMap((set, i) => combos(from + i + 1, size, [...prefix, set]));
      for (let count = 0; count <= counted.length; count++) {
        const bucket = rules.filter((r) => tokens(r.conditions.query!.words!).length === count);
        if (bucket.length === 0) continue;
        const meets = new Set<SearchRule>();
        if (count === 0) bucket.forEach((r) => meets.add(r));
        else if (count === 1) bucket.forEach((r) => holders.some((set) => set.has(r)) && meets.add(r));
        else {
          for (const combination of combos(0, count, [])) {
            bucket.forEach((r) => combination.every((set) => set.has(r)) && meets.add(r));
            if (spend()) break;
          }
        }
        const out = spend() ? bucket : bucket.filter((r) => !meets.has(r));
        out.forEach((r) => active.delete(r));
      }
      return rules.filter((r) => active.has(r)).map((r) => r.uid);
    }
    const random = mulberry32(7);
    const vocabulary = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const pick = (n: number) => Array.from({ length: n }, () => vocabulary[Math.floor(random() * vocabulary.length)]!);
    for (let round = 0; round < 300; round++) {
      const rules = Array.from({ length: 1 + Math.floor(random() * 12) }, (_, i) => rule(`r${i}`, { conditions: { query: { words: pick(Math.floor(random() * 5)).join(' ') } } }, [`r${i}`, 0]));
      const query = pick(Math.floor(random() * 8));
      const fuel = 1 + Math.floor(random() * 40);
      expect(ids(rules, query, 'movies', { ...DEFAULT_RULE_LIMITS, wordFuel: fuel }), `${JSON.stringify(rules.map((r) => r.conditions.query!.words))} / ${query} / ${fuel}`).toEqual(brute(rules, query, fuel));
    }
  });

  it('leaves out the actions selecting another index', () => {
    expect(ids([rule('r', {}, ['1', 0, 'books'], ['2', 0, 'movies'], ['3', 0])])).toEqual(['2', '3']);
  });
});
