// The vector distance kernel: cosine, dot and squared-L2 distances over f32 vectors, and the
// normalised Hamming distance over binary-quantized ones. Called through src/kernels/vector.ts,
// whose VectorBlock keeps the vectors resident in linear memory: one call computes the distances
// from one query to a run of consecutive slots (exact search) or to a list of slot ids (the HNSW
// graph's neighbour lists), never one call per vector; one call tests whether any listed slot is
// closer than a threshold to a stored slot (the HNSW neighbour heuristic), stopping at the first.
//
// Layout (host-laid): a block is `count` vectors of `stride` bytes from `base`; f32 vectors are
// `dims` f32 (stride = dims × 4), binary ones `words` u64 (stride = words × 8). Cosine reads the
// vectors' norms, one f32 per slot from `norms`, written at insertion with vectorNorm.
//
// Distances (the values Meilisearch's store, hannoy, reports; see src/kernels/vector.ts):
// - cosine: (1 − clamp(q·v / (|q|·|v|), −1, 1)) / 2, and 0 when |q|·|v| ≤ f32 epsilon;
// - dot: 1 − q·v;  l2: Σ (q − v)²;
// - hamming: popcount(q xor v) / (words × 64) — padding bits are zero on both sides.
// Summation order: below DOT_SIMD_MIN dimensions the sums are sequential in f32, as hannoy's
// scalar path (so small vectors score bit-for-bit as Meilisearch does); from there on, v128
// accumulators of four lanes (four for dot, two for L2) over 16/8-float steps, then a scalar tail. Stores only to `out`.

/** From this many dimensions on, dot products run on v128 lanes (hannoy's scalar cut-off). */
export const DOT_SIMD_MIN: u32 = 16;

/** Metric codes of vectorDistances / vectorDistancesGather. */
export const METRIC_COSINE: u32 = 0;
export const METRIC_DOT: u32 = 1;
export const METRIC_L2: u32 = 2;

// @ts-ignore: decorator
@inline function hsum(v: v128): f32 {
  return f32x4.extract_lane(v, 0) + f32x4.extract_lane(v, 1) + (f32x4.extract_lane(v, 2) + f32x4.extract_lane(v, 3));
}

function dot(a: usize, b: usize, dims: u32): f32 {
  if (dims < DOT_SIMD_MIN) {
    let sum: f32 = 0;
    for (let i: u32 = 0; i < dims; i++) {
      const at = <usize>i << 2;
      sum += load<f32>(a + at) * load<f32>(b + at);
    }
    return sum;
  }
  let s0 = f32x4.splat(0);
  let s1 = f32x4.splat(0);
  let s2 = f32x4.splat(0);
  let s3 = f32x4.splat(0);
  const body = dims & ~15;
  let i: u32 = 0;
  for (; i < body; i += 16) {
    const at = <usize>i << 2;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(a + at), v128.load(b + at)));
    s1 = f32x4.add(s1, f32x4.mul(v128.load(a + at, 16), v128.load(b + at, 16)));
    s2 = f32x4.add(s2, f32x4.mul(v128.load(a + at, 32), v128.load(b + at, 32)));
    s3 = f32x4.add(s3, f32x4.mul(v128.load(a + at, 48), v128.load(b + at, 48)));
  }
  for (; i + 4 <= dims; i += 4) {
    const at = <usize>i << 2;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(a + at), v128.load(b + at)));
  }
  let sum = hsum(f32x4.add(f32x4.add(s0, s1), f32x4.add(s2, s3)));
  for (; i < dims; i++) {
    const at = <usize>i << 2;
    sum += load<f32>(a + at) * load<f32>(b + at);
  }
  return sum;
}

function squaredL2(a: usize, b: usize, dims: u32): f32 {
  if (dims < DOT_SIMD_MIN) {
    let sum: f32 = 0;
    for (let i: u32 = 0; i < dims; i++) {
      const at = <usize>i << 2;
      const d = load<f32>(a + at) - load<f32>(b + at);
      sum += d * d;
    }
    return sum;
  }
  let s0 = f32x4.splat(0);
  let s1 = f32x4.splat(0);
  const body = dims & ~7;
  let i: u32 = 0;
  for (; i < body; i += 8) {
    const at = <usize>i << 2;
    const d0 = f32x4.sub(v128.load(a + at), v128.load(b + at));
    const d1 = f32x4.sub(v128.load(a + at, 16), v128.load(b + at, 16));
    s0 = f32x4.add(s0, f32x4.mul(d0, d0));
    s1 = f32x4.add(s1, f32x4.mul(d1, d1));
  }
  let sum = hsum(f32x4.add(s0, s1));
  for (; i < dims; i++) {
    const at = <usize>i << 2;
    const d = load<f32>(a + at) - load<f32>(b + at);
    sum += d * d;
  }
  return sum;
}

// @ts-ignore: decorator
@inline function cosineDistance(product: f32, queryNorm: f32, norm: f32): f32 {
  const norms = queryNorm * norm;
  if (!(norms > F32.EPSILON)) return 0;
  const cos = min<f32>(max<f32>(product / norms, -1), 1);
  return (1 - cos) / 2;
}

