// Log targets read as v1.50 reads them (tracing-subscriber's Targets, tracing's LevelFilter):
// directives taken as written, levels by name, number or nothing, fields lists checked.
import { describe, expect, it } from 'vitest';
import { LEVEL_RANK, accepts, lowestRank, parseTarget } from '../../../src/logs/targets.js';

const message = (target: string) => {
  try {
    parseTarget(target);
    return 'accepted';
  } catch (err) {
    return (err as Error).message;
  }
};

describe('parseTarget', () => {
  it('refuses what tracing-subscriber refuses, with its messages', () => {
    const level = 'error parsing level filter: expected one of "off", "error", "warn", "info", "debug", "trace", or a number 0-5';
    expect(message('foo=bar')).toBe(level);
    expect(message('milli=6')).toBe(level);
    expect(message('a=b=c')).toBe("invalid filter directive: too many '=' in filter directive, expected 0 or 1");
    expect(message('foo[{x]=info')).toBe("invalid filter directive: expected fields list to end with '}]'");
    expect(message('a[{b}][{c}]=info')).toBe("invalid filter directive: too many '[{' in filter directive, expected 0 or 1");
    expect(message('')).toMatch(/^Empty string is not a valid target\./);
  });

  it('takes levels by name in any case, by number (a + allowed) and an empty level as error; a blank target as written', () => {
    expect(parseTarget('milli=').targets).toEqual([{ target: 'milli', rank: LEVEL_RANK.error }]);
    expect(parseTarget('milli=+3,index_scheduler=5').targets).toEqual([{ target: 'milli', rank: LEVEL_RANK.info }, { target: 'index_scheduler', rank: LEVEL_RANK.trace }]);
    expect(parseTarget('WARN').defaultRank).toBe(LEVEL_RANK.warn);
    expect(message(' ')).toBe('accepted');
    // an empty directive is the level `error`, and the later one wins
    expect(parseTarget('info,').defaultRank).toBe(LEVEL_RANK.error);
  });

  it('lets a later directive for a target replace an earlier one, and a fields directive match no record', () => {
    const filter = parseTarget('milli=trace,milli=warn,quarry[{uid}]=trace');
    expect(filter.targets).toEqual([{ target: 'milli', rank: LEVEL_RANK.warn }]);
    expect(accepts(filter, 'milli::update', LEVEL_RANK.info)).toBe(false);
    expect(accepts(filter, 'quarry', LEVEL_RANK.trace)).toBe(false);
  });

  it('reads a target of 200,000 directives, each replacing its predecessor for the same target, and gives its lowest rank', () => {
    const directives = Array.from({ length: 200_000 }, (_, i) => `t${i % 1_000}=${i % 2 === 0 ? 'info' : 'debug'}`);
    const filter = parseTarget(['error', ...directives].join(','));
    expect(filter.targets).toHaveLength(1_000);
    expect(filter.targets[0]).toEqual({ target: 't0', rank: LEVEL_RANK.info });
    expect(lowestRank(filter)).toBe(LEVEL_RANK.debug);
    expect(lowestRank(parseTarget(Array.from({ length: 200_000 }, (_, i) => `t${i}=warn`).join(',')))).toBe(LEVEL_RANK.warn);
  });
});
