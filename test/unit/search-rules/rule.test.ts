// The rule as another instance gets it (search-rules/rule.ts ruleUpdateBody), for a topology change's export.
import { describe, expect, it } from 'vitest';
import { applyRuleUpdate, ruleUpdateBody } from '../../../src/search-rules/rule.js';

describe('ruleUpdateBody', () => {
  it('is every field of the rule but its uid and date, description and precedence only when set', () => {
    const bare = applyRuleUpdate('bare', undefined, {}, '2026-12-04T15:00:00Z');
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
      null,
    );
    expect(ruleUpdateBody(full)).toEqual({
      description: 'd',
      precedence: 3,
      active: false,
      conditions: { query: { words: 'dune' } },
      actions: [{ selector: { indexUid: 'movies', id: '1' }, action: { type: 'pin', position: 2 } }],
    });
  });

  it('recreates the rule when applied to nothing, dated anew', () => {
    const rule = applyRuleUpdate('r', undefined, { description: 'd', conditions: { time: { start: '2025-11-28T00:00:00Z' } } }, '2026-12-04T15:00:00Z');
    expect(applyRuleUpdate('r', undefined, ruleUpdateBody(rule) as Parameters<typeof applyRuleUpdate>[2], '2026-12-05T00:00:00Z')).toEqual({ ...rule, lastUpdatedAt: '2026-12-05T00:00:00Z' });
  });
});
