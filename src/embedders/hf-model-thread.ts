/**
 * The thread Hugging Face models run in (started by hf-thread-client.ts). A model run computes
 * synchronously for as long as it takes (seconds for a large batch of a base-size model), so it
 * runs here, never on the main thread whose event loop serves HTTP and searches. Each model is
 * loaded once (hf-model.ts); a request is answered with the pooled embeddings of its texts (none
 * for a load alone), or with the EmbedError's fault and words.
 */
import { parentPort } from 'node:worker_threads';
import { EmbedError } from './embed-error.js';
import { loadModel } from './hf-model.js';
import { effectivePooling, pool } from './hf-pooling.js';
import type { ModelReply, ModelRequest } from './hf-thread-client.js';

async function answer(request: ModelRequest): Promise<ModelReply> {
  try {
    const model = await loadModel(request.files, request.model);
    if (request.texts.length === 0) return { id: request.id, embeddings: [] };
    const { hidden, sequence, dims, lengths } = await model.run(request.texts);
    return { id: request.id, embeddings: pool(hidden, sequence, dims, lengths, effectivePooling(model.pooling, request.pooling)) };
  } catch (error) {
    if (error instanceof EmbedError) return { id: request.id, error: { fault: error.fault, detail: error.detail } };
    return { id: request.id, error: { fault: 'runtime', detail: `could not run model:\n  - ${error instanceof Error ? error.message : String(error)}` } };
  }
}

parentPort!.on('message', (request: ModelRequest) => {
  void answer(request).then((reply) => parentPort!.postMessage(reply));
});
