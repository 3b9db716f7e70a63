/**
 * `GET` / `PATCH /network` and `POST /network/control` (misc-routes.md §6), gated by the `network`
 * experimental feature. The body schema checks types field by field; the merge rules and their
 * errors live in network/network.ts, a change that sets a leader in network/topology.ts (202 and a
 * `networkTopologyChange` task; 200 and the network otherwise).
 */
import { ApiError } from '../../errors/api-error.js';
import type { NetworkPatch } from '../../network/network.js';
import { patchNetwork } from '../../network/topology.js';
import { enqueue } from '../enqueue.js';
import type { AppDeps } from '../deps.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../validation/index.js';

const nameList = { type: 'array', items: { type: 'string' } };

// Property order is the `expected one of` order of Meilisearch's unknown-field message.
const parsePatch = compileBody<NetworkPatch>(
  {
    type: 'object',
    properties: {
      remotes: {
        type: ['object', 'null'],
        additionalProperties: {
          type: ['object', 'null'],
          properties: { url: { type: ['string', 'null'] }, searchApiKey: { type: ['string', 'null'] }, writeApiKey: { type: ['string', 'null'] } },
          additionalProperties: false,
        },
      },
      shards: {
        type: ['object', 'null'],
        additionalProperties: {
          type: ['object', 'null'],
          properties: { remotes: nameList, addRemotes: nameList, removeRemotes: nameList },
          additionalProperties: false,
        },
      },
      previousShards: {},
      self: { type: ['string', 'null'] },
      leader: { type: ['string', 'null'] },
      previousRemotes: {},
    },
    additionalProperties: false,
  },
  {
    '.remotes': 'invalid_network_remotes',
    '.remotes.*.url': 'invalid_network_url',
    '.remotes.*.searchApiKey': 'invalid_network_search_api_key',
    '.remotes.*.writeApiKey': 'invalid_network_write_api_key',
    '.shards': 'invalid_network_shards',
    '.self': 'invalid_network_self',
    '.leader': 'invalid_network_leader',
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
      const answer = await patchNetwork(
        {
          network: deps.network,
          outgoing: deps.outgoing,
          pendingNetworkTask: () => deps.queue.query({ types: ['networkTopologyChange'], statuses: ['enqueued', 'processing'], reverse: true, limit: 1 }).results[0]?.uid ?? null,
          registerChange: () => enqueue(deps, { kind: { name: 'networkTopologyChange' } }),
        },
        ctx.body,
      );
      ctx.reply.code(answer.status);
      return answer.body;
    },
  }),
  defineRoute({
    route: 'POST /network/control',
    handler: (_ctx, deps) => {
      requireNetwork(deps, '/network/control');
      throw new ApiError('requires_enterprise_edition', 'Meilisearch Enterprise Edition is required to call this route');
    },
  }),
];
