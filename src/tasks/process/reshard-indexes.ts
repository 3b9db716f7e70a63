/**
 * The start of a topology change's export step (network.md §6, v1.50's `rebalance_shards`):
 * every index's documents get their shard in the new network (engine/shards/reshard.ts), one
 * index write each through the index writer thread, so `_shard` filters (and the by-shard
 * network search built on them) see documents indexed before the change, or before any leader.
 * network-export.ts calls it before sending documents; it changes no document, so the
 * indexes' statistics stay as they are.
 */
import type { ReshardOutcome } from '../../engine/shards/reshard.js';
import { reshardWrite } from '../../engine/shards/reshard.js';
import type { ProcessContext } from './context.js';

/**
 * Reshards every index to the new network's `shards` (none: the indexes forget their shards);
 * answers, per index uid, what moved (ReshardOutcome).
 */
export async function reshardIndexes(ctx: Pick<ProcessContext, 'indexes' | 'writeIndex'>, shards: readonly string[]): Promise<Map<string, ReshardOutcome>> {
  const outcomes = new Map<string, ReshardOutcome>();
  for (const record of ctx.indexes.list()) {
    outcomes.set(record.uid, await ctx.writeIndex(record.uuid, reshardWrite({ shards })));
  }
  return outcomes;
}
