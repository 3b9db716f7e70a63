/**
 * `PATCH /network` as the enterprise edition answers it (network.md §4).
 * From a client: a merged network without a leader is stored at once (200, the network); one with
 * a leader is a topology change. Before it, no `networkTopologyChange` task may be pending here,
 * and every remote of the old and the new network (this instance included, with their write
 * keys) must show the `network` feature and no pending network task; a remote being removed may
 * be unreachable. Then the change is registered as a task and the network stored; the change is
 * sent on to every other remote of the new network (the full network, the old one as
 * `previousRemotes`/`previousShards`, `self` = the recipient's name), and, when the old network had
 * a leader, to the remotes it drops (`self: null`); their task uids go into the task's
 * `remote_tasks`; the summarized task is answered (202).
 * From the leader (origin headers): the network is the body alone, the old one its `previous*`
 * fields, the version the leader's; the change is registered with the task's `origin` (202).
 */
import { ApiError } from '../errors/api-error.js';
import { isJsonObject } from '../types/json-text.js';
import { ownRecord } from '../types/own-record.js';
import { urlProblem } from '../types/url-problem.js';
import type { ChangeNetwork } from '../types/network-change.js';
import type { NetworkOrigin, RemoteTask, TaskKind, TaskNetwork } from '../types/task.js';
import { newChange } from '../tasks/process/network-change-state.js';
import { byName, type Network, type NetworkPatch, type Saved } from './network.js';
import { originHeaders } from './proxy-headers.js';
import { summarizedTaskUid, type RemoteWriter } from './remote-write.js';

export interface TopologyDeps {
  readonly network: Pick<Network, 'merge' | 'store' | 'current'>;
  /** checks the remotes and sends the change on to them */
  readonly writer: Pick<RemoteWriter, 'send'>;
  /** the newest enqueued or processing `networkTopologyChange` task here, if any (v1.50 names that one) */
  readonly pendingNetworkTask: () => number | null;
  /** registers the `networkTopologyChange` task: its uid and its summarized view */
  readonly registerChange: (kind: TaskKind, network: TaskNetwork) => Promise<{ uid: number; view: object }>;
  /** stores the remotes' task uids (or errors) in the change task's `remote_tasks` */
  readonly recordRemoteTasks: (uid: number, remoteTasks: Record<string, RemoteTask>) => void;
}

export type PatchAnswer = { readonly status: 200 | 202; readonly body: object | undefined };

function unprocessed(uid: number, remote: string | null): ApiError {
  const prefix = remote === null ? '' : `Remote \`${remote}\` encountered an error: `;
  return new ApiError(
    'unprocessed_network_task',
    `${prefix}Already has a pending network task with uid ${uid}.\n  - Note: No network task can be registered while any previous network task is not done processing.\n  - Hint: Wait for task ${uid} to complete or cancel it.`,
  );
}

/**
 * A remote's JSON answer to a check, sent as v1.50's `proxy::send_request` sends it (the writes'
 * retries, timeouts and errors: remote-write.ts); failures thrown as the error it answers.
 */
async function askRemote(deps: TopologyDeps, url: string, writeApiKey: string | null, path: string): Promise<Record<string, unknown>> {
  const answer = await deps.writer.send({ url, writeApiKey }, { method: 'GET', pathAndQuery: path }, (json) => (isJsonObject(json) ? json : undefined));
  if (!answer.ok) throw new ApiError(answer.error.code, answer.error.message);
  return answer.value;
}

/** v1.50's two checks of one remote before a topology change. */
async function checkRemote(deps: TopologyDeps, name: string, url: string, writeApiKey: string | null): Promise<void> {
  const features = await askRemote(deps, url, writeApiKey, '/experimental-features');
  if (features.network !== true) {
    throw new ApiError(
      'feature_not_enabled',
      `Remote \`${name}\` encountered an error: receiving a proxied network task requires enabling the \`network\` experimental feature. See https://github.com/orgs/meilisearch/discussions/805`,
    );
  }
  const tasks = await askRemote(deps, url, writeApiKey, '/tasks?types=networkTopologyChange&statuses=enqueued,processing&limit=1');
  const first = Array.isArray(tasks.results) ? tasks.results[0] : undefined;
  if (isJsonObject(first) && typeof first.uid === 'number') throw unprocessed(first.uid, name);
}

/** A network as the change task keeps it. */
function asChange(saved: Saved): ChangeNetwork {
  return { self: saved.self, remotes: saved.remotes, shards: saved.shards, leader: saved.leader ?? null, version: saved.version };
}

/** Remotes as a PATCH body sends them: the keys only when set. */
function remotesBody(remotes: Saved['remotes']): Record<string, object> {
  return Object.fromEntries(
    Object.entries(remotes).map(([name, r]) => [
      name,
      { url: r.url, ...(r.searchApiKey === null ? {} : { searchApiKey: r.searchApiKey }), ...(r.writeApiKey === null ? {} : { writeApiKey: r.writeApiKey }) },
    ]),
  );
}

const shardsBody = (shards: Saved['shards']) => Object.fromEntries(Object.entries(shards).map(([name, remotes]) => [name, { remotes }]));

