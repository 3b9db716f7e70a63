/**
 * `PATCH /network` as the enterprise edition answers it (network.md §4): a merged network without
 * a leader is stored at once (200, the network); one with a leader is a topology change. Before
 * it, no `networkTopologyChange` task may be pending here, and every remote of the old and the new
 * network (this instance included, with their write keys) must show the `network` feature and no
 * pending network task; a remote being removed may be unreachable. Then the change is registered
 * as a task, the network stored, and the summarized task answered (202).
 *
 * Quarry shards only within itself: a leader is accepted when this instance is the only remote of
 * the new network (it then owns every shard, so every document stays here and nothing is sent
 * anywhere). A network where other remotes would receive forwarded writes and moved documents is
 * refused with 501 `unimplemented_network_sharding` before anything changes (issue 26).
 */
import { ApiError } from '../errors/api-error.js';
import type { OutgoingClient, OutgoingResponse } from '../outgoing/client.js';
import { isJsonObject } from '../types/json-text.js';
import type { Network, NetworkPatch, Saved } from './network.js';

export interface TopologyDeps {
  readonly network: Pick<Network, 'merge' | 'store' | 'current'>;
  readonly outgoing: Pick<OutgoingClient, 'request'>;
  /** the oldest enqueued or processing `networkTopologyChange` task here, if any */
  readonly pendingNetworkTask: () => number | null;
  /** registers the `networkTopologyChange` task and answers it summarized */
  readonly registerChange: () => Promise<object>;
}

export type PatchAnswer = { readonly status: 200 | 202; readonly body: object };

const CHECK_TIMEOUT_MS = 30_000;

function unprocessed(uid: number, remote: string | null): ApiError {
  const prefix = remote === null ? '' : `Remote \`${remote}\` encountered an error: `;
  return new ApiError(
    'unprocessed_network_task',
    `${prefix}Already has a pending network task with uid ${uid}.\n  - Note: No network task can be registered while any previous network task is not done processing.\n  - Hint: Wait for task ${uid} to complete or cancel it.`,
  );
}

/** A remote's answer to a check, as JSON; failures as v1.50's proxy errors. */
async function askRemote(deps: TopologyDeps, url: string, writeApiKey: string | null, path: string): Promise<unknown> {
  const headers: Record<string, string> = writeApiKey === null ? {} : { authorization: `Bearer ${writeApiKey}` };
  let response: OutgoingResponse;
  try {
    response = await deps.outgoing.request(new URL(path, url).toString(), { method: 'GET', headers, timeoutMs: CHECK_TIMEOUT_MS });
  } catch (err) {
    if (err instanceof Error && err.name === 'TimeoutError') throw new ApiError('remote_timeout', 'remote host did not answer before the deadline');
    throw new ApiError('remote_could_not_send_request', 'error sending request');
  }
  const text = response.body.toString('utf8');
  if (response.status === 401 || response.status === 403) {
    throw new ApiError('remote_invalid_api_key', 'could not authenticate against the remote host\n  - hint: check that the remote instance was registered with a valid API key having the `documents.add` action');
  }
  if (response.status >= 400) {
    throw new ApiError(response.status >= 500 ? 'remote_remote_error' : 'remote_bad_request', `remote host responded with code ${response.status}:\n  - response from remote: ${text}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError('remote_bad_response', `could not parse response from the remote host:\n  - response from remote: ${text}`);
  }
}

/** v1.50's two checks of one remote before a topology change. */
async function checkRemote(deps: TopologyDeps, name: string, url: string, writeApiKey: string | null): Promise<void> {
  const features = await askRemote(deps, url, writeApiKey, '/experimental-features');
  if (!isJsonObject(features) || features.network !== true) {
    throw new ApiError(
      'feature_not_enabled',
      `Remote \`${name}\` encountered an error: receiving a proxied network task requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`,
    );
  }
  const tasks = await askRemote(deps, url, writeApiKey, '/tasks?types=networkTopologyChange&statuses=enqueued,processing&limit=1');
  const first = isJsonObject(tasks) && Array.isArray(tasks.results) ? tasks.results[0] : undefined;
  if (isJsonObject(first) && typeof first.uid === 'number') throw unprocessed(first.uid, name);
}

export async function patchNetwork(deps: TopologyDeps, patch: NetworkPatch): Promise<PatchAnswer> {
  const old: Saved = deps.network.current();
  const merged = deps.network.merge(patch);
  const leader = merged.leader ?? null;
  if (leader === null) return { status: 200, body: deps.network.store(merged) };
  const others = Object.keys(merged.remotes).filter((name) => name !== merged.self);
  if (others.length > 0) {
    throw new ApiError(
      'unimplemented_network_sharding',
      `Sharding across instances is not supported by Quarry yet: with a leader, \`${merged.self}\` must be the only remote of the network, but it also names ${others.map((name) => `\`${name}\``).join(', ')}.`,
    );
  }
  const pending = deps.pendingNetworkTask();
  if (pending !== null) throw unprocessed(pending, null);
  const checked = new Map<string, { url: string; writeApiKey: string | null; leaving: boolean }>();
  for (const [name, remote] of Object.entries(old.remotes)) checked.set(name, { ...remote, leaving: true });
  for (const [name, remote] of Object.entries(merged.remotes)) checked.set(name, { ...remote, leaving: false });
  await Promise.all(
    [...checked].map(async ([name, { url, writeApiKey, leaving }]) => {
      try {
        await checkRemote(deps, name, url, writeApiKey);
      } catch (err) {
        // a remote leaving the network may be gone already
        if (leaving && err instanceof ApiError && (err.code === 'remote_could_not_send_request' || err.code === 'remote_timeout')) return;
        throw err;
      }
    }),
  );
  const task = await deps.registerChange();
  deps.network.store(merged);
  return { status: 202, body: task };
}
