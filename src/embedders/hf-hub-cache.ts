/**
 * Where a Hugging Face model's files are on this machine: the local hub cache as the hub clients
 * lay it out (`$HF_HOME/hub`, else `~/.cache/huggingface/hub`; `models--{org}--{name}/refs/{revision}`
 * holds a commit hash, `snapshots/{hash}/` the files). v1.50 (hf-hub) reads the cache first and
 * downloads what is missing (hf-hub-download.ts does that here); a file still missing fails as
 * v1.50's fetch fails (``fetching file from HG_HUB failed``). Models run from ONNX weights
 * (`onnx/model.onnx`, else `model.onnx`): a model cached with only Safetensors or PyTorch weights
 * is refused with what to add.
 */
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { EmbedError } from './embed-error.js';

/**
 * The hub cache directory, the hub URL files are fetched from (hf-hub's `HF_HOME` and
 * `HF_ENDPOINT`), where the hub's access token is (`$HF_HOME/token`, as hf-hub's cache keeps it),
 * unless `HF_TOKEN` gives it, and whether nothing may be fetched (`HF_HUB_OFFLINE`, as the
 * Python hub client reads it: a cache filled beforehand is used as it is).
 */
export interface HubLocation {
  readonly cache: string;
  readonly endpoint: string;
  readonly tokenFile?: string;
  readonly token?: string;
  readonly offline?: boolean;
}

export function hubFromEnv(env: NodeJS.ProcessEnv): HubLocation {
  const home = env.HF_HOME === undefined || env.HF_HOME === '' ? path.join(homedir(), '.cache', 'huggingface') : env.HF_HOME;
  return {
    cache: path.join(home, 'hub'),
    endpoint: (env.HF_ENDPOINT ?? 'https://huggingface.co').replace(/\/+$/, ''),
    tokenFile: path.join(home, 'token'),
    ...(env.HF_TOKEN === undefined || env.HF_TOKEN === '' ? {} : { token: env.HF_TOKEN }),
    ...(['1', 'true', 'yes', 'on'].includes((env.HF_HUB_OFFLINE ?? '').toLowerCase()) ? { offline: true } : {}),
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

/** Where the weights may be, in the order they are looked for. */
export const ONNX_WEIGHTS = ['onnx/model.onnx', 'model.onnx'] as const;
/** The weights v1.50 loads, which this server cannot run, in v1.50's order of fetching. */
export const OTHER_WEIGHTS = ['model.safetensors', 'pytorch_model.bin'] as const;
/** A commit's full hash, which names its snapshot. */
export const COMMIT_HASH = /^[0-9a-f]{40}$/;

export const isFile = (file: string): boolean => {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
};

/** `child` when it stays inside `parent` (a revision or a ref's content never walks out of the repo). */
export function inside(parent: string, child: string): string | undefined {
  const relative = path.relative(parent, child);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? undefined : child;
}

/** The folder of `model` in the hub cache. */
export function repoFolder(hub: HubLocation, model: string): string {
  return path.join(hub.cache, `models--${model.replaceAll('/', '--')}`);
}

/** `file`'s URL on the hub, as hf-hub writes it (a revision's `/` escaped). */
export function hubUrl(hub: HubLocation, model: string, revision: string, file: string): string {
  return `${hub.endpoint}/${model}/resolve/${revision.replaceAll('/', '%2F')}/${file}`;
}

/**
 * The commit a revision names in the cache: the hash in `refs/{revision}` (what hf-hub reads),
 * else the revision itself when it is a commit hash (what huggingface_hub stores for a download
 * by hash).
 */
export function commitOf(repo: string, revision: string): string | undefined {
  const ref = inside(path.join(repo, 'refs'), path.join(repo, 'refs', revision));
  if (ref !== undefined && isFile(ref)) return readFileSync(ref, 'utf8').trim();
  return COMMIT_HASH.test(revision) ? revision : undefined;
}

/** The snapshot folder of the commit a revision names (`commitOf`). */
function snapshotOf(repo: string, revision: string): string | undefined {
  const commit = commitOf(repo, revision);
  const snapshots = path.join(repo, 'snapshots');
  return commit === undefined ? undefined : inside(snapshots, path.join(snapshots, commit));
}

/** `file` of `model` at `revision` when the cache holds it (hf-hub's `Cache::get`). */
export function cachedFile(hub: HubLocation, model: string, revision: string, file: string): string | undefined {
  const snapshot = snapshotOf(repoFolder(hub, model), revision);
  if (snapshot === undefined) return undefined;
  const full = path.join(snapshot, file);
  return isFile(full) ? full : undefined;
}

/** `request error` as hf-hub reports a file missing from the cache that was not fetched. */
function notCached(hub: HubLocation, model: string, revision: string, file: string): EmbedError {
  return new EmbedError(
    'undecided',
    `fetching file from HG_HUB failed:\n  - request error: ${hubUrl(hub, model, revision, file)}: not in the local Hugging Face hub cache at \`${hub.cache}\` (set \`HF_HOME\`)${hub.offline === true ? ', and `HF_HUB_OFFLINE` forbids fetching it' : ''}`,
  );
}

/** A model whose only weights (`present`, cached or on the hub at `where`) are ones this server cannot run. */
export function onnxMissing(present: string, where: string): EmbedError {
  const kind = present === 'model.safetensors' ? 'Safetensor' : 'Pytorch';
  return new EmbedError(
    'runtime',
    `could not build weights from ${kind} weights:\n  - this server runs models from ONNX weights only: \`${present}\` is ${where}, but neither \`onnx/model.onnx\` nor \`model.onnx\` is.\n  - Hint: export the model to ONNX (e.g. with Optimum) into the snapshot, or use a model repository that ships ONNX weights`,
  );
}

/**
 * The cached files of `model` at `revision`, in v1.50's order of fetching: `config.json`,
 * `tokenizer.json`, the weights, then the optional pooling config. Throws `EmbedError`.
 */
export function findModelFiles(hub: HubLocation, model: string, revision: string): ModelFiles {
  const snapshot = snapshotOf(repoFolder(hub, model), revision);
  const cached = (file: string): string | undefined => cachedFile(hub, model, revision, file);
  const required = (file: string): string => {
    const found = cached(file);
    if (found === undefined) throw notCached(hub, model, revision, file);
    return found;
  };
  const config = required('config.json');
  const tokenizer = required('tokenizer.json');
  const onnx = ONNX_WEIGHTS.find((file) => cached(file) !== undefined);
  if (onnx === undefined) {
    const other = OTHER_WEIGHTS.find((file) => cached(file) !== undefined);
    throw other === undefined ? notCached(hub, model, revision, ONNX_WEIGHTS[0]) : onnxMissing(other, `cached at \`${snapshot!}\``);
  }
  return { snapshot: snapshot!, config, tokenizer, onnx, pooling: cached('1_Pooling/config.json') };
}
