/**
 * The stored state of a `networkTopologyChange` task (v1.50's `NetworkTopologyChange`, network.md
 * §6): the networks before and after, where the change stands, what each remote has sent us
 * (imports) and told us (its own imports finished), and how many documents left. It is kept in the
 * task itself, so it survives a restart; the HTTP routes (imports, `/network/control`) and the
 * scheduler each change it inside one write transaction (tasks/process/network-change-store.ts). Types only.
 */

/** The phases of a change, in order (v1.50's `NetworkTopologyState`). */
export type ChangePhase = 'waitingForOlderTasks' | 'exportingDocuments' | 'importingDocuments' | 'waitingForOthers' | 'deletingDocuments' | 'finished';

/** A network as the change sees it (the stored `/network` object without availability). */
export interface ChangeNetwork {
  self: string | null;
  remotes: Record<string, { url: string; searchApiKey: string | null; writeApiKey: string | null }>;
  shards: Record<string, string[]>;
  leader: string | null;
  version: string;
}

/** What one remote sends of one index. */
export interface ImportIndexState {
  /** the documents of the index the remote said it sends */
  total: number;
  received: number;
  processed: number;
  /** the import task keys received, to refuse a payload sent twice */
  taskKeys: number[];
  finished: boolean;
}

/** What one remote sends us: nothing known yet, some indexes, or everything. */
export type InRemoteState =
  | { state: 'waiting' }
  | { state: 'ongoing'; totalIndexes: number; indexes: Record<string, ImportIndexState> }
  | { state: 'finished'; totalIndexes: number; totalDocuments: number };

/** Whether a remote told us it imported everything we sent (`importFinishedForRemote`). */
export type OutRemoteState = { finished: false } | { finished: true; successful: boolean };

export interface NetworkChangeState {
  phase: ChangePhase;
  oldNetwork: ChangeNetwork;
  newNetwork: ChangeNetwork;
  inRemotes: Record<string, InRemoteState>;
  outRemotes: Record<string, OutRemoteState>;
  movedDocuments: number;
}
