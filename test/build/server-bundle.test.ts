// The bundles rolldown.config.mjs writes: the server's (dist/src/main.js), whose package imports
// are ES modules, the CommonJS ones required, so that Node, starting it, scans no CommonJS source
// for its export names (Node itself tells each import's format, through module hooks); and the
// indexing threads', each of which a thread loads as the one file of ours it reads; all ASCII.
import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAIN, tempDir } from '../helpers/server.js';

/** Module hooks that print, for each module the bundle imports, its format as Node loads it. */
const HOOKS = `
const bundle = ${JSON.stringify(pathToFileURL(MAIN).href)};
const imported = new Set();
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (context.parentURL === bundle && !resolved.url.startsWith('node:')) imported.add(resolved.url);
  return resolved;
}
export async function load(url, context, next) {
  const loaded = await next(url, context);
  if (imported.has(url)) process.stderr.write('imported ' + loaded.format + ' ' + url + '\\n');
  return loaded;
}
`;

/** The format and URL of each package module the bundle imports, when `node <bundle> --version` runs. */
async function bundleImports(): Promise<{ format: string; url: string }[]> {
  const dir = tempDir();
  const hooks = path.join(dir, 'hooks.mjs');
  const register = path.join(dir, 'register.mjs');
  try {
    writeFileSync(hooks, HOOKS);
    writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    const child = spawn(process.execPath, ['--import', pathToFileURL(register).href, MAIN, '--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code, stderr).toBe(0);
    return [...stderr.matchAll(/^imported (\S+) (\S+)$/gm)].map(([, format, url]) => ({ format: format!, url: url! }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the server bundle', () => {
  // A module's text has Node decode UTF-8 unless it is ASCII, and V8 then scans it as two bytes a
  // character: the server bundle's non-ASCII bytes (comments, tables, a few strings) cost its every
  // start ~30 ms of decoding. Its strings and patterns are escaped instead (rolldown's `charset`).
  it.each(['main', 'workers/index-writer-thread', 'workers/extract-ahead-thread', 'workers/segmenter-thread', 'workers/format-thread'])('%s.js is ASCII', (name) => {
    const bytes = readFileSync(path.join(path.dirname(MAIN), `${name}.js`));
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  let imported: Promise<{ format: string; url: string }[]> | undefined;
  const imports = () => (imported ??= bundleImports());

  it('imports only ES modules: the CommonJS packages it uses are required, not imported', async () => {
    // the hooks saw the bundle's imports (lmdb's ES entry among them)
    expect((await imports()).some(({ url }) => url.includes('/node_modules/lmdb/'))).toBe(true);
    expect((await imports()).filter(({ format }) => format !== 'module')).toEqual([]);
  });

  // config/load.ts requires it when there is a file to read (~12 ms of every start's CPU otherwise)
  it('imports no TOML parser', async () => {
    expect((await imports()).filter(({ url }) => url.includes('/node_modules/smol-toml/'))).toEqual([]);
  });
});

/** The specifiers of a module's static imports and re-exports. */
function importSpecifiers(source: string): string[] {
  return [...source.matchAll(/^(?:import|export)\b[^;'"()=\n]*?(?:from\s*)?["']([^"']+)["']/gm)].map(([, specifier]) => specifier!);
}

describe('the indexing threads\' bundles', () => {
  it.each(['index-writer-thread', 'extract-ahead-thread', 'segmenter-thread', 'format-thread'])('%s.js imports packages and builtins only: its thread reads one file of ours', (name) => {
    const specifiers = importSpecifiers(readFileSync(path.join(path.dirname(MAIN), 'workers', `${name}.js`), 'utf8'));
    expect(specifiers.some((specifier) => specifier.startsWith('node:'))).toBe(true);
    expect(specifiers.filter((specifier) => specifier.startsWith('.') || specifier.startsWith('/'))).toEqual([]);
  });
});
