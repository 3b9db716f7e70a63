/**
 * The body validators the build precompiles (Node only; body.ts itself also runs in the browser
 * build). `npm run build:ts` writes, beside this module in dist/, one CommonJS file of ajv's
 * standalone code: under each body schema's key, the "valid or not" validator body.ts's
 * `firstError` instance would compile from it (same options). The server looks its bodies' up
 * there first, so no start and no first request compiles one (compiling the search body's alone
 * took ~0.1 s of CPU); a schema the file lacks, or running without the file (from the sources),
 * is compiled at its first use as before. Neither ajv nor its standalone module is loaded by a
 * server that only looks validators up (ajv-class.ts).
 */
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { AnySchemaObject, SchemaObject, ValidateFunction } from 'ajv';
import { ajvClass } from './ajv-class.js';
import { FIRST_ERROR_OPTIONS, usePrecompiledValidators } from './body.js';

export const PRECOMPILED_BODIES_FILE = 'precompiled-bodies.cjs';

/** A (bounded) schema's key in the file: the same schema text, the same key. */
export function bodySchemaKey(schema: SchemaObject): string {
  return `b${createHash('sha256').update(JSON.stringify(schema)).digest('hex').slice(0, 32)}`;
}

/**
 * The file's source: one CommonJS module exporting each of `roots`' validators under its key.
 * A schema that ajv's strict mode refuses fails here, at build time.
 */
export function precompiledBodiesSource(roots: Iterable<SchemaObject>, shared: Iterable<AnySchemaObject> = []): string {
  const Ajv = ajvClass();
  const standalone = createRequire(import.meta.url)('ajv/dist/standalone/index.js') as typeof import('ajv/dist/standalone/index.js');
  const ajv = new Ajv({ ...FIRST_ERROR_OPTIONS, code: { source: true } });
  for (const fragment of shared) ajv.addSchema(fragment);
  const exports: Record<string, string> = {};
  for (const schema of roots) {
    const key = bodySchemaKey(schema);
    if (key in exports) continue;
    ajv.addSchema(schema, key);
    exports[key] = key;
  }
  return standalone.default(ajv, exports);
}

/** Makes body.ts look its validators up in `file` (the build's, beside this module), read at the first body parse. */
export function usePrecompiledBodies(file: URL = new URL(`./${PRECOMPILED_BODIES_FILE}`, import.meta.url)): void {
  let validators: Readonly<Record<string, ValidateFunction>> | undefined;
  usePrecompiledValidators((root) => {
    if (validators === undefined) {
      try {
        validators = createRequire(import.meta.url)(fileURLToPath(file)) as Record<string, ValidateFunction>;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw err;
        validators = {};
      }
    }
    return validators[bodySchemaKey(root)];
  });
}
