/**
 * Fetches into the local hub cache the files of a Hugging Face model that it lacks, as v1.50's
 * hf-hub (0.5, its sync API) does when it builds the embedder: a first request for a file's first
 * byte (`Range: bytes=0-0`, only relative redirects followed) answers the commit
 * (`X-Repo-Commit`) and the blob's name (`X-Linked-Etag`, else `ETag`); the file is then read
 * whole, redirects to the hub's CDN followed, into `blobs/{etag}` through a temporary file, linked
 * from `snapshots/{commit}/{file}`, and `refs/{revision}` names the commit. The hub's token (from
 * `HF_TOKEN`, else hf-hub's `$HF_HOME/token` file) goes with the hub's own requests.
 *
 * Files are fetched in v1.50's order (`config.json`, `tokenizer.json`, the weights, the optional
 * `1_Pooling/config.json`), except the weights: this server runs ONNX graphs (`onnx/model.onnx`,
 * else `model.onnx`) where v1.50 runs `model.safetensors` or `pytorch_model.bin`; a model that
 * has only those is refused saying so. A file the hub does not have (404) is remembered as
 * Python's huggingface_hub remembers it (`.no_exist/{commit}/{file}`), so that a model without a
 * pooling config, once fetched, is used offline as the cache leaves it.
 * With `HF_HUB_OFFLINE` nothing is fetched: the cache is used as it is.
 * A temporary file a killed download left is removed by the next download of its blob.
 * Requests go through the server's outgoing client: the IP policy holds for the hub and its CDN
 * as for every other outgoing request (`--experimental-allowed-ip-networks` for a hub mirror on a
 * private network, `HF_ENDPOINT`).
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { OutgoingClient } from '../outgoing/client.js';
import { RejectedIp } from '../outgoing/ip-policy.js';
import { ProxyFailed } from '../outgoing/proxy-tunnel.js';
import { EmbedError } from './embed-error.js';
import { cachedFile, COMMIT_HASH, commitOf, findModelFiles, hubUrl, inside, isFile, ONNX_WEIGHTS, onnxMissing, OTHER_WEIGHTS, repoFolder, type HubLocation, type ModelFiles } from './hf-hub-cache.js';

/** The first request's budget: resolving, connecting and the hub's answer. */
const FIRST_BYTE_TIMEOUT_MS = 30_000;
/** How long a download may go without a byte before it fails. */
const IDLE_MS = 60_000;
/** Relative redirects the first request follows, as hf-hub's loop (bounded here). */
const MAX_HUB_REDIRECTS = 10;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** What an etag or a commit may be, to name a file of the cache. */
const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * How an embedder reaches the hub: the outgoing client and the server's log. No caller's signal:
 * a fetch is shared by every use of the embedder (hf-embedder.ts), whose own deadlines end only
 * their wait for it.
 */
export interface HubAccess {
  readonly client: OutgoingClient;
  readonly log?: (message: string) => void;
}

interface FileOnHub {
  readonly commit: string;
  readonly etag: string;
}

/** hf-hub's `fetching file from HG_HUB failed` (milli's `NewEmbedderError::api_get`). */
function fetchFailed(reason: string): EmbedError {
  return new EmbedError('undecided', `fetching file from HG_HUB failed:\n  - ${reason}`);
}

/** A request that got no answer, in ureq's words where they differ from Node's. */
function requestError(error: unknown): EmbedError {
  if (error instanceof EmbedError) return error;
  if (error instanceof RejectedIp) return fetchFailed(`request error: ${error.ureqMessage}`);
  // ureq's own words (`CONNECT proxy failed: …`, a SOCKS proxy's `io: …`)
  if (error instanceof ProxyFailed) return fetchFailed(`request error: ${error.message}`);
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fetchFailed('request error: host not found');
  if (code === 'ECONNREFUSED') return fetchFailed('request error: io: Connection refused (os error 111)');
  if (error instanceof DOMException && error.name === 'TimeoutError') return fetchFailed('request error: timeout: global');
  return fetchFailed(`request error: io: ${error instanceof Error ? error.message : String(error)}`);
}

const statusError = (status: number): EmbedError => fetchFailed(`request error: http status: ${status}`);

