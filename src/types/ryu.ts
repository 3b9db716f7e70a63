/**
 * Floats as Rust prints them through the `ryu` crate (serde_json's writer): the shortest digits
 * that read back as the same f64, laid out as Rust lays them out, which differs from JavaScript's
 * `String(x)` (`1.0` not `1`, `1e17` not `100000000000000000`, `1e-6` not `0.000001`).
 * Error messages that quote a float the client sent (deserr's, serde's) print it this way.
 * An f32 that serde writes as such (not widened into a JSON value first) reads as its own
 * shortest digits: `shortestF32`.
 */

/** A float as the `ryu` crate prints it (`1.0`, `0.001`, `1e21`, `1.5e-7`). */
export function ryu(value: number): string {
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0';
  const [mantissa, exp] = value.toExponential().split('e') as [string, string];
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const point = Number(exp) + 1; // decimal point position relative to the digits
  let out: string;
  if (point >= digits.length && point <= 16) out = `${digits}${'0'.repeat(point - digits.length)}.0`;
  else if (point > 0 && point <= 16) out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  else if (point > -5 && point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else out = `${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${point - 1}`;
  return negative ? `-${out}` : out;
}

/** The shortest decimal that reads back as the same f32, as serde prints an f32 (`30.000002`, `0.8`). */
export function shortestF32(value: number): number {
  for (let digits = 1; digits < 10; digits++) {
    const candidate = Number(value.toPrecision(digits));
    if (Math.fround(candidate) === value) return candidate;
  }
  return value;
}
