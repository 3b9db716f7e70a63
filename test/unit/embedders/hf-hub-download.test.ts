// Fetching what the hub cache lacks, as v1.50's hf-hub does, from a hub on loopback: the cache
// laid out as the hub clients lay it out (blobs by etag, snapshot links, the ref), each file
// fetched logged, nothing asked again once cached (absent files remembered), a killed download's
// leftovers removed, the token sent to the hub only, v1.50's errors, the ONNX-only refusal, the
// IP policy, and a hub's headers kept from naming paths out of the cache.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HubLocation } from '../../../src/embedders/hf-hub-cache.js';
import { fetchModelFiles } from '../../../src/embedders/hf-hub-download.js';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import { startMockHub, type MockHub } from '../../fixtures/hf/mock-hub.js';
import { tinyModelFiles, tinyModelSha } from '../../fixtures/hf/tiny-model.js';
import { tempDir } from '../../helpers/server.js';

let hubServer: MockHub;
let root: string;
let hub: HubLocation;
const open = { client: new OutgoingClient(IpPolicy.fromNetworks(['any'])) };

const repo = (model: string, options: Parameters<typeof tinyModelFiles>[0] = {}) => ({ sha: tinyModelSha({ model, ...options }), files: tinyModelFiles(options) });

beforeAll(async () => {
  hubServer = await startMockHub({
    'org/bert': repo('org/bert', { pooling: 'cls' }),
    'org/plain': repo('org/plain'),
    'org/root': repo('org/root', { weights: 'root-onnx' }),
    'org/safetensors': repo('org/safetensors', { weights: 'safetensors' }),
    'org/no-weights': repo('org/no-weights', { weights: 'none' }),
    'org/twice': repo('org/twice'),
  });
  root = tempDir('quarry-hf-download-');
});
afterAll(async () => {
  await hubServer.close();
  rmSync(root, { recursive: true, force: true });
});
beforeEach(() => {
  hubServer.requests.length = 0;
  hubServer.extraHeaders = {};
  hub = { cache: path.join(tempDir('quarry-hf-download-'), 'hub'), endpoint: hubServer.url };
});

const requested = () => hubServer.requests.map((r) => `${r.range ?? '-'} ${r.path}`);

