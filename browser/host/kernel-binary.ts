/**
 * The browser's src/kernels/kernel-binary.ts: the kernels binary is not read from build/ but
 * fetched by `openBundle` (browser/index.ts) and handed over here before the first search, so
 * src/kernels/module.ts compiles the same bytes the server runs. The browser build ships the
 * release variant only.
 */
import type { KernelVariant } from '../../src/kernels/kernel-binary.js';

export type { KernelVariant };

let binary: Uint8Array | undefined;

/** The release kernels' bytes, fetched by the page. */
export function provideKernelBinary(bytes: Uint8Array): void {
  binary = bytes;
}

export function readKernelBinary(variant: KernelVariant): Uint8Array {
  if (variant !== 'release') throw new Error(`the browser build ships the release kernels only, not ${variant}`);
  if (binary === undefined) throw new Error('the kernels binary is not loaded yet: openBundle fetches it before the first search');
  return binary;
}
