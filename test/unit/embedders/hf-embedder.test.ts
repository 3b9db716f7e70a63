// The huggingFace embedder on a tiny model written into a temporary hub cache, or fetched from a
// hub on loopback: files found as the hub clients cache them, documents and queries embedded with
// the model's tokenizer and ONNX graph, each pooling, and v1.50's failures for a model that
// cannot be fetched or loaded.
// The models run in a worker thread started from its compiled file, so this runs dist/ (build first).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockHub, type MockHub } from '../../fixtures/hf/mock-hub.js';
import { meanOf, rowOf, TINY_DIMENSIONS, tinyModelFiles, tinyModelSha, writeTinyModel } from '../../fixtures/hf/tiny-model.js';
import { tempDir } from '../../helpers/server.js';
import { allEmbeddings, loopbackRuntime } from './mock-embedder.js';

const dist = async <T>(file: string): Promise<T> => (await import(new URL(`../../../dist/src/${file}`, import.meta.url).href)) as T;
const { embedDocuments, embedQuery, prepareEmbedder } = await dist<typeof import('../../../src/embedders/embed.js')>('embedders/embed.js');
const { setEmbedderRuntime } = await dist<typeof import('../../../src/embedders/runtime.js')>('embedders/runtime.js');
const { ApiError } = await dist<typeof import('../../../src/errors/api-error.js')>('errors/api-error.js');
type ApiError = InstanceType<typeof ApiError>;

let home: string;
let hub: string;
let hubServer: MockHub;
beforeAll(async () => {
  hubServer = await startMockHub({
    'quarry/fetched': { sha: tinyModelSha({ model: 'quarry/fetched' }), files: tinyModelFiles({ pooling: 'cls' }) },
    'quarry/slow': { sha: tinyModelSha({ model: 'quarry/slow' }), files: tinyModelFiles() },
  });
  home = tempDir('quarry-hf-');
  hub = path.join(home, 'hub');
  // another repository whose ref names tiny-bert's commit: reachable only by walking out of a repository
  writeTinyModel(hub, { model: 'quarry/elsewhere', sha: path.basename(writeTinyModel(hub)) });
  writeTinyModel(hub, { model: 'quarry/tiny-cls', pooling: 'cls' });
  writeTinyModel(hub, { model: 'quarry/tiny-root', weights: 'root-onnx', revision: 'v1' });
  writeTinyModel(hub, { model: 'quarry/tiny-short', maxPositions: 3 });
  writeTinyModel(hub, { model: 'quarry/by-hash', revision: null, sha: 'a'.repeat(40) });
  writeTinyModel(hub, { model: 'quarry/safetensors', weights: 'safetensors' });
  writeTinyModel(hub, { model: 'quarry/no-tokenizer', omit: ['tokenizer.json'] });
});
afterAll(async () => {
  await hubServer.close();
  rmSync(home, { recursive: true, force: true });
});
beforeEach(() => setEmbedderRuntime(loopbackRuntime({ huggingFaceHub: { cache: hub, endpoint: hubServer.url } })));

const tiny = { source: 'huggingFace', model: 'quarry/tiny-bert' };

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const close = (actual: Float32Array, expected: number[]) => {
  expect(actual).toHaveLength(expected.length);
  expected.forEach((v, i) => expect(actual[i]).toBeCloseTo(v, 6));
};

