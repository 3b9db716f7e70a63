// Finding a model's files in the Hugging Face hub cache as the hub clients lay it out: HF_HOME
// (else ~/.cache/huggingface/hub), refs → snapshots, a commit hash without a ref, ONNX weights
// in onnx/ or at the root, the optional pooling config; what is still missing once fetching is
// done (hf-hub-download.ts) fails as v1.50 fails.
import { rmSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findModelFiles, hubFromEnv, type HubLocation } from '../../../src/embedders/hf-hub-cache.js';
import { writeTinyModel } from '../../fixtures/hf/tiny-model.js';
import { tempDir } from '../../helpers/server.js';

let root: string;
let hub: HubLocation;
beforeAll(() => {
  root = tempDir('quarry-hf-cache-');
  hub = { cache: path.join(root, 'hub'), endpoint: 'https://hub.example' };
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the hub cache location', () => {
  it('is HF_HOME/hub, else ~/.cache/huggingface/hub; the endpoint HF_ENDPOINT, else huggingface.co; the token HF_TOKEN, else the token file beside the hub; offline with HF_HUB_OFFLINE', () => {
    expect(hubFromEnv({ HF_HOME: '/models', HF_ENDPOINT: 'https://mirror/', HF_TOKEN: 'hf_x', HF_HUB_OFFLINE: '1' })).toEqual({ cache: '/models/hub', endpoint: 'https://mirror', tokenFile: '/models/token', token: 'hf_x', offline: true });
    const home = path.join(homedir(), '.cache', 'huggingface');
    expect(hubFromEnv({})).toEqual({ cache: path.join(home, 'hub'), endpoint: 'https://huggingface.co', tokenFile: path.join(home, 'token') });
  });
});

describe("a model's files", () => {
  it('are those of the snapshot its ref names', () => {
    const snapshot = writeTinyModel(hub.cache, { model: 'org/bert', pooling: 'cls' });
    expect(findModelFiles(hub, 'org/bert', 'main')).toEqual({
      snapshot,
      config: path.join(snapshot, 'config.json'),
      tokenizer: path.join(snapshot, 'tokenizer.json'),
      onnx: 'onnx/model.onnx',
      pooling: path.join(snapshot, '1_Pooling', 'config.json'),
    });
  });

  it('are found by a commit hash without a ref, with root ONNX weights and no pooling config', () => {
    const sha = 'b'.repeat(40);
    const snapshot = writeTinyModel(hub.cache, { model: 'org/root', revision: null, sha, weights: 'root-onnx' });
    expect(findModelFiles(hub, 'org/root', sha)).toMatchObject({ snapshot, onnx: 'model.onnx', pooling: undefined });
  });

  it('fail at the first file v1.50 fetches that is missing, naming its hub URL', () => {
    expect(() => findModelFiles(hub, 'org/absent', 'main')).toThrow(
      `error: fetching file from HG_HUB failed:\n  - request error: https://hub.example/org/absent/resolve/main/config.json: not in the local Hugging Face hub cache at \`${hub.cache}\` (set \`HF_HOME\`)`,
    );
    writeTinyModel(hub.cache, { model: 'org/no-tokenizer', omit: ['tokenizer.json'] });
    expect(() => findModelFiles(hub, 'org/no-tokenizer', 'main')).toThrow('https://hub.example/org/no-tokenizer/resolve/main/tokenizer.json: not in');
    writeTinyModel(hub.cache, { model: 'org/no-weights', weights: 'none' });
    expect(() => findModelFiles(hub, 'org/no-weights', 'main')).toThrow('https://hub.example/org/no-weights/resolve/main/onnx/model.onnx: not in');
    expect(() => findModelFiles(hub, 'org/bert', 'feature/x')).toThrow('https://hub.example/org/bert/resolve/feature%2Fx/config.json: not in');
  });

  it('without ONNX weights fail with what to add', () => {
    const snapshot = writeTinyModel(hub.cache, { model: 'org/safetensors', weights: 'safetensors' });
    expect(() => findModelFiles(hub, 'org/safetensors', 'main')).toThrow(
      `runtime error: could not build weights from Safetensor weights:\n  - this server runs models from ONNX weights only: \`model.safetensors\` is cached at \`${snapshot}\`, but neither \`onnx/model.onnx\` nor \`model.onnx\` is.`,
    );
  });
});
