/**
 * The `/network` topology object (network.md §3, §4): this instance's name, the known remotes,
 * the shards and the leader, persisted in the instance environment. A patch merges field by field
 * (`merge`), checked by v1.50's leader rules; every change stores a new time-ordered `version`.
 * Setting a leader (sharding, the enterprise edition's) goes through network/topology.ts. A
 * remote's `status` is read from the in-memory availability table (availability.ts).
 */
import { ApiError } from '../errors/api-error.js';
import { MAIN_KEYS } from '../store/dbs.js';
import type { InstanceStore } from '../store/env.js';
import { uuidV7 } from '../types/uuid-v7.js';
import { urlProblem } from '../types/url-problem.js';
import { isJsonObject } from '../types/json-text.js';
import { ownRecord } from '../types/own-record.js';
import type { Sharding } from '../engine/shards/shard-of.js';
import { RemoteAvailability } from './availability.js';
import { NIL_UUID } from '../types/uuid-v7.js';

interface Remote {
  url: string;
  searchApiKey: string | null;
  writeApiKey: string | null;
}

/** The stored network; `leader` is absent from networks stored before leaders were kept. */
export interface Saved {
  self: string | null;
  remotes: Record<string, Remote>;
  shards: Record<string, string[]>;
  leader?: string | null;
  version: string;
}

export interface RemotePatch {
  url?: string | null;
  searchApiKey?: string | null;
  writeApiKey?: string | null;
}

export interface ShardPatch {
  remotes?: string[] | null;
  addRemotes?: string[] | null;
  removeRemotes?: string[] | null;
}

/** PATCH body after schema validation; absent → unchanged, `null` → unset/remove. */
export interface NetworkPatch {
  remotes?: Record<string, RemotePatch | null> | null;
  shards?: Record<string, ShardPatch | null> | null;
  previousShards?: unknown;
  self?: string | null;
  leader?: string | null;
  previousRemotes?: unknown;
}

/** Entries by name, as the network's maps are listed and read. */
export const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);

export class Network {
  private cached: Saved | undefined;
  /** which remotes searches may go to (network.md §7.6) */
  readonly availability = new RemoteAvailability();

  constructor(private readonly store_: InstanceStore) {}

  get(): object {
    return view(this.saved(), (name) => this.availability.status(name));
  }

  /** This instance's name and the names of the known remotes, for searches that name one. */
  names(): { self: string | null; remotes: string[] } {
    const { self, remotes } = this.saved();
    return { self, remotes: Object.keys(remotes).sort() };
  }

  /** Where remote `name` answers searches, and with which key; null when it is not registered. */
  remoteAddress(name: string): { url: string; searchApiKey: string | null } | null {
    const { remotes } = this.saved();
    const remote = Object.hasOwn(remotes, name) ? remotes[name]! : null;
    return remote === null ? null : { url: remote.url, searchApiKey: remote.searchApiKey };
  }

  /** Whether a leader is set: the network is sharded, and searches go to the network by default. */
  sharding(): boolean {
    return (this.saved().leader ?? null) !== null;
  }

  /** The shards as this instance sees them when a leader is set (EE sharding), else null. */
  shardingOf(): Sharding | null {
    return shardingOf(this.saved());
  }

  /** The stored network, for a change to merge a patch into. */
  current(): Saved {
    return this.saved();
  }

  /**
   * Stores a merged network (`merge`) and answers it as `GET /network` shows it, but for the
   * remotes `patched` names: v1.50 answers those as rebuilt, `available` whatever it knows of them.
   */
  store(next: Saved, patched: NetworkPatch = {}): object {
    this.put(next);
    const rebuilt = new Set(Object.entries(patched.remotes ?? {}).flatMap(([name, change]) => (change === null ? [] : [name])));
    return view(next, (name) => (rebuilt.has(name) ? 'available' : this.availability.status(name)));
  }

