/**
 * The natural logarithm exactly as jieba-wasm computes it. On wasm32, Rust's `f64::ln` is the libm
 * crate's `log` (FreeBSD's e_log.c, by way of musl), ported here operation for operation. V8's
 * `Math.log` differs from it in the last bit for some integers (14, 176, 185, …), and jieba's route
 * compares sums of these logarithms: with `Math.log`, near ties would break differently.
 */

const LN2_HI = 6.93147180369123816490e-1;
const LN2_LO = 1.90821492927058770002e-10;
const LG1 = 6.666666666666735130e-1;
const LG2 = 3.999999999940941908e-1;
const LG3 = 2.857142874366239149e-1;
const LG4 = 2.222219843214978396e-1;
const LG5 = 1.818357216161805012e-1;
const LG6 = 1.531383769920937332e-1;
const LG7 = 1.479819860511658591e-1;
/** 2^54, to scale a subnormal up. */
const TWO54 = 18014398509481984;

/** Big-endian view of one double: word 0 is its high half. */
const bits = new DataView(new ArrayBuffer(8));

export function jiebaLn(value: number): number {
  let x = value;
  bits.setFloat64(0, x);
  let hx = bits.getUint32(0);
  let k = 0;
  if (hx < 0x00100000 || hx >>> 31 !== 0) {
    if (x === 0) return -1 / (x * x);
    if (hx >>> 31 !== 0) return (x - x) / 0;
    k -= 54;
    x *= TWO54;
    bits.setFloat64(0, x);
    hx = bits.getUint32(0);
  } else if (hx >= 0x7ff00000) {
    return x;
  } else if (hx === 0x3ff00000 && bits.getUint32(4) === 0) {
    return 0;
  }
  // Reduce x into [sqrt(2)/2, sqrt(2)].
  hx += 0x3ff00000 - 0x3fe6a09e;
  k += (hx >>> 20) - 0x3ff;
  hx = (hx & 0x000fffff) + 0x3fe6a09e;
  bits.setUint32(0, hx);
  x = bits.getFloat64(0);
  const f = x - 1;
  const hfsq = 0.5 * f * f;
  const s = f / (2 + f);
  const z = s * s;
  const w = z * z;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  const r = t2 + t1;
  const dk = k;
  return s * (hfsq + r) + dk * LN2_LO - hfsq + f + dk * LN2_HI;
}
