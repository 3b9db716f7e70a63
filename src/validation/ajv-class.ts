/**
 * The Ajv class, loaded at its first use rather than when the server starts: ajv's modules took
 * ~35 ms of a start's ~0.7 s of CPU, and a server needs them only to compile a body schema the
 * build did not precompile, to locate an invalid body's error (body.ts), or to precompile
 * (precompiled-bodies.ts). The browser build imports it as usual (browser/host/ajv-class.ts).
 */
import type { Ajv } from 'ajv';
import { createRequire } from 'node:module';

let loaded: typeof Ajv | undefined;

export function ajvClass(): typeof Ajv {
  return (loaded ??= (createRequire(import.meta.url)('ajv') as typeof import('ajv')).Ajv);
}
