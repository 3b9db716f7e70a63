/**
 * The bytes of the kernels binary (build/kernels.<variant>.wasm) that module.ts compiles, kept
 * apart so that a host without a file system substitutes its own source of the same bytes (the
 * browser build fetches them: browser/host/kernel-binary.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBuildDirectory } from './build-directory.js';

export type KernelVariant = 'debug' | 'release';

/** Path of build/kernels.<variant>.wasm, found from this file in src/ or in dist/src/. */
export function kernelPath(variant: KernelVariant): string {
  const file = `kernels.${variant}.wasm`;
  const build = findBuildDirectory(file);
  if (build !== undefined) return join(build, file);
  throw new Error(`build/${file} not found above ${fileURLToPath(import.meta.url)}; run \`npm run build:wasm\``);
}

/** The variant's binary, read from build/. */
export function readKernelBinary(variant: KernelVariant): Uint8Array {
  return readFileSync(kernelPath(variant));
}