// @ts-ignore: decorator
@inline function distance(metric: u32, query: usize, queryNorm: f32, vector: usize, norm: f32, dims: u32): f32 {
  if (metric == METRIC_COSINE) return cosineDistance(dot(query, vector, dims), queryNorm, norm);
  if (metric == METRIC_DOT) return 1 - dot(query, vector, dims);
  return squaredL2(query, vector, dims);
}

/** √(v·v), the norm cosine needs, summed in the same order as the distances. */
export function vectorNorm(vector: usize, dims: u32): f32 {
  return sqrt<f32>(dot(vector, vector, dims));
}

/** Distances from `query` to the `count` slots from `first` of the block at `base`, into `out` (f32). */
export function vectorDistances(
  metric: u32,
  query: usize,
  queryNorm: f32,
  base: usize,
  norms: usize,
  dims: u32,
  first: u32,
  count: u32,
  out: usize,
): void {
  const stride = <usize>dims << 2;
  let vector = base + <usize>first * stride;
  let norm = norms + (<usize>first << 2);
  for (let i: u32 = 0; i < count; i++) {
    store<f32>(out + (<usize>i << 2), distance(metric, query, queryNorm, vector, load<f32>(norm), dims));
    vector += stride;
    norm += 4;
  }
}

/** Distances from `query` to the slots listed in `slots` (u32), into `out` (f32) in list order. */
export function vectorDistancesGather(
  metric: u32,
  query: usize,
  queryNorm: f32,
  base: usize,
  norms: usize,
  dims: u32,
  slots: usize,
  count: u32,
  out: usize,
): void {
  const stride = <usize>dims << 2;
  for (let i: u32 = 0; i < count; i++) {
    const slot = <usize>load<u32>(slots + (<usize>i << 2));
    const d = distance(metric, query, queryNorm, base + slot * stride, load<f32>(norms + (slot << 2)), dims);
    store<f32>(out + (<usize>i << 2), d);
  }
}

function hamming(a: usize, b: usize, words: u32): u32 {
  let counts = i32x4.splat(0);
  const pairs = words >>> 1;
  for (let i: u32 = 0; i < pairs; i++) {
    const at = <usize>i << 4;
    const bytes = i8x16.popcnt(v128.xor(v128.load(a + at), v128.load(b + at)));
    counts = i32x4.add(counts, i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(bytes)));
  }
  let bits = <u32>(i32x4.extract_lane(counts, 0) + i32x4.extract_lane(counts, 1) + i32x4.extract_lane(counts, 2) + i32x4.extract_lane(counts, 3));
  if (words & 1) {
    const at = <usize>(words - 1) << 3;
    bits += <u32>popcnt<u64>(load<u64>(a + at) ^ load<u64>(b + at));
  }
  return bits;
}

/** Normalised Hamming distances from the binary `query` to `count` slots from `first`, into `out` (f32). */
export function vectorHamming(query: usize, base: usize, words: u32, first: u32, count: u32, out: usize): void {
  const stride = <usize>words << 3;
  const scale: f32 = <f32>(words << 6);
  let vector = base + <usize>first * stride;
  for (let i: u32 = 0; i < count; i++) {
    store<f32>(out + (<usize>i << 2), <f32>hamming(query, vector, words) / scale);
    vector += stride;
  }
}

/** Normalised Hamming distances from the binary `query` to the slots listed in `slots`, into `out`. */
export function vectorHammingGather(query: usize, base: usize, words: u32, slots: usize, count: u32, out: usize): void {
  const stride = <usize>words << 3;
  const scale: f32 = <f32>(words << 6);
  for (let i: u32 = 0; i < count; i++) {
    const slot = <usize>load<u32>(slots + (<usize>i << 2));
    store<f32>(out + (<usize>i << 2), <f32>hamming(query, base + slot * stride, words) / scale);
  }
}

/**
 * Whether a slot listed in `slots` lies closer than `threshold` to the vector in slot `from` of
 * the same block (f32 metrics), in list order, stopping at the first: the HNSW neighbour
 * heuristic's test of a candidate against the neighbours kept so far, which usually fails on the
 * first or second. Distances are symmetric to the bit (products and sums in the same order), so
 * this is the same test as the kept neighbour's distance to the candidate.
 */
export function vectorAnyCloser(metric: u32, base: usize, norms: usize, dims: u32, from: u32, slots: usize, count: u32, threshold: f32): bool {
  const stride = <usize>dims << 2;
  const query = base + <usize>from * stride;
  const queryNorm = load<f32>(norms + (<usize>from << 2));
  for (let i: u32 = 0; i < count; i++) {
    const slot = <usize>load<u32>(slots + (<usize>i << 2));
    if (distance(metric, query, queryNorm, base + slot * stride, load<f32>(norms + (slot << 2)), dims) < threshold) return true;
  }
  return false;
}

/** `vectorAnyCloser` for binary-quantized vectors (normalised Hamming distances). */
export function vectorHammingAnyCloser(base: usize, words: u32, from: u32, slots: usize, count: u32, threshold: f32): bool {
  const stride = <usize>words << 3;
  const scale: f32 = <f32>(words << 6);
  const query = base + <usize>from * stride;
  for (let i: u32 = 0; i < count; i++) {
    const slot = <usize>load<u32>(slots + (<usize>i << 2));
    if (<f32>hamming(query, base + slot * stride, words) / scale < threshold) return true;
  }
  return false;
}
