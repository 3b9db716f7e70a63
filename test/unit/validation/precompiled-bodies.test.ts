// fresh process: usePrecompiledBodies sets where every body parser of the process looks first.
// The precompiled body validators: every route's body schema is in the file the build writes,
// each precompiled validator answers what ajv compiling the same schema at run time answers, and
// body parsers use the file's validator once the host points them at it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ajv, type SchemaObject, type ValidateFunction } from 'ajv';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from '../../../src/http/app.js';
import { compileBody } from '../../../src/validation/body.js';
import { bodySchemaKey, precompiledBodiesSource, usePrecompiledBodies } from '../../../src/validation/precompiled-bodies.js';
import { descriptionOf } from '../../../src/validation/described.js';
import { withU64Bounds } from '../../../src/validation/u64-bounds.js';

/** The route bodies' schemas, bounded as `compileBody` keeps them. */
const schemas = API_ROUTES.flatMap((spec) => {
  const description = descriptionOf(typeof spec.body === 'function' ? spec.body : undefined);
  return description?.kind === 'body' ? [{ route: spec.route, schema: withU64Bounds(description.schema) }] : [];
});

/** Loads a CommonJS source as a module, its `require` resolving from this repository. */
function loadModule(source: string): Record<string, ValidateFunction> {
  const module = { exports: {} as Record<string, ValidateFunction> };
  const require = createRequire(import.meta.url);
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}

/** Bodies around a schema: empty, an unknown field, and each declared field with a value of every JSON kind. */
function bodiesFor(schema: SchemaObject): unknown[] {
  const kinds = [null, true, 0, -1, 1.5, 2 ** 64, '', 'text', [], ['a'], [1], {}, { a: 1 }];
  const fields = Object.keys((schema.properties as object | undefined) ?? {});
  return [{}, { notAField: 1 }, [], 'text', null, ...fields.flatMap((field) => kinds.map((value) => ({ [field]: value })))];
}

describe('precompiled body validators', () => {
  const precompiled = loadModule(precompiledBodiesSource(schemas.map(({ schema }) => schema)));

  it('cover the body schema of every route', () => {
    expect(schemas.length).toBeGreaterThan(20);
    for (const { route, schema } of schemas) expect(precompiled[bodySchemaKey(schema)], route).toBeTypeOf('function');
  });

  it('answer as the same schema compiled at run time, valid or not', () => {
    const ajv = new Ajv({ strict: true, allowUnionTypes: true });
    let valid = 0;
    let invalid = 0;
    for (const { route, schema } of schemas) {
      const compiled = ajv.compile(schema);
      const validate = precompiled[bodySchemaKey(schema)]!;
      for (const body of bodiesFor(schema)) {
        const expected = compiled(body);
        expect(validate(body), `${route} ${JSON.stringify(body)}`).toBe(expected);
        if (expected) valid++;
        else invalid++;
      }
    }
    // both answers were met many times
    expect(valid).toBeGreaterThan(100);
    expect(invalid).toBeGreaterThan(100);
  });

  it('are in the build, where the server reads them', () => {
    const built = fileURLToPath(new URL('../../../dist/src/validation/precompiled-bodies.cjs', import.meta.url));
    const exported = new Set([...readFileSync(built, 'utf8').matchAll(/exports\.(b[0-9a-f]+) =/g)].map((match) => match[1]));
    for (const { route, schema } of schemas) expect(exported.has(bodySchemaKey(schema)), route).toBe(true);
  });

  it('are what body parsers validate with once usePrecompiledBodies points at their file', () => {
    const schema = { type: 'object', properties: { precompiledMarker: { type: 'integer', minimum: 0 } }, additionalProperties: false };
    const parse = compileBody<{ precompiledMarker?: number }>(schema);
    // a file whose validator for this schema counts its calls, and answers as the schema does
    const dir = mkdtempSync(path.join(tmpdir(), 'quarry-precompiled-'));
    const file = path.join(dir, 'validators.cjs');
    const key = bodySchemaKey(withU64Bounds(schema));
    writeFileSync(file, `exports.${key} = (body) => { globalThis.precompiledCalls = (globalThis.precompiledCalls ?? 0) + 1; return Object.keys(body).every((k) => k === 'precompiledMarker'); };`);
    try {
      usePrecompiledBodies(pathToFileURL(file));
      expect(parse({ precompiledMarker: 1 })).toEqual({ precompiledMarker: 1 });
      expect(() => parse({ other: 1 })).toThrow(/Unknown field `other`/);
      expect((globalThis as { precompiledCalls?: number }).precompiledCalls).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
