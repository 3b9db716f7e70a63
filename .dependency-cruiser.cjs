/**
 * The layer rules that `npm run check:layers` checks over src/ (a step of `npm test`, so of CI)
 * and the README's Architecture table states: the entries (main.ts, library/) → instance → services,
 * and http → services → engine → kernels, store; types,
 * errors and version.ts at the bottom importing nothing from src; no cycles between files or
 * between folders.
 * Type-only imports count everywhere (a type is a dependency too) except where a rule says so.
 */
const SERVICES = 'auth|chats|config|dumps|embedders|features|indexes|logs|metrics|network|outgoing|rhai|search|search-rules|settings|snapshots|tasks|validation|webhooks|workers';

module.exports = {
  forbidden: [
    {
      name: 'no-file-cycles',
      comment: 'A cycle between files: move what both sides need into a module of its own.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-folder-cycles',
      comment: 'A cycle between folders: one of the two must not know the other.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'foundation-imports-nothing',
      comment: 'types/, errors/ and version.ts are the vocabulary every layer shares: they import nothing from src.',
      severity: 'error',
      from: { path: '^src/(types/|errors/|version[.]ts$)' },
      to: { path: '^src/', pathNot: '^src/$1' },
    },
    {
      name: 'kernels-and-store-are-leaves',
      comment: 'kernels/ (WASM) and store/ (LMDB) import only the foundation.',
      severity: 'error',
      from: { path: '^src/(kernels|store)/' },
      to: { path: '^src/', pathNot: '^src/($1/|types/|errors/|version[.]ts$)' },
    },
    {
      name: 'engine-imports-only-below',
      comment: 'The engine sees kernels, store and the foundation, never a service or http.',
      severity: 'error',
      from: { path: '^src/engine/' },
      to: { path: '^src/', pathNot: '^src/(engine|kernels|store|types|errors)/' },
    },
    {
      name: 'services-never-import-http',
      comment: 'Services are called by http, never the other way round.',
      severity: 'error',
      from: { path: `^src/(${SERVICES})/` },
      to: { path: '^src/http/' },
    },
    {
      name: 'http-calls-services',
      comment: 'Routes call services; they may name an engine or store type, never use its values.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(engine|store|kernels)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'only-entries-import-the-instance',
      comment: 'instance/ builds the instance the two entries run (main.ts over HTTP, library/ in process): no layer below imports it, and it imports neither entry nor http.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(main[.]ts$|library/|instance/)' },
      to: { path: '^src/instance/' },
    },
    {
      name: 'instance-builds-below-the-entries',
      severity: 'error',
      from: { path: '^src/instance/' },
      to: { path: '^src/(http/|library/|main[.]ts$)' },
    },
    {
      name: 'nothing-imports-the-library',
      comment: 'library/ is the package entry (package.json exports): nothing in src/ imports it.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/library/' },
      to: { path: '^src/library/' },
    },
    {
      name: 'only-main-imports-main',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/main[.]ts$' },
    },
    {
      name: 'reference-kernels-are-test-oracles',
      comment: 'kernels/reference/ holds the tests\' plain-TS oracles; production code never runs them.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/kernels/reference/' },
      to: { path: '^src/kernels/reference/' },
    },
    {
      name: 'fastify-lives-in-http',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(http/|main[.]ts$)' },
      to: { path: '(^|/)node_modules/(fastify|@fastify)/' },
    },
    {
      name: 'kernels-know-no-lmdb',
      severity: 'error',
      from: { path: '^src/kernels/' },
      to: { path: '(^|/)node_modules/lmdb/' },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|build)/' },
    // package subpaths that only a package's `exports` map names (js-tiktoken's ranks)
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