  /**
   * `patch` merged into the stored network (network.md §4), with v1.50's leader rules checked;
   * nothing is stored.
   */
  merge(patch: NetworkPatch): Saved {
    if (patch.previousRemotes !== undefined) {
      throw new ApiError(
        'unexpected_network_previous_remotes',
        'Unexpected `previousRemotes` in network call.\n  - Note: `previousRemote` is reserved for internal use.',
      );
    }
    const current = this.saved();
    const self = patch.self === undefined ? current.self : patch.self;
    const leader = patch.leader === undefined ? (current.leader ?? null) : patch.leader;
    if (leader !== null) {
      if (self !== leader) throw new ApiError('not_leader', `This remote is not the leader of the network.\n  - Note: only the leader \`${leader}\` can receive new tasks.`);
      if (current.self !== null && current.self !== self) {
        throw new ApiError(
          'invalid_network_self',
          `Renaming a remote is not supported when a leader is defined.\n  - Note: applying this change would rename \`${current.self}\` to \`${self}\`.\n  - Hint: Send this change to \`${self}\` if it already exists.`,
        );
      }
    }
    // v1.50's order: the shards first, then the remotes by name (so the first error is the first
    // name's), a removed remote leaving every merged shard; `remotes: null` leaves the shards be.
    // Keyed by names users choose: `__proto__` or `constructor` is a remote like any other.
    let shards = ownRecord<string[]>(patch.shards === null ? {} : current.shards);
    for (const name of Object.keys(patch.shards ?? {}).sort()) {
      const change = patch.shards![name]!;
      if (change === null) {
        delete shards[name];
        continue;
      }
      const members = new Set(change.remotes ?? (Object.hasOwn(shards, name) ? shards[name]! : []));
      for (const remote of change.addRemotes ?? []) members.add(remote);
      for (const remote of change.removeRemotes ?? []) members.delete(remote);
      shards[name] = [...members].sort();
    }
    const remotes = ownRecord<Remote>(patch.remotes === null ? {} : current.remotes);
    for (const name of Object.keys(patch.remotes ?? {}).sort()) {
      const change = patch.remotes![name]!;
      if (change === null) {
        delete remotes[name];
        shards = ownRecord(Object.fromEntries(Object.entries(shards).map(([shard, members]) => [shard, members.filter((m) => m !== name)])));
        continue;
      }
      remotes[name] = mergeRemote(name, Object.hasOwn(remotes, name) ? remotes[name] : undefined, change);
    }
    // A shard served by no remote no longer exists.
    shards = Object.fromEntries(Object.entries(shards).filter(([, members]) => members.length > 0));
    if (leader !== null) {
      if (!Object.hasOwn(remotes, leader)) throw new ApiError('invalid_network_remotes', `leader \`${leader}\` is missing from remotes`);
      if (Object.keys(shards).length === 0) throw new ApiError('invalid_network_shards', 'there must be at least one shard owned by at least one remote');
      for (const [name, members] of Object.entries(shards).sort(byName)) {
        const unknown = members.find((member) => !Object.hasOwn(remotes, member));
        if (unknown !== undefined) throw new ApiError('invalid_network_shards', `unknown remote \`${unknown}\` in \`.${name}.remotes\``);
      }
    }
    return { self, remotes, shards, leader, version: uuidV7() };
  }

  /**
   * A dump's `network.json` replaces the stored network, with `self` and the leader cleared, as
   * v1.50's import does; fields older dumps lack default to empty.
   */
  restore(dumped: unknown): void {
    const json = (dumped ?? {}) as { remotes?: unknown; shards?: unknown; version?: unknown };
    // entries built with fromEntries: a key such as `__proto__` stays a key
    const key = (field: unknown) => (typeof field === 'string' ? field : null);
    const remotes: Record<string, Remote> = Object.fromEntries(
      Object.entries(isJsonObject(json.remotes) ? json.remotes : {}).flatMap(([name, value]) =>
        isJsonObject(value) && typeof value.url === 'string' ? [[name, { url: value.url, searchApiKey: key(value.searchApiKey), writeApiKey: key(value.writeApiKey) }]] : [],
      ),
    );
    const shards: Record<string, string[]> = Object.fromEntries(
      Object.entries(isJsonObject(json.shards) ? json.shards : {}).flatMap(([name, value]) => {
        const members = isJsonObject(value) && Array.isArray(value.remotes) ? value.remotes.filter((m): m is string => typeof m === 'string' && Object.hasOwn(remotes, m)) : [];
        return members.length > 0 ? [[name, members]] : [];
      }),
    );
    const version = typeof json.version === 'string' ? json.version : NIL_UUID;
    this.put({ self: null, remotes, shards, version });
  }

  private put(next: Saved): void {
    this.store_.main.putSync(MAIN_KEYS.network, next);
    this.cached = next;
  }

  /** The stored network, read once: every search asks whether it is sharded, and only `put` changes it. */
  private saved(): Saved {
    this.cached ??= (this.store_.main.get(MAIN_KEYS.network) as Saved | undefined) ?? { self: null, remotes: {}, shards: {}, version: NIL_UUID };
    return this.cached;
  }
}

/** A remote's patch over the remote of that name, if any: a new one must have a url (`null` is none). */
function mergeRemote(name: string, old: Remote | undefined, change: RemotePatch): Remote {
  const location = `.remotes.${name}.url`;
  if (change.url === null && old !== undefined) throw new ApiError('invalid_network_url', `Field \`${location}\` cannot be set to \`null\``);
  const url = change.url ?? old?.url;
  if (url === undefined) throw new ApiError('missing_network_url', `Missing field \`${location}\``);
  const problem = urlProblem(url);
  if (problem !== undefined) throw new ApiError('invalid_network_url', `Invalid \`${location}\` (\`${url}\`): ${problem}`);
  return {
    url,
    searchApiKey: change.searchApiKey === undefined ? (old?.searchApiKey ?? null) : change.searchApiKey,
    writeApiKey: change.writeApiKey === undefined ? (old?.writeApiKey ?? null) : change.writeApiKey,
  };
}

/** `saved`'s shards as `self` sees them; null without a leader (nothing is sharded then). */
export function shardingOf(saved: Saved): Sharding | null {
  if ((saved.leader ?? null) === null) return null;
  const shards = Object.keys(saved.shards).sort();
  const owned = new Set(shards.filter((name) => saved.self !== null && saved.shards[name]!.includes(saved.self)));
  return { shards, owned };
}

function view(saved: Saved, status: (remote: string) => string): object {
  return {
    self: saved.self,
    remotes: Object.fromEntries(
      Object.entries(saved.remotes)
        .sort(byName)
        .map(([name, r]) => [name, { url: r.url, searchApiKey: r.searchApiKey, writeApiKey: r.writeApiKey, status: status(name) }]),
    ),
    shards: Object.fromEntries(Object.entries(saved.shards).sort(byName).map(([name, members]) => [name, { remotes: members }])),
    leader: saved.leader ?? null,
    version: saved.version,
  };
}