/** `PATCH /network` to each of `remotes` with the body `bodyFor` gives it; their answers as `remote_tasks` entries. */
async function propagate(deps: TopologyDeps, remotes: Saved['remotes'], origin: NetworkOrigin, bodyFor: (name: string) => object): Promise<Record<string, RemoteTask>> {
  const answers = await Promise.all(
    Object.entries(remotes).map(async ([name, remote]): Promise<[string, RemoteTask]> => {
      const answer = await deps.writer.send(
        remote,
        { method: 'PATCH', pathAndQuery: '/network', contentType: 'application/json', headers: originHeaders(origin), body: Buffer.from(JSON.stringify(bodyFor(name))) },
        summarizedTaskUid,
      );
      return [name, answer.ok ? { taskUid: answer.value, error: null } : { error: answer.error }];
    }),
  );
  return Object.fromEntries(answers);
}

export async function patchNetwork(deps: TopologyDeps, patch: NetworkPatch): Promise<PatchAnswer> {
  const old: Saved = deps.network.current();
  const merged = deps.network.merge(patch);
  const leader = merged.leader ?? null;
  if (leader === null) return { status: 200, body: deps.network.store(merged, patch) };
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
  const { uid, view } = await deps.registerChange(
    { name: 'networkTopologyChange', change: newChange(asChange(old), asChange(merged)) },
    { remote_tasks: {}, network_version: merged.version },
  );
  deps.network.store(merged);
  const origin: NetworkOrigin = { remoteName: merged.self!, taskUid: uid, networkVersion: merged.version };
  const body = { remotes: remotesBody(merged.remotes), shards: shardsBody(merged.shards), leader, previousRemotes: remotesBody(old.remotes), previousShards: shardsBody(old.shards) };
  const others = Object.fromEntries(Object.entries(merged.remotes).filter(([name]) => name !== merged.self));
  // the remotes being dropped hear of it at the same time: the others' exports wait for them
  const dropped = (old.leader ?? null) === null ? {} : Object.fromEntries(Object.entries(old.remotes).filter(([name]) => !Object.hasOwn(merged.remotes, name)));
  const { previousRemotes: _, ...leaving } = body;
  const [kept, gone] = await Promise.all([
    propagate(deps, others, origin, (name) => ({ ...body, self: name })),
    propagate(deps, dropped, origin, () => ({ ...leaving, self: null })),
  ]);
  deps.recordRemoteTasks(uid, { ...kept, ...gone });
  return { status: 202, body: view };
}

/** `.remotes`-like field of a forwarded PATCH as stored remotes (the `null` entries skipped). */
function receivedRemotes(field: unknown): Saved['remotes'] {
  const remotes: Saved['remotes'] = ownRecord();
  if (!isJsonObject(field)) return remotes;
  // by name, as v1.50 reads them into a map, and checked alike (`try_into_db_node`)
  for (const [name, value] of Object.entries(field).sort(byName)) {
    if (!isJsonObject(value)) continue;
    if (typeof value.url !== 'string') throw new ApiError('missing_network_url', `Missing field \`.remotes.${name}.url\``);
    const problem = urlProblem(value.url);
    if (problem !== undefined) throw new ApiError('invalid_network_url', `Invalid \`.remotes.${name}.url\` (\`${value.url}\`): ${problem}`);
    const key = (k: unknown) => (typeof k === 'string' ? k : null);
    remotes[name] = { url: value.url, searchApiKey: key(value.searchApiKey), writeApiKey: key(value.writeApiKey) };
  }
  return remotes;
}

/** `.shards`-like field of a forwarded PATCH as stored shards (each starting empty). */
function receivedShards(field: unknown): Saved['shards'] {
  const shards: Saved['shards'] = ownRecord();
  if (!isJsonObject(field)) return shards;
  for (const [name, value] of Object.entries(field)) {
    if (!isJsonObject(value)) continue;
    const names = (list: unknown) => (Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : []);
    const members = new Set([...names(value.remotes), ...names(value.addRemotes)]);
    for (const removed of names(value.removeRemotes)) members.delete(removed);
    shards[name] = [...members].sort();
  }
  return shards;
}

/** The PATCH a leader forwards (origin headers): this instance's part of the leader's change. */
export async function followNetwork(deps: Pick<TopologyDeps, 'network' | 'registerChange'>, patch: NetworkPatch, origin: NetworkOrigin): Promise<PatchAnswer> {
  const stored = deps.network.current();
  // read in v1.50's order: the network, then the previous one
  const remotes = receivedRemotes(patch.remotes);
  const shards = receivedShards(patch.shards);
  const oldNetwork: Saved = { ...stored, remotes: receivedRemotes(patch.previousRemotes), shards: receivedShards(patch.previousShards) };
  const leader = patch.leader ?? null;
  if (leader === null) throw new ApiError('invalid_network_leader', 'Duplicated task without leader');
  const next: Saved = { self: patch.self ?? null, remotes, shards, leader, version: origin.networkVersion };
  const { view } = await deps.registerChange({ name: 'networkTopologyChange', change: newChange(asChange(oldNetwork), asChange(next)) }, { origin });
  deps.network.store(next);
  return { status: 202, body: view };
}
