/**
 * `POST /swap-indexes` (indexes.md §3). Checked in Meilisearch's order: the body's shape and index
 * uids (deserialization), then each swap in turn for exactly two indexes and the caller's right on
 * both (the route's own checks), then duplicates across the request (at registration).
 */
import { ApiError } from '../../errors/api-error.js';
import { indexUidProblem } from '../../types/index-uid.js';
import type { IndexSwap } from '../../types/task.js';
import { enqueue } from '../enqueue.js';
import { replicationOf } from '../replication-headers.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../../validation/index.js';

const parseSwaps = compileBody<{ indexes: string[]; rename?: boolean }[]>(
  {
    type: 'array',
    items: {
      type: 'object',
      properties: { indexes: { type: 'array', items: { type: 'string' } }, rename: { type: 'boolean' } },
      required: ['indexes'],
      additionalProperties: false,
    },
  },
  { '[].indexes': 'invalid_swap_indexes', '[].rename': 'invalid_swap_rename' },
  { missing: { '[].indexes': 'missing_swap_indexes' }, validators: { '[].indexes[]': indexUidProblem } },
);

/** The pair of a swap, or the error Meilisearch raises (without a location) for another count. */
function pairOf(indexes: readonly string[]): [string, string] {
  if (indexes.length === 2) return [indexes[0]!, indexes[1]!];
  const list = indexes.map((uid) => JSON.stringify(uid)).join(', ');
  throw new ApiError(
    'invalid_swap_indexes',
    `Two indexes must be given for each swap. The list \`[${list}]\` contains ${indexes.length} indexes.`,
  );
}

/** Uids named more than once across the request, sorted. */
function duplicates(swaps: readonly IndexSwap[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const uid of swaps.flatMap((swap) => swap.indexes)) (seen.has(uid) ? twice : seen).add(uid);
  return [...twice].sort();
}

export const swapIndexesRoutes = [
  defineRoute({
    route: 'POST /swap-indexes',
    body: parseSwaps,
    status: 202,
    handler: (ctx, deps) => {
      const swaps = ctx.body.map((swap): IndexSwap => {
        const indexes = pairOf(swap.indexes);
        for (const uid of indexes) ctx.caller.assertIndexAction('indexes.swap', uid);
        return { indexes, rename: swap.rename ?? false };
      });
      const twice = duplicates(swaps);
      if (twice.length > 0) {
        const names = twice.map((uid) => `\`${uid}\``).join(', ');
        throw new ApiError(
          'invalid_swap_duplicate_index_found',
          `Indexes must be declared only once during a swap. ${names} ${twice.length === 1 ? 'was' : 'were'} specified several times.`,
        );
      }
      return enqueue(deps, { kind: { name: 'indexSwap', swaps }, ...replicationOf(deps, ctx.headers) }, { ctx, body: { kind: 'json', value: ctx.body } });
    },
  }),
];
