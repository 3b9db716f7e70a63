/**
 * `GET` / `PATCH /network` and `POST /network/control` (misc-routes.md §6), gated by the `network`
 * experimental feature. The body schema checks types field by field; the merge rules and their
 * errors live in network/network.ts, a change that sets a leader in network/topology.ts (202 and a
 * `networkTopologyChange` task; 200 and the network otherwise); a PATCH with origin headers is a
 * leader's change forwarded to this instance (topology.ts `followNetwork`), one with import
 * headers too an exporter with no index (control.ts); the control messages are in control.ts.
 */
import { pendingChangeUid, recordRemoteTasks } from '../../tasks/process/network-change-store.js';
import { applyControl, noIndexFromRemote, parseControl, type ControlDeps } from '../../network/control.js';
import type { NetworkPatch } from '../../network/network.js';
import { readReceivedNetwork } from '../../network/proxy-headers.js';
import { followNetwork, patchNetwork, type PatchAnswer } from '../../network/topology.js';
import type { TaskKind, TaskNetwork } from '../../types/task.js';
import { enqueue } from '../enqueue.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../../validation/index.js';

const nameList = { type: ['array', 'null'], items: { type: 'string' } };
const remotesSchema = {
  type: ['object', 'null'],
  additionalProperties: {
    type: ['object', 'null'],
    properties: { url: { type: ['string', 'null'] }, searchApiKey: { type: ['string', 'null'] }, writeApiKey: { type: ['string', 'null'] } },
    additionalProperties: false,
  },
};
const shardsSchema = {
  type: ['object', 'null'],
  additionalProperties: {
    type: ['object', 'null'],
    properties: { remotes: nameList, addRemotes: nameList, removeRemotes: nameList },
    additionalProperties: false,
  },
};
// the codes of a remote's and a shard's fields, under `remotes`/`previousRemotes` and `shards`/`previousShards`
const remotesCodes = (field: string) => ({
  [`.${field}`]: 'invalid_network_remotes',
  [`.${field}.*.url`]: 'invalid_network_url',
  [`.${field}.*.searchApiKey`]: 'invalid_network_search_api_key',
  [`.${field}.*.writeApiKey`]: 'invalid_network_write_api_key',
});
const shardsCodes = (field: string) => ({
  [`.${field}`]: 'invalid_network_shards',
  // a shard's lists carry their own code, as v1.50's `Shard` fields do
  [`.${field}.*.remotes`]: 'invalid_network_remotes',
  [`.${field}.*.addRemotes`]: 'invalid_network_remotes',
  [`.${field}.*.removeRemotes`]: 'invalid_network_remotes',
});

// Property order is the `expected one of` order of Meilisearch's unknown-field message. The
// `previous*` fields, for instances only, have the types of the others (v1.50 parses them alike).
const parsePatch = compileBody<NetworkPatch>(
  {
    type: 'object',
    properties: {
      remotes: remotesSchema,
      shards: shardsSchema,
      previousShards: shardsSchema,
      self: { type: ['string', 'null'] },
      leader: { type: ['string', 'null'] },
      previousRemotes: remotesSchema,
    },
    additionalProperties: false,
  },
  {
    ...remotesCodes('remotes'),
    ...shardsCodes('shards'),
    ...shardsCodes('previousShards'),
    '.self': 'invalid_network_self',
    '.leader': 'invalid_network_leader',
    ...remotesCodes('previousRemotes'),
  },
);

const DISCUSSION = 'https://github.com/orgs/meilisearch/discussions/805';
const requireNetwork = (deps: AppDeps, route: string) => deps.features.require('network', `Using the ${route} route`, 'network', DISCUSSION);

export const networkRoutes = [
  defineRoute({
    route: 'GET /network',
    handler: (_ctx, deps) => {
      requireNetwork(deps, '/network');
      return deps.network.get();
    },
  }),
  defineRoute({
    route: 'PATCH /network',
    body: parsePatch,
    handler: async (ctx, deps) => {
      requireNetwork(deps, '/network');
      const registerChange = async (kind: TaskKind, network: TaskNetwork) => {
        const view = await enqueue(deps, { kind, network });
        return { uid: view.taskUid, view };
      };
      const received = readReceivedNetwork(ctx.headers);
      let answer: PatchAnswer;
      if (received === null) {
        answer = await patchNetwork(
          {
            network: deps.network,
            writer: deps.remoteWriter,
            pendingNetworkTask: () => pendingChangeUid(deps.queue),
            registerChange,
            recordRemoteTasks: (uid, remoteTasks) => recordRemoteTasks(deps.queue, uid, remoteTasks),
          },
          ctx.body,
        );
      } else if (received.kind === 'origin') {
        answer = await followNetwork({ network: deps.network, registerChange }, ctx.body, received.origin);
      } else {
        noIndexFromRemote(controlDeps(deps), received);
        answer = { status: 200, body: undefined };
      }
      ctx.reply.code(answer.status);
      return answer.body;
    },
  }),
  defineRoute({
    route: 'POST /network/control',
    body: parseControl,
    handler: (ctx, deps) => {
      requireNetwork(deps, '/network/control');
      applyControl(controlDeps(deps), ctx.body);
      return undefined;
    },
  }),
];

function controlDeps(deps: AppDeps): ControlDeps {
  return { queue: deps.queue, availability: deps.network.availability, wake: () => deps.scheduler.wake() };
}
