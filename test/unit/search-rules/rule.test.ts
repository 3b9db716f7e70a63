// The rule as shown (search-rules/rule.ts ruleView) and as another instance gets it (ruleUpdateBody), for a topology change's export.
import { describe, expect, it } from 'vitest';
import { applyRuleUpdate, ruleUpdateBody, ruleView, type SearchRule } from '../../../src/search-rules/rule.js';

describe('ruleView', () => {
  it('shows v1.50\'s fields only, leaving out the `lastUpdatedAt` a rule stored by an earlier Quarry holds', () => {
    const stored = { uid: 'old', lastUpdatedAt: '2026-12-04T15:00:00Z', active: true, conditions: {}, actions: [] } as SearchRule;
    expect(ruleView(stored)).toEqual({ uid: 'old', active: true, conditions: {}, actions: [] });
    expect(applyRuleUpdate('old', stored, { description: 'd' })).toEqual({ uid: 'old', description: 'd', active: true, conditions: {}, actions: [] });
  });
});

describe('ruleUpdateBody', () => {
  it('is every field of the rule but its uid, description and precedence only when set', () => {
    const bare = applyRuleUpdate('bare', undefined, {});
    expect(ruleUpdateBody(bare)).toEqual({ active: true, conditions: {}, actions: [] });
    const full = applyRuleUpdate(
      'full',
      undefined,
      {
        description: 'd',
        precedence: 3,
        active: false,
        conditions: { query: { words: 'dune' } },
        actions: [{ selector: { indexUid: 'movies', id: '1' }, action: { type: 'pin', position: 2 } }],
      },
    );
    expect(ruleUpdateBody(full)).toEqual({
      description: 'd',
      precedence: 3,
      active: false,
      conditions: { query: { words: 'dune' } },
      actions: [{ selector: { indexUid: 'movies', id: '1' }, action: { type: 'pin', position: 2 } }],
    });
  });

  it('recreates the rule when applied to nothing', () => {
    const rule = applyRuleUpdate('r', undefined, { description: 'd', conditions: { time: { start: '2025-11-28T00:00:00Z' } } });
    expect(applyRuleUpdate('r', undefined, ruleUpdateBody(rule) as Parameters<typeof applyRuleUpdate>[2])).toEqual(rule);
  });
});