function bearer(hub: HubLocation): Record<string, string> {
  let token = hub.token;
  if (token === undefined && hub.tokenFile !== undefined) {
    try {
      token = readFileSync(hub.tokenFile, 'utf8').trim();
    } catch {
      token = undefined;
    }
  }
  return token === undefined || token === '' ? {} : { Authorization: `Bearer ${token}` };
}

const headerOf = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

/** The commit and blob name of the file at `url`, or null when the hub does not have it (404). */
async function fileOnHub(hub: HubLocation, url: string, access: HubAccess): Promise<FileOnHub | null> {
  let target = url;
  for (let hops = 0; ; hops++) {
    let response;
    try {
      response = await access.client.request(target, {
        headers: { ...bearer(hub), Range: 'bytes=0-0' },
        timeoutMs: FIRST_BYTE_TIMEOUT_MS,
        redirect: 'manual',
      });
    } catch (error) {
      throw requestError(error);
    }
    const location = headerOf(response.headers.location);
    // hf-hub follows a redirect within the hub (a renamed repository) and stops at the CDN's
    if (REDIRECTS.has(response.status) && location !== undefined && !/^[a-z][a-z0-9+.-]*:/i.test(location) && hops < MAX_HUB_REDIRECTS) {
      target = new URL(location, target).href;
      continue;
    }
    if (response.status === 404) return null;
    if (response.status >= 400) throw statusError(response.status);
    const etag = (headerOf(response.headers['x-linked-etag']) ?? headerOf(response.headers.etag))?.replaceAll('"', '').replace(/^W\//, '');
    if (etag === undefined) throw fetchFailed('Header etag is missing');
    const commit = headerOf(response.headers['x-repo-commit'])?.trim();
    if (commit === undefined) throw fetchFailed('Header x-repo-commit is missing');
    if (!FILE_NAME.test(etag)) throw fetchFailed('Header etag is invalid');
    if (!FILE_NAME.test(commit)) throw fetchFailed('Header commit_hash is invalid');
    return { commit, etag };
  }
}

/**
 * Removes what downloads of `blob` killed mid-way left (`{blob}.{random}.part`): a file no
 * download wrote to for twice the idle bound, which a live one would have failed by.
 */
function dropStaleParts(blob: string): void {
  const prefix = `${path.basename(blob)}.`;
  const folder = path.dirname(blob);
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix) || !name.endsWith('.part')) continue;
    const part = path.join(folder, name);
    try {
      if (Date.now() - statSync(part).mtimeMs > 2 * IDLE_MS) rmSync(part, { force: true });
    } catch {
      // gone already: another process finished or dropped it
    }
  }
}

/** Reads the file at `url` into `blob`, through a temporary file beside it; answers its bytes. */
async function readInto(hub: HubLocation, url: string, blob: string, access: HubAccess): Promise<number> {
  const part = `${blob}.${randomBytes(6).toString('hex')}.part`;
  const idle = new AbortController();
  const arm = () => setTimeout(() => idle.abort(new DOMException('no byte received', 'TimeoutError')), IDLE_MS);
  let timer = arm();
  const rearm = () => {
    clearTimeout(timer);
    timer = arm();
  };
  const { signal } = idle;
  try {
    const response = await access.client.stream(url, { headers: { ...bearer(hub), Range: 'bytes=0-' }, signal });
    // an error's body is not read: the abort below closes the connection
    if (response.status >= 400) throw statusError(response.status);
    let bytes = 0;
    await pipeline(
      async function* () {
        for await (const chunk of response.body) {
          rearm();
          bytes += chunk.length;
          yield chunk;
        }
      },
      createWriteStream(part),
      { signal },
    );
    renameSync(part, blob);
    return bytes;
  } catch (error) {
    throw requestError(error);
  } finally {
    clearTimeout(timer);
    idle.abort();
    rmSync(part, { force: true });
  }
}

/** Links `file` of the snapshot of `commit` to `blob` and points `refs/{revision}` at the commit. */
function linkSnapshot(repo: string, revision: string, commit: string, file: string, blob: string): void {
  const snapshot = path.join(repo, 'snapshots', commit);
  const pointer = inside(snapshot, path.join(snapshot, file))!;
  mkdirSync(path.dirname(pointer), { recursive: true });
  const target = path.relative(path.dirname(pointer), blob);
  for (let attempt = 0; ; attempt++) {
    rmSync(pointer, { force: true });
    try {
      symlinkSync(target, pointer);
      break;
    } catch (error) {
      // another process sharing the cache linked it between the two calls
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 2) throw error;
    }
  }
  writeRef(repo, revision, commit);
}