describe('a model the cache lacks', () => {
  it('is fetched into the layout of the hub clients: blobs named by etag, snapshot links, the ref', async () => {
    const lines: string[] = [];
    const files = await fetchModelFiles(hub, 'org/bert', 'main', { ...open, log: (line) => lines.push(line) });
    const sha = tinyModelSha({ model: 'org/bert' });
    const repoDir = path.join(hub.cache, 'models--org--bert');
    expect(readFileSync(path.join(repoDir, 'refs', 'main'), 'utf8')).toBe(sha);
    expect(files).toEqual({
      snapshot: path.join(repoDir, 'snapshots', sha),
      config: path.join(repoDir, 'snapshots', sha, 'config.json'),
      tokenizer: path.join(repoDir, 'snapshots', sha, 'tokenizer.json'),
      onnx: 'onnx/model.onnx',
      pooling: path.join(repoDir, 'snapshots', sha, '1_Pooling', 'config.json'),
    });
    const onnx = path.join(files.snapshot, 'onnx', 'model.onnx');
    expect(lstatSync(onnx).isSymbolicLink()).toBe(true);
    // the weights' blob is named by the LFS etag (X-Linked-Etag), not the git one
    const weights = tinyModelFiles().get('onnx/model.onnx')!;
    expect(path.basename(readlinkSync(onnx))).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(onnx)).toEqual(Buffer.from(weights));
    // each file: its first byte (where it is), then the whole of it; the weights from the CDN
    expect(requested()).toEqual([
      'bytes=0-0 /org/bert/resolve/main/config.json',
      'bytes=0- /org/bert/resolve/main/config.json',
      'bytes=0-0 /org/bert/resolve/main/tokenizer.json',
      'bytes=0- /org/bert/resolve/main/tokenizer.json',
      'bytes=0-0 /org/bert/resolve/main/onnx/model.onnx',
      'bytes=0- /org/bert/resolve/main/onnx/model.onnx',
      expect.stringMatching(/^bytes=0- \/cdn\/[0-9a-f]{64}$/),
      'bytes=0-0 /org/bert/resolve/main/1_Pooling/config.json',
      'bytes=0- /org/bert/resolve/main/1_Pooling/config.json',
    ]);
    // each file fetched is logged, before and after
    expect(lines).toHaveLength(8);
    expect(lines[4]).toBe(`fetching \`onnx/model.onnx\` of \`org/bert\` from ${hubServer.url}/org/bert/resolve/main/onnx/model.onnx`);
    expect(lines[5]).toMatch(new RegExp(`^fetched \`onnx/model.onnx\` of \`org/bert\`: ${weights.length} bytes in \\d+\\.\\d s$`));
  });

  it('is read from the cache the next time without any request, a file the hub lacks remembered', async () => {
    await fetchModelFiles(hub, 'org/plain', 'main', open);
    expect(requested()).toContain('bytes=0-0 /org/plain/resolve/main/1_Pooling/config.json');
    hubServer.requests.length = 0;
    const again = await fetchModelFiles(hub, 'org/plain', 'main', open);
    expect(again.pooling).toBeUndefined();
    expect(hubServer.requests).toEqual([]);
  });

  it("removes what a download killed mid-way left of the blob it fetches, and not another's live one", async () => {
    const blobs = path.join(hub.cache, 'models--org--plain', 'blobs');
    mkdirSync(blobs, { recursive: true });
    const etag = createHash('sha256').update(tinyModelFiles().get('onnx/model.onnx')!).digest('hex');
    const [stale, live] = [path.join(blobs, `${etag}.aaaaaaaaaaaa.part`), path.join(blobs, `${etag}.bbbbbbbbbbbb.part`)];
    writeFileSync(stale, 'half');
    writeFileSync(live, 'half');
    utimesSync(stale, new Date(Date.now() - 3_600_000), new Date(Date.now() - 3_600_000));
    await fetchModelFiles(hub, 'org/plain', 'main', open);
    expect([existsSync(stale), existsSync(live)]).toEqual([false, true]);
  });

  it('takes root ONNX weights when the repository has no onnx/ folder', async () => {
    expect((await fetchModelFiles(hub, 'org/root', 'main', open)).onnx).toBe('model.onnx');
  });

  it('is fetched once when two embedders ask for it at the same time', async () => {
    await Promise.all([fetchModelFiles(hub, 'org/twice', 'main', open), fetchModelFiles(hub, 'org/twice', 'main', open)]);
    expect(requested().filter((r) => r === 'bytes=0- /org/twice/resolve/main/config.json')).toHaveLength(1);
  });

  it('is fetched at a commit hash given as the revision, under that snapshot without a ref', async () => {
    const sha = tinyModelSha({ model: 'org/plain' });
    const files = await fetchModelFiles(hub, 'org/plain', sha, open);
    expect(files.snapshot).toBe(path.join(hub.cache, 'models--org--plain', 'snapshots', sha));
    expect(requested()[0]).toBe(`bytes=0-0 /org/plain/resolve/${sha}/config.json`);
  });
});

describe('HF_HUB_OFFLINE', () => {
  it('uses a cache filled beforehand as it is, asking the hub nothing, and names itself when a file is missing', async () => {
    const filled = await fetchModelFiles(hub, 'org/bert', 'main', open);
    hubServer.requests.length = 0;
    rmSync(filled.pooling!);
    const offline = { ...hub, offline: true };
    expect((await fetchModelFiles(offline, 'org/bert', 'main', open)).pooling).toBeUndefined();
    await expect(fetchModelFiles(offline, 'org/plain', 'main', open)).rejects.toThrow(
      `request error: ${hubServer.url}/org/plain/resolve/main/config.json: not in the local Hugging Face hub cache at \`${hub.cache}\` (set \`HF_HOME\`), and \`HF_HUB_OFFLINE\` forbids fetching it`,
    );
    expect(hubServer.requests).toEqual([]);
  });
});

