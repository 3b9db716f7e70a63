/**
 * The write path of a sharded network (network.md §5, v1.50's `proxy` and
 * `task_network_and_check_leader_and_version`), for the routes that register index, document,
 * settings, swap and dynamic-search-rule tasks.
 *
 * `admit` reads the write's proxy headers against the stored network before anything is
 * registered: a write forwarded by another instance is accepted on any node (its task records
 * `network.origin`) unless its network version is older than ours (`network_version_too_old`); a
 * client's write is refused by a node whose leader is another instance (`not_leader`), and on the
 * leader its task records `network.remote_tasks`; without a leader nothing is recorded or forwarded.
 * A write carrying import headers (a topology change's export) records `network.import_from`; the
 * admission hands the headers back so that the route registers it through the running change.
 *
 * `forward` then re-sends the write to every other remote of the network in parallel, with the
 * origin headers and the remote's write key, and records what each answered (its task uid or the
 * error) in the local task. A remote's failure never fails the write: the caller answers 202 once
 * every remote answered or gave up (remote-write.ts).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { readFile } from 'node:fs/promises';
import { ApiError } from '../errors/api-error.js';
import type { UpdateFiles } from '../store/update-files.js';
import type { TaskQueue } from '../tasks/queue.js';
import { stringifyJson } from '../types/json-text.js';
import type { RemoteTask, Task, TaskNetwork } from '../types/task.js';
import type { Network, Saved } from './network.js';
import { originHeaders, readReceivedNetwork, type ReceivedNetwork } from './proxy-headers.js';
import { summarizedTaskUid, type RemoteWriter } from './remote-write.js';

/** What a write sends on besides its method and path: nothing, JSON, or its stored documents payload. */
export type ForwardBody = { readonly kind: 'none' } | { readonly kind: 'json'; readonly value: unknown } | { readonly kind: 'payload'; readonly uuid: string };

/** A write as the leader re-sends it. */
export interface ForwardableWrite {
  readonly method: string;
  /** path and query string, as the client sent them (or the route the write is re-sent as) */
  readonly pathAndQuery: string;
  /** the client's Content-Type (a payload always goes as NDJSON) */
  readonly contentType: string | null;
  readonly body: ForwardBody;
}

/** The network's verdict on a write, before its task is registered. */
export interface Admission {
  /** what the write's proxy headers say (an import is registered through the running topology change) */
  readonly received: ReceivedNetwork | null;
  /** what the task records; undefined when no network takes part */
  readonly network: TaskNetwork | undefined;
  /** on the leader, for its own write: the network to re-send it to once registered */
  readonly forwardIn: Saved | null;
}

/** A write ready to be re-sent: its body read before its task can run (and drop its payload). */
export interface PreparedForward {
  readonly network: Saved;
  readonly write: ForwardableWrite;
  readonly body: Uint8Array | undefined;
  readonly contentType: string | null;
}

export interface ForwardingDeps {
  readonly network: Pick<Network, 'current'>;
  readonly writer: Pick<RemoteWriter, 'send'>;
  readonly queue: Pick<TaskQueue, 'setNetwork'>;
  readonly updateFiles: Pick<UpdateFiles, 'source'>;
}

const NDJSON = 'application/x-ndjson';
const JSON_TYPE = 'application/json';

export class WriteForwarding {
  constructor(private readonly deps: ForwardingDeps) {}

  /** Reads the write's proxy headers against the network; throws v1.50's refusals. */
  admit(headers: IncomingHttpHeaders): Admission {
    const saved = this.deps.network.current();
    const received = readReceivedNetwork(headers);
    let network: TaskNetwork;
    let version: string;
    if (received === null) {
      const leader = saved.leader ?? null;
      if (leader === null) return { received, network: undefined, forwardIn: null };
      if (leader !== saved.self) {
        throw new ApiError('not_leader', `This remote is not the leader of the network.\n  - Note: only the leader \`${leader}\` can receive new tasks.`);
      }
      network = { remote_tasks: {}, network_version: saved.version };
      version = saved.version;
    } else if (received.kind === 'origin') {
      network = { origin: received.origin };
      version = received.origin.networkVersion;
    } else {
      network = { import_from: received.data, network_change: received.origin };
      version = received.origin.networkVersion;
    }
    if (version < saved.version) {
      throw new ApiError('network_version_too_old', `The network version in request is too old.\n  - Received: ${version}\n  - Expected at least: ${saved.version}`);
    }
    return { received, network, forwardIn: received === null ? saved : null };
  }

  /** The write's body as it will be re-sent, read now; null when it is not re-sent. */
  async prepare(admission: Admission, write: ForwardableWrite): Promise<PreparedForward | null> {
    const network = admission.forwardIn;
    if (network === null) return null;
    switch (write.body.kind) {
      case 'none':
        return { network, write, body: undefined, contentType: write.contentType };
      case 'json':
        // v1.50 sends the client's Content-Type; a request without one (a settings reset) still carries JSON
        return { network, write, body: Buffer.from(stringifyJson(write.body.value)), contentType: write.contentType ?? JSON_TYPE };
      case 'payload': {
        const source = this.deps.updateFiles.source(write.body.uuid);
        return { network, write, body: 'bytes' in source ? source.bytes : await readFile(source.file), contentType: NDJSON };
      }
    }
  }

  /**
   * Re-sends the leader's write to every other remote in parallel and records each remote's task
   * (or error) in `task`'s network; resolves once every remote answered or gave up.
   */
  async forward(task: Task, prepared: PreparedForward): Promise<void> {
    const saved = prepared.network;
    const self = saved.self!;
    const origin = originHeaders({ remoteName: self, taskUid: task.uid, networkVersion: saved.version });
    const others = Object.entries(saved.remotes)
      .filter(([name]) => name !== self)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const answers = await Promise.all(
      others.map(async ([name, remote]): Promise<[string, RemoteTask]> => {
        const answer = await this.deps.writer.send(
          remote,
          {
            method: prepared.write.method,
            pathAndQuery: prepared.write.pathAndQuery,
            contentType: prepared.contentType,
            headers: origin,
            ...(prepared.body !== undefined ? { body: prepared.body } : {}),
          },
          summarizedTaskUid,
        );
        return [name, answer.ok ? { taskUid: answer.value, error: null } : { error: answer.error }];
      }),
    );
    this.deps.queue.setNetwork(task.uid, { remote_tasks: Object.fromEntries(answers), network_version: saved.version });
  }
}
