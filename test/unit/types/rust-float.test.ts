import { describe, expect, it } from 'vitest';
import { parseRustF64 } from '../../../src/types/rust-float.js';

describe('parseRustF64', () => {
  it('reads what str::parse::<f64> reads: signs, empty sides of the dot, exponents, inf and NaN in any case', () => {
    expect(['1', '+1.5', '-0.25', '5.', '.5', '1e3', '1E-2', '-0'].map(parseRustF64)).toEqual([1, 1.5, -0.25, 5, 0.5, 1000, 0.01, -0]);
    expect(['inf', '+Infinity', '-INF'].map(parseRustF64)).toEqual([Infinity, Infinity, -Infinity]);
    expect(parseRustF64('NaN')).toBeNaN();
    expect(parseRustF64('-nan')).toBeNaN();
  });

  it('reads a long run of digits one way: refused at its end in linear time, read whole otherwise', () => {
    // [0-9]+\.?[0-9]* split such a run every way before failing: 200,000 digits took minutes
    const digits = '1'.repeat(200_000);
    expect(parseRustF64(`${digits}x`)).toBeNull();
    expect(parseRustF64(`${digits}.5e-199999`)).toBeCloseTo(1.11111, 4);
  });

  it("refuses what JavaScript's Number takes and Rust does not", () => {
    for (const text of ['', ' 1', '1 ', '0x10', '0b1', '1_000', '.', 'e5', '1e', 'Infinityy', '1.2.3']) expect(parseRustF64(text), text).toBeNull();
  });
});
