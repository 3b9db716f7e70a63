/**
 * Work the first search of a process would otherwise pay inside its request: compiling and
 * instantiating the WASM kernels on this thread and the first call of the tokenizer kernel (V8
 * compiles a WASM function when it first runs). Indexing runs in workers, so the request thread
 * meets the kernels only at its first search or facet search; a few milliseconds there show in
 * its `processingTimeMs`, where v1.50 answers 0 on a small index. Called once as the HTTP app is built.
 */
import { tokenizeBatch } from '../kernels/tokenizer.js';

export function warmUpSearchThread(): void {
  tokenizeBatch(['warm up']);
}
