// The server's entry as one file: `dist/src/main.js`, as tsc emits it, is replaced by a bundle of
// itself and every dist module it imports (node_modules stay external, as installed). A fresh
// process then reads and compiles one module of ours instead of ~560 before it can answer, which
// was most of a start's time. Without this step the same file runs, only slower to start.
// The worker threads' modules stay as tsc emits them: bundled, they started their first job
// ~0.1 s sooner, but cold loads of movies ran 3-5 % slower in 9 alternated runs.
//
// Each bundled module's `import.meta.url` becomes its own dist file's URL, computed from the
// bundle's at run time, so the paths it resolves (worker files, build/, dashboard/) stay the same.
import { dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./dist/src/main.js', import.meta.url));

/** `import.meta.url` in a bundled module, replaced by that module's own file URL. */
const ownImportMetaUrl = {
  name: 'own-import-meta-url',
  transform(code, id) {
    if (!code.includes('import.meta.url') || id.includes('/node_modules/')) return null;
    const fromBundle = relative(dirname(ENTRY), id).split('\\').join('/');
    const own = `new URL(${JSON.stringify(fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`)}, import.meta.url).href`;
    return { code: code.replaceAll('import.meta.url', own), map: null };
  },
};

export default {
  input: ENTRY,
  platform: 'node',
  // anything that is not a relative or absolute path is a package, loaded from node_modules
  external: (id) => !id.startsWith('.') && !id.startsWith('/'),
  plugins: [ownImportMetaUrl],
  // the code as tsc wrote it: no tree-shaking, no dead-code elimination (both drop calls they deem
  // pure whose result is unused, and some of ours are there for the error they throw, such as
  // `decodeURIComponent(run)` as a UTF-8 check)
  treeshake: false,
  output: { format: 'esm', file: ENTRY, codeSplitting: false, minify: false },
};
