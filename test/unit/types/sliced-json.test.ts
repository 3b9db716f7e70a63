// parseJsonSliced: the value JSON.parse makes of the whole text, a large object or array parsed a
// run of members at a time (the turns it gives: test/unit/settings/process.test.ts).
import { describe, expect, it } from 'vitest';
import { parseJsonSliced } from '../../../src/types/sliced-json.js';
import { TimeSlices } from '../../../src/types/time-slices.js';

const sliced = (text: string) => parseJsonSliced(text, new TimeSlices());
/** Members whose texts hold what the cut between members must skip: commas, brackets and quotes in strings, nesting. */
const tricky = (k: number) => [`k${k},"]}{[\\`, { a: [k, `x"${k}",]`, { b: null }], c: '\\"' }] as const;

describe('parseJsonSliced', () => {
  it('parses a large object as JSON.parse does: members in order, strings holding commas, brackets and quotes', async () => {
    const text = JSON.stringify(Object.fromEntries(Array.from({ length: 8_000 }, (_, k) => tricky(k))));
    expect(text.length).toBeGreaterThan(300_000);
    const value = await sliced(text);
    expect(JSON.stringify(value)).toBe(text);
    expect(Object.keys(value as object)).toEqual(Object.keys(JSON.parse(text) as object));
  });

  it('keeps the last of duplicate keys at the first one\'s place, and `__proto__` as an own member, across slices', async () => {
    const members = Array.from({ length: 15_000 }, (_, k) => `"k${k}":${k}`);
    const text = `{"dup":1,"__proto__":{"polluted":true},${members.join(',')},"dup":2}`;
    const value = (await sliced(text)) as Record<string, unknown>;
    const expected = JSON.parse(text) as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(Object.keys(expected));
    expect(value.dup).toBe(2);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(value, '__proto__')?.value).toEqual({ polluted: true });
  });

  it('parses a large array and text with whitespace between members', async () => {
    const items = Array.from({ length: 20_000 }, (_, k) => (k % 3 === 0 ? `missing${k}:asc` : k % 3 === 1 ? [k, { s: ']' }] : k));
    const text = ` [ ${items.map((item) => JSON.stringify(item)).join(' ,\n ')} ] `;
    expect(JSON.stringify(await sliced(text))).toBe(JSON.stringify(items));
  });

  it('parses short texts and scalars at once', async () => {
    for (const text of ['{}', '[]', '{"a":[1,2]}', 'null', '"x"', '12', `"${'y'.repeat(100_000)}"`]) expect(await sliced(text)).toEqual(JSON.parse(text));
  });
});
