/**
 * Writes the precompiled body validators (validation/body.ts `PRECOMPILED_BODIES_FILE`) beside
 * body.js in the build: importing the app imports every route module, whose `compileBody` calls
 * declare the schemas. Run by `npm run build:ts` after tsc.
 */
import { writeFileSync } from 'node:fs';
import './app.js';
import { PRECOMPILED_BODIES_FILE, precompiledBodiesSource } from './validation/body.js';

/** Writes the file; answers its path. */
export function writePrecompiledBodies(): string {
  const file = new URL(`./validation/${PRECOMPILED_BODIES_FILE}`, import.meta.url);
  writeFileSync(file, precompiledBodiesSource());
  return file.pathname;
}
