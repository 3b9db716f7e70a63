import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../../../src/types/uuid-v7.js';

describe('uuidV7', () => {
  it('gives distinct version-7 ids carrying the current millisecond, past one pool of random bytes', () => {
    const before = Date.now();
    const ids = Array.from({ length: 600 }, () => uuidV7());
    const after = Date.now();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      const millis = parseInt(id.replace(/-/g, '').slice(0, 12), 16);
      expect(millis).toBeGreaterThanOrEqual(before);
      expect(millis).toBeLessThanOrEqual(after);
    }
  });
});
