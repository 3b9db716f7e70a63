// The server's entry and the indexing threads' entries, each as one file: `dist/src/main.js` and
// `dist/src/workers/{index-writer,extract-ahead,segmenter,format}-thread.js`, as tsc emits them, are each
// replaced by a bundle of itself and every dist module it imports (node_modules stay external, as
// installed). A fresh process then reads and compiles one module of ours instead of ~560 before it
// can answer, which was most of a start's time; a thread starts its first job with one module
// instead of 20-150 (the writer thread's start took 0.33-0.40 s of CPU unbundled, 0.19-0.23 s
// bundled; a first write starts it). Each thread loads its own bundle only: a module in two bundles
// is two copies, in two threads, as it always was. Without this step the same files run, only
// slower to start.
//
// Each bundled module's `import.meta.url` becomes its own dist file's URL, computed from the
// bundle's at run time, so the paths it resolves (worker files, build/, dashboard/) stay the same.
//
// A package that Node loads as CommonJS is `require`d by the bundle rather than imported: importing
// one from ESM makes Node scan its source for export names (cjs-module-lexer) and wrap it in a
// module record, which cost a start ~0.1 s of CPU for fastify, ajv, pino and the fastify plugins,
// the lexer's own compiling included (piscina is imported through its own ES wrapper). The names
// each such module exports are read here, at build time, from the module itself, and a name the
// bundle imports that it lacks fails the build (rolldown's MISSING_EXPORT).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundled entries, each replacing the file tsc emitted. */
const ENTRIES = ['main.js', 'workers/index-writer-thread.js', 'workers/extract-ahead-thread.js', 'workers/segmenter-thread.js', 'workers/format-thread.js'].map((file) =>
  fileURLToPath(new URL(`./dist/src/${file}`, import.meta.url)),
);
const requireHere = createRequire(ENTRIES[0]);

/** Whether Node loads `file` as CommonJS: by its extension, else by its package's `type`. */
function commonJsFile(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs') || !file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    let text;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      continue;
    }
    return JSON.parse(text).type !== 'module';
  }
  return true;
}

const CJS_PREFIX = '\0cjs:';

/** Whether `id` names a package (or a file of one), loaded from node_modules, or a builtin. */
const packageId = (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0');

const formats = new Map();
/** Whether the package `spec` (or a file of one) is CommonJS as Node imports it: resolved from here, the repository's root. */
function commonJs(spec) {
  if (spec.startsWith('node:')) return false;
  if (!formats.has(spec)) {
    let file = null;
    try {
      file = fileURLToPath(import.meta.resolve(spec));
    } catch {
      // not installed (an optional dependency): left to Node, as before
    }
    formats.set(spec, file !== null && commonJsFile(file));
  }
  return formats.get(spec);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** CommonJS packages the bundle imports, turned into `require` calls (see the header). */
const requiredCommonJs = {
  name: 'required-commonjs',
  resolveId(source, _importer, options) {
    if (!packageId(source) || !commonJs(source)) return null;
    // a dynamic import stays one, loaded when it runs
    return options.kind === 'import-statement' ? { id: CJS_PREFIX + source } : { id: source, external: true };
  },
  load(id) {
    if (!id.startsWith(CJS_PREFIX)) return null;
    const spec = id.slice(CJS_PREFIX.length);
    const names = Object.keys(requireHere(spec)).filter((name) => name !== 'default' && IDENTIFIER.test(name));
    return [
      "import { createRequire } from 'node:module';",
      `const exported = createRequire(import.meta.url)(${JSON.stringify(spec)});`,
      'export default exported;',
      ...names.map((name) => `export const ${name} = exported.${name};`),
    ].join('\n');
  },
};

/** `import.meta.url` in a module bundled into `entry`, replaced by that module's own file URL. */
const ownImportMetaUrl = (entry) => ({
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url') || id.includes('/node_modules/') || id.startsWith(CJS_PREFIX)) return null;
    const fromBundle = relative(dirname(entry), id).split('\\').join('/');
    const own = `new URL(${JSON.stringify(fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`)}, import.meta.url).href`;
    return { code: code.replaceAll('import.meta.url', own), map: null };
  },
});

export default ENTRIES.map((entry) => ({
  input: entry,
  platform: 'node',
  // anything that is not a relative or absolute path is a package, loaded from node_modules; a
  // CommonJS one imported statically is left to requiredCommonJs, whose module requires it
  external: (id) => packageId(id) && !commonJs(id),
  plugins: [requiredCommonJs, ownImportMetaUrl(entry)],
  // the code as tsc wrote it: no tree-shaking, no dead-code elimination (both drop calls they deem
  // pure whose result is unused, and some of ours are there for the error they throw, such as
  // `decodeURIComponent(run)` as a UTF-8 check)
  treeshake: false,
  // ASCII, non-ASCII characters escaped: Node decodes a module's UTF-8 text unless it is ASCII, and
  // V8 scans a non-ASCII one as two bytes a character (the server bundle's decoding alone took
  // ~35 ms of a start's CPU, ~6 ms as ASCII); without comments, a quarter less text to scan (the
  // source maps lead to the sources, comments and all), but for the bundled packages' license notices
  output: { format: 'esm', file: entry, codeSplitting: false, minify: false, charset: 'ascii', comments: { legal: true, annotation: false, jsdoc: false } },
}));
