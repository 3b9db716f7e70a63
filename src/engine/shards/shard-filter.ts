/**
 * `_shard` in a filter (network.md §5, v1.50's `evaluate_shard_operator`): `_shard = "s"` selects
 * the documents recorded in shard `s` (shard-docids.ts), `!=` the others, `IN [..]` the union
 * (and `NOT` of any of them the complement, as for any condition). Any other operator, and a shard
 * the index does not know, are refused with `invalid_search_filter` (whatever the route: v1.50
 * maps these errors to that code everywhere), with v1.50's messages, unlocated. The `network`
 * feature gate is checked before (filter/gates.ts).
 */
import { ApiError } from '../../errors/api-error.js';
import { difference, unionAll, type DocSet } from '../docset.js';
import type { IndexReadEnv } from '../index-read-env.js';
import { shardDocidsOf } from './shard-docids.js';

/** The reserved attribute naming a document's shard. */
export const SHARD_FIELD = '_shard';

/** A condition on `_shard`: its operator (as v1.50 names it) and values. */
export type ShardCondition = { readonly operator: '=' | '!=' | 'IN'; readonly values: readonly string[] } | { readonly operator: string };

/**
 * The documents matching a `_shard` condition; `all` gives every document of the index (for `!=`).
 * @throws ApiError(invalid_search_filter) for another operator or an unknown shard
 */
export function evaluateShardCondition(env: IndexReadEnv, condition: ShardCondition, all: () => DocSet): DocSet {
  if (!('values' in condition)) {
    // the missing backtick after the operator and the space before the line break are v1.50's
    throw new ApiError(
      'invalid_search_filter',
      `Filter operator \`${condition.operator} is not allowed for the special attribute \`_shard\`.\n  - Note: allowed operators: =, !=, IN. \n  - Note: other operators are not allowed for the special attribute \`_shard\`.`,
    );
  }
  const selected = unionAll(condition.values.map((shard) => shardDocids(env, shard)));
  return condition.operator === '!=' ? difference(all(), selected) : selected;
}

function shardDocids(env: IndexReadEnv, shard: string): DocSet {
  const docids = shardDocidsOf(env, shard);
  if (docids === undefined) throw new ApiError('invalid_search_filter', `Shard \`${shard}\` does not exist`);
  return docids;
}
