/**
 * `POST /network/control` (network.md §6, the enterprise edition's `post_network_change`): the
 * messages remotes send one another during a topology change, and the manual status switch.
 * `exportNoIndexForRemote`: the remote has no index, so we expect nothing from it;
 * `importFinishedForRemote`: the remote imported what we sent; both update the running change
 * (tasks/process/network-change-store.ts) and wake the scheduler. `statusChangeForRemote` sets the remote's
 * availability (availability.ts), whatever the origin says.
 */
import { ApiError } from '../errors/api-error.js';
import { isJsonObject } from '../types/json-text.js';
import type { NetworkOrigin } from '../types/task.js';
import type { RemoteStatus } from './availability.js';
import { receiveImportFinished, receiveRemoteTask } from '../tasks/process/network-change-state.js';
import { updateRunningChange, type ChangeTasks } from '../tasks/process/network-change-store.js';
import { NIL_NETWORK_VERSION, PROXY_HEADERS, type ReceivedNetwork } from './proxy-headers.js';

export type ControlMessage =
  | { type: 'exportNoIndexForRemote'; remote: string }
  | { type: 'importFinishedForRemote'; remote: string; successful: boolean }
  | { type: 'statusChangeForRemote'; remote: string; status: RemoteStatus };

export interface ControlRequest {
  origin: NetworkOrigin;
  message: ControlMessage;
}

const VARIANTS = ['exportNoIndexForRemote', 'importFinishedForRemote', 'statusChangeForRemote'];

const malformed = (detail: string) => new ApiError('bad_request', `Json deserialize error: ${detail}`);

function field(object: Record<string, unknown>, name: string, type: 'string' | 'number' | 'boolean'): unknown {
  if (!Object.hasOwn(object, name)) throw malformed(`missing field \`${name}\``);
  const value = object[name];
  const ok = type === 'number' ? Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 0xffff_ffff : typeof value === type;
  if (!ok) throw malformed(`invalid type: ${JSON.stringify(value)}, expected ${type === 'number' ? 'u32' : `a ${type}`}`);
  return value;
}

/** The body as v1.50's serde reads it (camelCase, `message` tagged by `type`); 400 `bad_request` otherwise. */
export function parseControl(body: unknown): ControlRequest {
  if (!isJsonObject(body)) throw malformed('invalid type: expected struct NetworkChange');
  if (!Object.hasOwn(body, 'origin')) throw malformed('missing field `origin`');
  if (!Object.hasOwn(body, 'message')) throw malformed('missing field `message`');
  const { origin, message } = body;
  if (!isJsonObject(origin)) throw malformed('invalid type: expected struct Origin');
  const networkVersion = Object.hasOwn(origin, 'networkVersion') ? field(origin, 'networkVersion', 'string') : NIL_NETWORK_VERSION;
  const parsedOrigin: NetworkOrigin = {
    remoteName: field(origin, 'remoteName', 'string') as string,
    taskUid: field(origin, 'taskUid', 'number') as number,
    networkVersion: networkVersion as string,
  };
  if (!isJsonObject(message)) throw malformed('invalid type: expected internally tagged enum Message');
  if (!Object.hasOwn(message, 'type')) throw malformed('missing field `type`');
  const type = message.type;
  if (typeof type !== 'string' || !VARIANTS.includes(type)) {
    throw malformed(`unknown variant \`${String(type)}\`, expected one of ${VARIANTS.map((v) => `\`${v}\``).join(', ')}`);
  }
  const remote = field(message, 'remote', 'string') as string;
  switch (type) {
    case 'exportNoIndexForRemote':
      return { origin: parsedOrigin, message: { type, remote } };
    case 'importFinishedForRemote':
      return { origin: parsedOrigin, message: { type, remote, successful: field(message, 'successful', 'boolean') as boolean } };
    default: {
      const status = field(message, 'status', 'string');
      if (status !== 'available' && status !== 'unavailable') throw malformed(`unknown variant \`${String(status)}\`, expected \`available\` or \`unavailable\``);
      return { origin: parsedOrigin, message: { type: 'statusChangeForRemote', remote, status } };
    }
  }
}

export interface ControlDeps {
  queue: ChangeTasks;
  availability: { set(name: string, status: RemoteStatus): void };
  /** the scheduler: the change may be able to go on */
  wake: () => void;
}

export function applyControl(deps: ControlDeps, { origin, message }: ControlRequest): void {
  switch (message.type) {
    case 'exportNoIndexForRemote':
      updateRunningChange(deps.queue, origin, (change) => receiveRemoteTask(change, message.remote, null, null, 0, 0, 0));
      deps.wake();
      return;
    case 'importFinishedForRemote':
      if (updateRunningChange(deps.queue, origin, (change) => receiveImportFinished(change, message.remote, message.successful))) deps.wake();
      return;
    case 'statusChangeForRemote':
      deps.availability.set(message.remote, message.status);
      return;
  }
}

/** A PATCH /network with import headers: an exporter with no index to send (v1.50 accepts only `Import-Index-Count: 0`). */
export function noIndexFromRemote(deps: ControlDeps, received: Extract<ReceivedNetwork, { kind: 'import' }>): void {
  if (received.metadata.indexCount !== 0) {
    throw new ApiError('invalid_header_value', `Invalid value for header \`${PROXY_HEADERS.importIndexCount}\`: Expected 0 indexes, got \`${received.metadata.indexCount}\``);
  }
  applyControl(deps, { origin: received.origin, message: { type: 'exportNoIndexForRemote', remote: received.data.remoteName } });
}