function writeRef(repo: string, revision: string, commit: string): void {
  const ref = inside(path.join(repo, 'refs'), path.join(repo, 'refs', revision));
  // a commit hash given as the revision is its snapshot's name already
  if (ref === undefined || revision === commit) return;
  mkdirSync(path.dirname(ref), { recursive: true });
  writeFileSync(ref, commit);
}

/** The marker of a file the hub did not have at the commit the cache's ref names (huggingface_hub's `.no_exist`). */
function absentMarker(hub: HubLocation, model: string, revision: string, file: string): string | undefined {
  const repo = repoFolder(hub, model);
  const commit = commitOf(repo, revision);
  if (commit === undefined || !COMMIT_HASH.test(commit)) return undefined;
  const folder = path.join(repo, '.no_exist', commit);
  return inside(folder, path.join(folder, file));
}

const inFlight = new Map<string, Promise<boolean>>();

/**
 * Fetches `file` of `model` at `revision` into the cache unless it is there or known absent;
 * answers whether the cache has it now. Concurrent fetches of one file share one download.
 */
function fetchFile(hub: HubLocation, model: string, revision: string, file: string, access: HubAccess): Promise<boolean> {
  if (cachedFile(hub, model, revision, file) !== undefined) return Promise.resolve(true);
  const marker = absentMarker(hub, model, revision, file);
  if (marker !== undefined && isFile(marker)) return Promise.resolve(false);
  const key = JSON.stringify([hub.cache, hub.endpoint, model, revision, file]);
  let pending = inFlight.get(key);
  if (pending === undefined) {
    pending = download(hub, model, revision, file, access).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

async function download(hub: HubLocation, model: string, revision: string, file: string, access: HubAccess): Promise<boolean> {
  const url = hubUrl(hub, model, revision, file);
  const repo = repoFolder(hub, model);
  const found = await fileOnHub(hub, url, access);
  try {
    if (found === null) {
      const marker = absentMarker(hub, model, revision, file);
      if (marker !== undefined) {
        mkdirSync(path.dirname(marker), { recursive: true });
        writeFileSync(marker, '');
      }
      return false;
    }
    const blob = path.join(repo, 'blobs', found.etag);
    mkdirSync(path.dirname(blob), { recursive: true });
    // another revision, or another file of this one, may have brought the same bytes
    if (!isFile(blob)) {
      dropStaleParts(blob);
      // a large model takes a while: say what the settings task waits for
      access.log?.(`fetching \`${file}\` of \`${model}\` from ${url}`);
      const started = Date.now();
      const bytes = await readInto(hub, url, blob, access);
      access.log?.(`fetched \`${file}\` of \`${model}\`: ${bytes} bytes in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    linkSnapshot(repo, revision, found.commit, file, blob);
    return true;
  } catch (error) {
    // the cache's own failures (a full disk, a cache not writable) as hf-hub's `I/O error`
    if (error instanceof EmbedError) throw error;
    throw fetchFailed(`I/O error ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * The files of `model` at `revision`, fetched from the hub where the cache lacks them (see
 * above). Throws `EmbedError` as v1.50 fails to fetch them, or when the model has no ONNX weights.
 */
export async function fetchModelFiles(hub: HubLocation, model: string, revision: string, access: HubAccess): Promise<ModelFiles> {
  if (hub.offline === true) return findModelFiles(hub, model, revision);
  for (const file of ['config.json', 'tokenizer.json']) {
    if (!(await fetchFile(hub, model, revision, file, access))) throw statusError(404);
  }
  let weights = false;
  for (const file of ONNX_WEIGHTS) if ((weights = await fetchFile(hub, model, revision, file, access))) break;
  if (!weights) {
    for (const file of OTHER_WEIGHTS) {
      const cached = cachedFile(hub, model, revision, file);
      if (cached !== undefined) throw onnxMissing(file, `cached at \`${path.dirname(cached)}\``);
      if ((await fileOnHub(hub, hubUrl(hub, model, revision, file), access)) !== null) throw onnxMissing(file, `on the hub (${hubUrl(hub, model, revision, file)})`);
    }
    throw statusError(404);
  }
  await fetchFile(hub, model, revision, '1_Pooling/config.json', access);
  return findModelFiles(hub, model, revision);
}
