/** `POST /swap-indexes` (indexes.md §3): validated and checked for duplicates at enqueue time. */
import { ApiError } from '../../errors/api-error.js';
import { indexUidProblem } from '../../types/index-uid.js';
import type { IndexSwap } from '../../types/task.js';
import { enqueue } from '../enqueue.js';
import { defineRoute } from '../route.js';
import { compileBody } from '../validation/index.js';

const twoIndexes = (value: unknown): string | undefined => {
  const list = value as string[];
  if (list.length === 2) return undefined;
  return `Two indexes must be given for each swap. The list \`[${list.map((uid) => JSON.stringify(uid)).join(', ')}]\` contains ${list.length} indexes.`;
};

const parseSwaps = compileBody<{ indexes: [string, string]; rename?: boolean }[]>(
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
  {
    missing: { '[].indexes': 'missing_swap_indexes' },
    validators: { '[].indexes[]': indexUidProblem, '[].indexes': twoIndexes },
  },
);

function duplicates(swaps: readonly IndexSwap[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const uid of swaps.flatMap((swap) => swap.indexes)) (seen.has(uid) ? twice : seen).add(uid);
  return [...twice];
}

export const swapIndexesRoutes = [
  defineRoute({
    route: 'POST /swap-indexes',
    body: parseSwaps,
    status: 202,
    handler: (ctx, deps) => {
      const swaps: IndexSwap[] = ctx.body.map((swap) => ({ indexes: swap.indexes, rename: swap.rename ?? false }));
      const twice = duplicates(swaps);
      if (twice.length > 0) {
        const names = twice.map((uid) => `\`${uid}\``).join(', ');
        throw new ApiError(
          'invalid_swap_duplicate_index_found',
          `Indexes must be declared only once during a swap. ${names} ${twice.length === 1 ? 'was' : 'were'} specified several times.`,
        );
      }
      for (const uid of swaps.flatMap((swap) => swap.indexes)) ctx.caller.assertIndexAction('indexes.swap', uid);
      return enqueue(deps, { kind: { name: 'indexSwap', swaps } });
    },
  }),
];
