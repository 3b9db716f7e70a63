// The server's entry and its threads' entries, each as one file: `dist/src/main.js` and each
// worker thread's module, as tsc emits them, are replaced by a bundle of themselves and every dist
// module they import (node_modules stay external, as installed). A fresh process then reads and
// compiles one module of ours instead of ~560 before it can answer, and a new thread one instead
// of ~250 before its first job: most of a start's time. Without this step the same files run,
// only slower to start. Nothing imports an entry, so no bundle takes in another.
//
// Each bundled module's `import.meta.url` becomes its own dist file's URL, computed from the
// bundle's at run time, so the paths it resolves (worker files, build/, dashboard/) stay the same.
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENTRIES = [
  'main.js',
  'workers/index-writer-thread.js',
  'workers/extract-ahead-thread.js',
  'workers/segmenter-thread.js',
  'embedders/hf-model-thread.js',
].map((file) => fileURLToPath(new URL(`./dist/src/${file}`, import.meta.url)));

/** `import.meta.url` in a module bundled into `entry`, replaced by that module's own file URL. */
const ownImportMetaUrl = (entry) => ({
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url') || id.includes('/node_modules/')) return null;
    const fromBundle = relative(dirname(entry), id).split('\\').join('/');
    const own = `new URL(${JSON.stringify(fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`)}, import.meta.url).href`;
    return { code: code.replaceAll('import.meta.url', own), map: null };
  },
});

export default ENTRIES.map((entry) => ({
  input: entry,
  platform: 'node',
  // anything that is not a relative or absolute path is a package, loaded from node_modules
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  plugins: [ownImportMetaUrl(entry)],
  // the code as tsc wrote it: no tree-shaking, no dead-code elimination (both drop calls they deem
  // pure whose result is unused, and some of ours are there for the error they throw, such as
  // `decodeURIComponent(run)` as a UTF-8 check)
  treeshake: false,
  output: { format: 'esm', file: entry, inlineDynamicImports: true, minify: false },
}));
