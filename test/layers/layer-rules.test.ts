// The layer rules of .dependency-cruiser.cjs (checked over src/ by `npm run check:layers`, the
// step of `npm test` before vitest) catch what they promise: each case writes a small tree with
// one wrong import into a temporary folder and cruises it with the same configuration, through
// dependency-cruiser's API (in this process: a depcruise process per case took ~2.5 s to start).
// A rule that stopped matching (a renamed folder, a typo in a path pattern) would let the wrong
// import through and fail here.
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OPTIONS = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.cjs'));
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Writes `files` (path → source) under a fresh root with a tsconfig, cruises its src/ and returns the violated rule names. */
async function violations(files: Record<string, string>): Promise<string[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-layers-'));
  dirs.push(root);
  writeFileSync(
    path.join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true }, include: ['src/**/*.ts'] }),
  );
  // The project's packages, so that imports of fastify or lmdb resolve as they do in src/.
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  const tsConfig = path.join(root, 'tsconfig.json');
  const { output } = await cruise(['src'], { ...OPTIONS, baseDir: root, tsConfig: { fileName: tsConfig } }, undefined, { tsConfig: extractTSConfig(tsConfig) });
  const report = output as ICruiseResult;
  return [...new Set(report.summary.violations.map((v) => v.rule.name))].sort();
}

const ENGINE = { 'src/engine/index-env.ts': 'export const openEnv = (): number => 1;\nexport type Env = { id: number };\n' };

describe('the layer rules', () => {
  it('accept a tree that follows them', async () => {
    expect(
      await violations({
        ...ENGINE,
        'src/types/uid.ts': 'export type Uid = string;\n',
        'src/search/search.ts': "import { openEnv } from '../engine/index-env.js';\nimport type { Uid } from '../types/uid.js';\nexport const run = (u: Uid): string => u + openEnv();\n",
        'src/http/route.ts': "import type { Env } from '../engine/index-env.js';\nimport { run } from '../search/search.js';\nexport const handle = (e: Env): string => run(String(e.id));\n",
      }),
    ).toEqual([]);
  });

  it('refuse an engine value imported by http', async () => {
    expect(
      await violations({ ...ENGINE, 'src/http/route.ts': "import { openEnv } from '../engine/index-env.js';\nexport const handle = (): number => openEnv();\n" }),
    ).toEqual(['http-calls-services']);
  });

  it('refuse the engine importing a service', async () => {
    expect(
      await violations({
        'src/settings/bytes.ts': 'export const KB = 1024;\n',
        'src/engine/vectors.ts': "import { KB } from '../settings/bytes.js';\nexport const size = KB;\n",
      }),
    ).toEqual(['engine-imports-only-below']);
  });

  it('refuse a service importing http', async () => {
    expect(
      await violations({
        'src/http/views/task-view.ts': 'export const view = (n: number): string => String(n);\n',
        'src/webhooks/deliver.ts': "import { view } from '../http/views/task-view.js';\nexport const send = (): string => view(1);\n",
      }),
    ).toEqual(['services-never-import-http']);
  });

  it('refuse types importing anything from src', async () => {
    expect(
      await violations({
        'src/errors/api-error.ts': 'export class ApiError extends Error {}\n',
        'src/types/index-uid.ts': "import { ApiError } from '../errors/api-error.js';\nexport const fail = (): Error => new ApiError();\n",
      }),
    ).toEqual(['foundation-imports-nothing']);
  });

  it('refuse a cycle between two files, type imports included', async () => {
    expect(
      await violations({
        'src/engine/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
        'src/engine/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
      }),
    ).toEqual(['no-file-cycles']);
  });

  it('refuse a cycle between two folders', async () => {
    expect(
      await violations({
        'src/tasks/queue.ts': 'export const next = (): number => 1;\n',
        'src/tasks/dump.ts': "import { load } from '../dumps/import.js';\nexport const run = (): number => load();\n",
        'src/dumps/import.ts': "import { next } from '../tasks/queue.js';\nexport const load = (): number => next();\n",
      }),
    ).toEqual(['no-folder-cycles']);
  });

  it('refuse production code running a test oracle', async () => {
    expect(
      await violations({
        'src/kernels/reference/setops.ts': 'export const lowerBound = (): number => 0;\n',
        'src/engine/docset.ts': "import { lowerBound } from '../kernels/reference/setops.js';\nexport const at = (): number => lowerBound();\n",
      }),
    ).toEqual(['reference-kernels-are-test-oracles']);
  });

  it('refuse the kernels reaching above the foundation', async () => {
    expect(
      await violations({
        ...ENGINE,
        'src/kernels/typo.ts': "import { openEnv } from '../engine/index-env.js';\nexport const scan = (): number => openEnv();\n",
      }),
    ).toEqual(['kernels-and-store-are-leaves']);
  });

  it('refuse a service importing the instance module', async () => {
    expect(
      await violations({
        'src/instance/open-instance.ts': 'export const open = (): number => 1;\n',
        'src/tasks/run.ts': "import { open } from '../instance/open-instance.js';\nexport const ready = (): number => open();\n",
      }),
    ).toEqual(['only-entries-import-the-instance']);
  });

  it('refuse the instance module importing http', async () => {
    expect(
      await violations({
        'src/http/app.ts': 'export const app = (): number => 1;\n',
        'src/instance/open-instance.ts': "import { app } from '../http/app.js';\nexport const open = (): number => app();\n",
      }),
    ).toEqual(['instance-builds-below-the-entries']);
  });

  it('refuse importing the library from src', async () => {
    expect(
      await violations({
        'src/library/quarry.ts': 'export const open = (): number => 1;\n',
        'src/http/route.ts': "import { open } from '../library/quarry.js';\nexport const handle = (): number => open();\n",
      }),
    ).toEqual(['nothing-imports-the-library']);
  });

  it('refuse importing main.ts', async () => {
    expect(
      await violations({
        'src/main.ts': 'export const started = true;\n',
        'src/tasks/run.ts': "import { started } from '../main.js';\nexport const ready = (): boolean => started;\n",
      }),
    ).toEqual(['only-main-imports-main']);
  });

  it('refuse Fastify outside http', async () => {
    expect(
      await violations({ 'src/search/route.ts': "import Fastify from 'fastify';\nexport const app = (): unknown => Fastify();\n" }),
    ).toEqual(['fastify-lives-in-http']);
  });

  it('refuse LMDB in the kernels', async () => {
    expect(
      await violations({ 'src/kernels/store.ts': "import { open } from 'lmdb';\nexport const db = (): unknown => open({ path: 'x' });\n" }),
    ).toEqual(['kernels-know-no-lmdb']);
  });

  it('refuse an import that resolves to nothing', async () => {
    expect(
      await violations({ 'src/search/single.ts': "import { gone } from './moved-away.js';\nexport const run = (): number => gone();\n" }),
    ).toEqual(['no-unresolvable']);
  });
});