describe('the hub token', () => {
  it('goes to the hub from HF_TOKEN, else from the token file, and never to the CDN', async () => {
    await fetchModelFiles({ ...hub, token: 'hf_env' }, 'org/plain', 'main', open);
    const toHub = hubServer.requests.filter((r) => !r.path.startsWith('/cdn/'));
    expect(new Set(toHub.map((r) => r.authorization))).toEqual(new Set(['Bearer hf_env']));
    expect(hubServer.requests.filter((r) => r.path.startsWith('/cdn/')).map((r) => r.authorization)).toEqual([undefined]);
    const tokenFile = path.join(path.dirname(hub.cache), 'token');
    writeFileSync(tokenFile, 'hf_file\n');
    hubServer.requests.length = 0;
    await fetchModelFiles({ cache: path.join(tempDir('quarry-hf-download-'), 'hub'), endpoint: hub.endpoint, tokenFile }, 'org/plain', 'main', open);
    expect(hubServer.requests[0]!.authorization).toBe('Bearer hf_file');
  });
});

describe('a model that cannot be fetched', () => {
  it("fails with hf-hub's words for a repository the hub does not have", async () => {
    await expect(fetchModelFiles(hub, 'org/absent', 'main', open)).rejects.toThrow('error: fetching file from HG_HUB failed:\n  - request error: http status: 401');
  });

  it('fails with the status of a missing file', async () => {
    await expect(fetchModelFiles(hub, 'org/no-weights', 'main', open)).rejects.toThrow('error: fetching file from HG_HUB failed:\n  - request error: http status: 404');
  });

  it('is refused when the hub has only weights this server cannot run, saying which', async () => {
    await expect(fetchModelFiles(hub, 'org/safetensors', 'main', open)).rejects.toThrow(
      `runtime error: could not build weights from Safetensor weights:\n  - this server runs models from ONNX weights only: \`model.safetensors\` is on the hub (${hubServer.url}/org/safetensors/resolve/main/model.safetensors), but neither \`onnx/model.onnx\` nor \`model.onnx\` is.`,
    );
  });

  it('is refused by the IP policy before any connection to a non-global hub', async () => {
    const closed = { client: new OutgoingClient(IpPolicy.fromNetworks([])) };
    await expect(fetchModelFiles(hub, 'org/plain', 'main', closed)).rejects.toThrow('fetching file from HG_HUB failed:\n  - request error: bad uri: Rejected URI');
    expect(hubServer.requests).toEqual([]);
  });

  it("fails with the connection's error when nothing answers", async () => {
    await expect(fetchModelFiles({ ...hub, endpoint: 'http://127.0.0.1:1' }, 'org/plain', 'main', open)).rejects.toThrow('request error: io: Connection refused (os error 111)');
  });

  it("fails with hf-hub's I/O error when the cache cannot be written", async () => {
    const file = path.join(path.dirname(hub.cache), 'a-file');
    writeFileSync(file, '');
    await expect(fetchModelFiles({ ...hub, cache: path.join(file, 'hub') }, 'org/plain', 'main', open)).rejects.toThrow(/^error: fetching file from HG_HUB failed:\n {2}- I\/O error ENOTDIR: not a directory/);
  });

  it('refuses an etag or a commit that would name a path out of the cache', async () => {
    hubServer.extraHeaders = { 'X-Repo-Commit': '../../../escaped' };
    await expect(fetchModelFiles(hub, 'org/plain', 'main', open)).rejects.toThrow('Header commit_hash is invalid');
    hubServer.extraHeaders = { ETag: '"../../escaped"' };
    await expect(fetchModelFiles(hub, 'org/plain', 'main', open)).rejects.toThrow('Header etag is invalid');
  });
});
