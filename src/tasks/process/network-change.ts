/**
 * `networkTopologyChange` (network.md §6, always alone in its batch). Quarry accepts a leader only
 * when this instance is the network's only remote (network/topology.ts): it owns every shard, so
 * no document moves, none is exported or imported, and none is deleted. The tasks enqueued before
 * the change ran before it (the queue's order), so the change is finished once it runs.
 */
import type { BatchProcessor } from './context.js';
import { succeeded } from './outcome.js';

export const processNetworkChange: BatchProcessor = (_ctx, tasks) => ({
  tasks: tasks.map((task) => succeeded(task, { kind: 'networkTopologyChange', movedDocuments: 0, message: 'Finished' })),
});
