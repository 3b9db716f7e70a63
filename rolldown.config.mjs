// The server's entry as one file: `dist/src/main.js`, as tsc emits it, is replaced by a bundle of
// itself and every dist module it imports (node_modules stay external, as installed). A fresh
// process then reads and compiles one module instead of ~560 before it can answer, which was
// most of a start's time. Without this step `dist/src/main.js` still runs, only slower to start.
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
  output: { format: 'esm', file: ENTRY, inlineDynamicImports: true },
};
