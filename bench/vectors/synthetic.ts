/**
 * The synthetic vectors of the vector benchmarks (exact.ts, ann.ts, insert-http.ts): seeded
 * clustered data, 384-d unless asked otherwise (100 Gaussian centres, 0.6 noise), the same for
 * every run and engine, and the command-line options they read.
 */

export const DIMS = 384;
export const CLUSTERS = 100;

/** `--name value` from the command line, else `fallback`. */
export function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}

/** Seeded uniform (0, 1) and Gaussian generators (mulberry32 + Box–Muller). */
export function seeded(seed: number): { uniform: () => number; normal: () => number } {
  let state = seed >>> 0;
  const uniform = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  return { uniform, normal: () => Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform()) };
}

/** The cluster centres every data set and query set is drawn around. */
export function centres(dims = DIMS): Float32Array {
  return Float32Array.from({ length: CLUSTERS * dims }, seeded(42).normal);
}

/** `n` clustered vectors, row-major in one Float32Array. */
export function clustered(n: number, seed: number, around: Float32Array, dims = DIMS): Float32Array {
  const { uniform, normal } = seeded(seed);
  const out = new Float32Array(n * dims);
  for (let row = 0; row < n; row++) {
    const c = Math.floor(uniform() * CLUSTERS);
    for (let i = 0; i < dims; i++) out[row * dims + i] = around[c * dims + i]! + 0.6 * normal();
  }
  return out;
}

/** The rows of a row-major block, each a copy (native bindings may ignore a view's byteOffset). */
export function rows(block: Float32Array, dims = DIMS): Float32Array[] {
  return Array.from({ length: block.length / dims }, (_, row) => block.slice(row * dims, (row + 1) * dims));
}
