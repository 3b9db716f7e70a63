/**
 * Where a Hugging Face model's files are on this machine: the local hub cache as the hub clients
 * lay it out (`$HF_HOME/hub`, else `~/.cache/huggingface/hub`; `models--{org}--{name}/refs/{revision}`
 * holds a commit hash, `snapshots/{hash}/` the files). v1.50 (hf-hub) reads the cache first and
 * downloads what is missing; this server never downloads, so a file that is not there fails as
 * v1.50's fetch fails (``fetching file from HG_HUB failed``), at once. Models run from ONNX
 * weights (`onnx/model.onnx`, else `model.onnx`): a model cached with only Safetensors or PyTorch
 * weights is refused with what to add.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { EmbedError } from './embed-error.js';

/** The hub cache directory and the hub URL named in messages (hf-hub's `HF_HOME` and `HF_ENDPOINT`). */
export interface HubLocation {
  readonly cache: string;
  readonly endpoint: string;
}

export function hubFromEnv(env: NodeJS.ProcessEnv): HubLocation {
  const home = env.HF_HOME;
  return {
    cache: home === undefined || home === '' ? path.join(homedir(), '.cache', 'huggingface', 'hub') : path.join(home, 'hub'),
    endpoint: env.HF_ENDPOINT ?? 'https://huggingface.co',
  };
}

/** The files of one cached model revision that the embedder loads. */
export interface ModelFiles {
  readonly snapshot: string;
  readonly config: string;
  readonly tokenizer: string;
  /** the ONNX graph, relative to the snapshot: `onnx/model.onnx` or `model.onnx` */
  readonly onnx: string;
  /** `1_Pooling/config.json` (sentence-transformers), when the model has one */
  readonly pooling: string | undefined;
}

const ONNX_WEIGHTS = ['onnx/model.onnx', 'model.onnx'] as const;
const COMMIT_HASH = /^[0-9a-f]{40}$/;

const isFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** `child` when it stays inside `parent` (a revision or a ref's content never walks out of the repo). */
function inside(parent: string, child: string): string | undefined {
  const relative = path.relative(parent, child);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? undefined : child;
}

/**
 * The snapshot a revision names: the commit hash in `refs/{revision}` (what hf-hub reads), else
 * a snapshot named by the revision itself when it is a commit hash (what huggingface_hub stores
 * for a download by hash).
 */
function snapshotOf(repo: string, revision: string): string | undefined {
  const snapshots = path.join(repo, 'snapshots');
  const ref = inside(path.join(repo, 'refs'), path.join(repo, 'refs', revision));
  if (ref !== undefined && isFile(ref)) {
    const hash = readFileSync(ref, 'utf8').trim();
    return inside(snapshots, path.join(snapshots, hash));
  }
  return COMMIT_HASH.test(revision) ? path.join(snapshots, revision) : undefined;
}

/** `request error` as hf-hub reports a file it could not fetch, with why nothing was fetched. */
function notCached(hub: HubLocation, model: string, revision: string, file: string): EmbedError {
  const url = `${hub.endpoint}/${model}/resolve/${revision.replaceAll('/', '%2F')}/${file}`;
  return new EmbedError(
    'undecided',
    `fetching file from HG_HUB failed:\n  - request error: ${url}: not in the local Hugging Face hub cache at \`${hub.cache}\` (set \`HF_HOME\`), and this server never downloads models`,
  );
}

function onnxMissing(snapshot: string, present: string): EmbedError {
  const kind = present === 'model.safetensors' ? 'Safetensor' : 'Pytorch';
  return new EmbedError(
    'runtime',
    `could not build weights from ${kind} weights:\n  - this server runs models from ONNX weights only: \`${present}\` is cached at \`${snapshot}\`, but neither \`onnx/model.onnx\` nor \`model.onnx\` is.\n  - Hint: export the model to ONNX (e.g. with Optimum) into the snapshot, or use a model repository that ships ONNX weights`,
  );
}

/**
 * The cached files of `model` at `revision`, in v1.50's order of fetching: `config.json`,
 * `tokenizer.json`, the weights, then the optional pooling config. Throws `EmbedError`.
 */
export function findModelFiles(hub: HubLocation, model: string, revision: string): ModelFiles {
  const repo = path.join(hub.cache, `models--${model.replaceAll('/', '--')}`);
  const snapshot = snapshotOf(repo, revision);
  const cached = (file: string): string | undefined => {
    if (snapshot === undefined) return undefined;
    const full = path.join(snapshot, file);
    return isFile(full) ? full : undefined;
  };
  const required = (file: string): string => {
    const found = cached(file);
    if (found === undefined) throw notCached(hub, model, revision, file);
    return found;
  };
  const config = required('config.json');
  const tokenizer = required('tokenizer.json');
  const onnx = ONNX_WEIGHTS.find((file) => cached(file) !== undefined);
  if (onnx === undefined) {
    const other = ['model.safetensors', 'pytorch_model.bin'].find((file) => cached(file) !== undefined);
    throw other === undefined ? notCached(hub, model, revision, ONNX_WEIGHTS[0]) : onnxMissing(snapshot!, other);
  }
  return { snapshot: snapshot!, config, tokenizer, onnx, pooling: cached('1_Pooling/config.json') };
}