describe('a cached Hugging Face model', () => {
  it('is prepared with the dimensions of its embeddings', async () => {
    expect(await prepareEmbedder(tiny)).toBe(TINY_DIMENSIONS);
  });

  it('embeds documents as the mean of their tokens, special tokens included, each as if alone', async () => {
    const [long, short, single] = await allEmbeddings(embedDocuments, 'hf', tiny, ['The dogs and a Cat!', 'pizza', 'car']);
    close(long!, meanOf(['[CLS]', 'the', 'dog', '##s', '[UNK]', 'a', 'cat', '[UNK]', '[SEP]']));
    close(short!, meanOf(['[CLS]', 'pizza', '[SEP]']));
    close(single!, meanOf(['[CLS]', 'car', '[SEP]']));
  });

  it('embeds more texts than one model run takes, in order', async () => {
    const words = ['dog', 'cat', 'car', 'truck', 'pizza', 'bread', 'puppy', 'a', 'the', 'test', 'dog', 'car'];
    const texts = words.map((w, i) => `${w} ${'pizza '.repeat(i % 3)}`);
    const vectors = await allEmbeddings(embedDocuments, 'hf', tiny, texts);
    vectors.forEach((v, i) => close(v, meanOf(['[CLS]', words[i]!, ...Array<string>(i % 3).fill('pizza'), '[SEP]'])));
  });

  it('embeds a query for search', async () => {
    close(await embedQuery({ hf: tiny }, 'hf', 'truck'), meanOf(['[CLS]', 'truck', '[SEP]']));
  });

  it("keeps the model's pooling, or forces mean or CLS pooling", async () => {
    const cls = { source: 'huggingFace', model: 'quarry/tiny-cls' };
    close((await allEmbeddings(embedDocuments, 'hf', cls, ['dog']))[0]!, rowOf('[CLS]'));
    close((await allEmbeddings(embedDocuments, 'hf', { ...cls, pooling: 'useModel' }, ['dog']))[0]!, rowOf('[CLS]'));
    close((await allEmbeddings(embedDocuments, 'hf', { ...cls, pooling: 'forceMean' }, ['dog']))[0]!, meanOf(['[CLS]', 'dog', '[SEP]']));
    close((await allEmbeddings(embedDocuments, 'hf', { ...tiny, pooling: 'forceCls' }, ['dog']))[0]!, rowOf('[CLS]'));
  });

  it('cuts texts at the maximum positions of its config', async () => {
    const short = { source: 'huggingFace', model: 'quarry/tiny-short' };
    close((await allEmbeddings(embedDocuments, 'hf', short, ['dog cat car truck']))[0]!, meanOf(['[CLS]', 'dog', 'cat']));
  });

  it('is found by a named revision with root ONNX weights, or by a commit hash without a ref', async () => {
    close((await allEmbeddings(embedDocuments, 'hf', { source: 'huggingFace', model: 'quarry/tiny-root', revision: 'v1' }, ['dog']))[0]!, meanOf(['[CLS]', 'dog', '[SEP]']));
    expect(await prepareEmbedder({ source: 'huggingFace', model: 'quarry/by-hash', revision: 'a'.repeat(40) })).toBe(TINY_DIMENSIONS);
  });
});

describe('a composite of Hugging Face embedders', () => {
  it('is accepted when both sides embed alike', async () => {
    expect(await prepareEmbedder({ source: 'composite', searchEmbedder: tiny, indexingEmbedder: { ...tiny, pooling: 'forceMean' } })).toBe(TINY_DIMENSIONS);
  });

  it("is refused with v1.50's hint when their poolings differ", async () => {
    const error = await apiError(prepareEmbedder({ source: 'composite', searchEmbedder: { ...tiny, pooling: 'forceCls' }, indexingEmbedder: tiny }));
    expect(error.message).toMatch(/^Error while generating embeddings: user error: error while generating test embeddings\.\n {2}- the embeddings produced at search time and indexing time are not similar enough\./);
    expect(error.message).toMatch(/\n {2}- Note: check that both embedders produce similar embeddings\.\n {2}- Make sure the `model`, `revision` and `pooling` of both embedders match\.$/);
  });
});

describe('a Hugging Face model the cache lacks', () => {
  it('is fetched from the hub, then embeds with its own pooling', async () => {
    const model = { source: 'huggingFace', model: 'quarry/fetched' };
    expect(await prepareEmbedder(model)).toBe(TINY_DIMENSIONS);
    close((await allEmbeddings(embedDocuments, 'hf', model, ['dog']))[0]!, rowOf('[CLS]'));
    expect(hubServer.requests.map((r) => r.path)).toContain('/quarry/fetched/resolve/main/onnx/model.onnx');
  });
});

describe('a Hugging Face model fetched while a search waits', () => {
  it("ends the search's wait at its deadline but not the fetch, which the next use finds done", async () => {
    const slow = { source: 'huggingFace', model: 'quarry/slow' };
    hubServer.delayMs = 150;
    try {
      await expect(embedQuery({ hf: slow }, 'hf', 'dog', AbortSignal.timeout(100))).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      hubServer.delayMs = 0;
    }
    close(await embedQuery({ hf: slow }, 'hf', 'dog'), meanOf(['[CLS]', 'dog', '[SEP]']));
    expect(hubServer.requests.filter((r) => r.path === '/quarry/slow/resolve/main/config.json' && r.range === 'bytes=0-0')).toHaveLength(1);
  });
});

