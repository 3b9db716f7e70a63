/**
 * Writes the precompiled body validators (src/validation/precompiled-bodies.ts) into the build:
 * importing the app imports every route module, whose `compileBody` calls declare the schemas.
 * Run by `npm run build:ts` after tsc.
 */
import { writeFileSync } from 'node:fs';
import './app.js';
import { declaredBodySchemas } from '../validation/body.js';
import { PRECOMPILED_BODIES_FILE, precompiledBodiesSource } from '../validation/precompiled-bodies.js';

/** Writes the file; answers its path. */
export function writePrecompiledBodies(): string {
  const file = new URL(`../validation/${PRECOMPILED_BODIES_FILE}`, import.meta.url);
  const { roots, shared } = declaredBodySchemas();
  writeFileSync(file, precompiledBodiesSource(roots, shared));
  return file.pathname;
}
