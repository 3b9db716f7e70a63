/** Seeded clustered vectors for the vector store's tests: Gaussian clusters, as embeddings bunch up. */
import { mulberry32 } from '../../../helpers/random.js';

export function clusteredVectors(count: number, dimensions: number, seed: number, clusters = 20): Float32Array[] {
  const random = mulberry32(seed);
  const normal = () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
  const centres = Array.from({ length: clusters }, () => Float32Array.from({ length: dimensions }, normal));
  return Array.from({ length: count }, () => {
    const centre = centres[Math.floor(random() * clusters)]!;
    return centre.map((x) => x + 0.6 * normal());
  });
}