describe('a Hugging Face model that cannot be used', () => {
  it("fails with the hub's answer when the hub does not have it", async () => {
    const error = await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/absent' }));
    expect(error.code).toBe('vector_embedding_error');
    expect(error.message).toBe('Error while generating embeddings: error: fetching file from HG_HUB failed:\n  - request error: http status: 401');
    expect(hubServer.requests.map((r) => r.path)).toContain('/quarry/absent/resolve/main/config.json');
  });

  it('fails for the default model and revision when the hub does not have them', async () => {
    const error = await apiError(prepareEmbedder({ source: 'huggingFace' }));
    expect(error.message).toContain('request error: http status: 401');
    expect(hubServer.requests.map((r) => r.path)).toContain('/BAAI/bge-base-en-v1.5/resolve/617ca489d9e86b49b8167676d8220688b99db36e/config.json');
  });

  it('fails for a revision that is neither cached nor on the hub, and for one that walks out of the repository', async () => {
    expect((await apiError(prepareEmbedder({ ...tiny, revision: 'v2' }))).message).toContain('request error: http status: 401');
    expect(hubServer.requests.map((r) => r.path)).toContain('/quarry/tiny-bert/resolve/v2/config.json');
    expect((await apiError(prepareEmbedder({ ...tiny, revision: '../../models--quarry--elsewhere/refs/main' }))).message).toContain('fetching file from HG_HUB failed');
  });

  it('fails without a tokenizer, which the hub did not have when the model was fetched', async () => {
    expect((await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/no-tokenizer' }))).message).toBe(
      'Error while generating embeddings: error: fetching file from HG_HUB failed:\n  - request error: http status: 404',
    );
  });

  it('fails clearly when only Safetensors weights are cached', async () => {
    const error = await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/safetensors' }));
    expect(error.code).toBe('vector_embedding_error');
    expect(error.message).toMatch(
      /^Error while generating embeddings: runtime error: could not build weights from Safetensor weights:\n {2}- this server runs models from ONNX weights only: `model.safetensors` is cached at `.*`, but neither `onnx\/model.onnx` nor `model.onnx` is\./,
    );
  });

  it('fails documents of a model that is not cached with the indexing error', async () => {
    const error = await apiError(allEmbeddings(embedDocuments, 'hf', { source: 'huggingFace', model: 'quarry/absent' }, ['dog']));
    expect(error.message).toMatch(/^While embedding documents for embedder `hf`: error: fetching file from HG_HUB failed:/);
  });

  it('fails with unreadable config, pooling config or weights as v1.50 words them', async () => {
    const broken = (model: string, file: string, content: string) => {
      const snapshot = writeTinyModel(hub, { model });
      rmSync(path.join(snapshot, file));
      mkdirSync(path.dirname(path.join(snapshot, file)), { recursive: true });
      writeFileSync(path.join(snapshot, file), content);
      return path.join(snapshot, file);
    };
    const config = broken('quarry/bad-config', 'config.json', '{');
    expect((await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/bad-config' }))).message).toMatch(
      new RegExp(`^Error while generating embeddings: runtime error: for model 'quarry/bad-config', could not deserialize config at ${config} as JSON: `),
    );
    broken('quarry/bad-onnx', 'onnx/model.onnx', 'not a model');
    expect((await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/bad-onnx' }))).message).toMatch(/^Error while generating embeddings: runtime error: loading model failed:\n {2}- .*Protobuf parsing failed/);
    const snapshot = writeTinyModel(hub, { model: 'quarry/bad-pooling' });
    mkdirSync(path.join(snapshot, '1_Pooling'));
    writeFileSync(path.join(snapshot, '1_Pooling', 'config.json'), '[1]');
    expect((await apiError(prepareEmbedder({ source: 'huggingFace', model: 'quarry/bad-pooling' }))).message).toBe(
      `Error while generating embeddings: runtime error: for model 'quarry/bad-pooling', could not deserialize file at \`${path.join(snapshot, '1_Pooling', 'config.json')}\` as a pooling config: invalid type: expected struct PoolingConfig`,
    );
  });
});
