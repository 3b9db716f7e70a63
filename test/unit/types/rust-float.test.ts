import { describe, expect, it } from 'vitest';
import { parseRustF64 } from '../../../src/types/rust-float.js';

describe('parseRustF64', () => {
  it('reads what str::parse::<f64> reads: signs, empty sides of the dot, exponents, inf and NaN in any case', () => {
    expect(['1', '+1.5', '-0.25', '5.', '.5', '1e3', '1E-2', '-0'].map(parseRustF64)).toEqual([1, 1.5, -0.25, 5, 0.5, 1000, 0.01, -0]);
    expect(['inf', '+Infinity', '-INF'].map(parseRustF64)).toEqual([Infinity, Infinity, -Infinity]);
    expect(parseRustF64('NaN')).toBeNaN();
    expect(parseRustF64('-nan')).toBeNaN();
  });

  it("refuses what JavaScript's Number takes and Rust does not", () => {
    for (const text of ['', ' 1', '1 ', '0x10', '0b1', '1_000', '.', 'e5', '1e', 'Infinityy', '1.2.3']) expect(parseRustF64(text), text).toBeNull();
  });
});
