/**
 * The browser build (`npm run build:browser`): browser/index.ts and the search side of src/ as one
 * ES module, dist/browser/quarry.js, beside the kernels binary it fetches (kernels.release.wasm,
 * the server's build/ file as it is). Vite's library build, bundled by rolldown.
 *
 * The search side runs unchanged; the few modules of it that reach for Node are replaced here by
 * their browser stand-ins (HOST_MODULES, each file saying what it leaves out), `Buffer` comes from
 * the `buffer` package (the same API over a Uint8Array) and `process.env` is empty (release
 * kernels). The build fails if any Node built-in is still imported.
 */
import { readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = (file: string): string => path.join(ROOT, file);
/** The `buffer` package (not Node's module of that name): the trailing slash resolves the package. */
const BUFFER_PACKAGE = createRequire(import.meta.url).resolve('buffer/');

/** Server module → its browser stand-in. */
const HOST_MODULES: Record<string, string> = {
  'src/kernels/kernel-binary.ts': 'browser/host/kernel-binary.ts',
  'src/kernels/dictionary-segmenters.ts': 'browser/host/dictionary-segmenters.ts',
  'src/kernels/word-lists.ts': 'browser/host/word-lists.ts',
  'src/embedders/embed.ts': 'browser/host/embed.ts',
  'src/validation/ajv-class.ts': 'browser/host/ajv-class.ts',
  'node:crypto': 'browser/host/crypto.ts',
  'node:timers': 'browser/host/timers.ts',
};
const SUBSTITUTES = new Map(Object.entries(HOST_MODULES).map(([from, to]) => [from.startsWith('node:') ? from : at(from), at(to)]));
const NODE_BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);

/** Resolves each server module of HOST_MODULES to its stand-in, and refuses any other Node built-in. */
function browserHost(): Plugin {
  return {
    name: 'quarry-browser-host',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (importer === undefined) return null;
      const direct = SUBSTITUTES.get(source);
      if (direct !== undefined) return direct;
      if (NODE_BUILTINS.has(source)) this.error(`${path.relative(ROOT, importer)} imports the Node built-in ${source}, which the browser build has not`);
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved === null ? null : (SUBSTITUTES.get(resolved.id) ?? null);
    },
    generateBundle() {
      this.emitFile({ type: 'asset', fileName: 'kernels.release.wasm', source: readFileSync(at('build/kernels.release.wasm')) });
    },
  };
}

export default defineConfig({
  root: ROOT,
  logLevel: 'warn',
  plugins: [browserHost()],
  define: { 'process.env': '{}' },
  build: {
    outDir: at('dist/browser'),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: true,
    lib: { entry: at('browser/index.ts'), formats: ['es'], fileName: () => 'quarry.js' },
    rolldownOptions: {
      transform: { inject: { Buffer: [BUFFER_PACKAGE, 'Buffer'] } },
      // vite's library build leaves whitespace in an ES bundle; the page loads it as it is
      output: { minify: true },
      // ordered-binary (the bundle reader's key codec) builds a string decoder with `eval` on purpose
      onLog(level, log, handler) {
        if (log.code === 'EVAL' && log.id?.includes('ordered-binary')) return;
        handler(level, log);
      },
    },
  },
});
