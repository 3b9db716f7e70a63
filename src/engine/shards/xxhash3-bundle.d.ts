// hash-wasm's bundle of XXH3 alone, a file of its package without types of its own: imported
// instead of the package's main bundle (280 KB, every algorithm), which each isolate that
// loads this module (the HTTP thread, the index writer, the extraction threads) parsed whole.
declare module 'hash-wasm/dist/xxhash3.umd.min.js' {
  const bundle: Pick<typeof import('hash-wasm'), 'createXXHash3'>;
  export default bundle;
}
