// The indexing memory budget and what its default gives the batches (cli-config.md §2).
import os from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultBatchBytes, indexingMemoryBudget } from '../../../src/config/indexing-memory.js';

afterEach(() => vi.restoreAllMocks());

describe('indexing memory budget', () => {
  it('is the configured size when one is given', () => {
    expect(indexingMemoryBudget(123_456)).toBe(123_456);
  });

  it('defaults to two thirds of the memory, or of a lower cgroup limit', () => {
    vi.spyOn(os, 'totalmem').mockReturnValue(24 * 2 ** 30);
    vi.spyOn(process, 'constrainedMemory').mockReturnValue(0);
    expect(indexingMemoryBudget(null)).toBe(16 * 2 ** 30);
    vi.spyOn(process, 'constrainedMemory').mockReturnValue(3 * 2 ** 30);
    expect(indexingMemoryBudget(null)).toBe(2 * 2 ** 30);
    // a "limit" above the machine's memory is none
    vi.spyOn(process, 'constrainedMemory').mockReturnValue(2 ** 62);
    expect(indexingMemoryBudget(null)).toBe(16 * 2 ** 30);
  });

  it('lets a batch take half of it in payload, at most 10 GiB, by default', () => {
    expect(defaultBatchBytes(4 * 2 ** 30)).toBe(2 * 2 ** 30);
    expect(defaultBatchBytes(64 * 2 ** 30)).toBe(10 * 2 ** 30);
  });
});
