/**
 * The API key store (keys-auth.md §1–3, §6): key records in the instance environment's `keys`
 * database (uid → record), mirrored in memory so that authenticating a request reads no disk.
 *
 * Callers: authenticate.ts (recognising a presented key, loading its record), the `/keys` routes
 * (list, create, update, delete), main.ts (opens it once at startup).
 * Invariants:
 * - Every write goes through this class, on the main thread, and is committed (`putSync`,
 *   `removeSync`) before the in-memory mirror changes: a deleted key stops working at once, a
 *   created key works at once, and the mirror never holds what the disk does not.
 * - Key values are derived (key-derivation.ts), never stored; a presented key is looked up by
 *   the SHA-256 of its bytes, then compared with the derived value in constant time: the lookup's
 *   timing depends on that hash alone, which says nothing of any key's bytes, and a request costs
 *   the same with 10 keys or 100,000 (comparing with every key took ~20 ms a request at 10,000).
 * - Expired keys stay (listed, refused by authorization); only DELETE removes a record.
 * - When the store is empty at startup, the four default keys are created, with or without a
 *   master key, exactly once per empty store.
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { Database } from 'lmdb';
import { ApiError } from '../errors/api-error.js';
import type { InstanceStore } from '../store/env.js';
import { INSTANCE_DBS } from '../store/dbs.js';
import type { Action } from '../types/key.js';
import { formatRfc3339, instantOfRfc3339, nowNs } from '../types/dates.js';
import type { ExpirationDate } from './dates.js';
import { decodePresentedKey, deriveKey, deriveKeyDigest } from './key-derivation.js';
import { parseUuid } from './uuid.js';

/** A key as stored and as `/keys` shows it (without its derived value). Dates are RFC 3339. */
export interface ApiKey {
  readonly uid: string;
  readonly name: string | null;
  readonly description: string | null;
  /** As given at creation: order, duplicates and wildcards kept. */
  readonly actions: readonly Action[];
  /** As given at creation. */
  readonly indexes: readonly string[];
  readonly expiresAt: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface NewApiKey {
  /** Canonical (lowercase hyphenated) uid; a random v4 uid when absent. */
  readonly uid?: string;
  readonly name: string | null;
  readonly description: string | null;
  readonly actions: readonly Action[];
  readonly indexes: readonly string[];
  readonly expiresAt: ExpirationDate | null;
}

/** `undefined`: unchanged; `null`: cleared. */
export interface ApiKeyPatch {
  readonly name?: string | null;
  readonly description?: string | null;
}

interface Entry {
  readonly key: ApiKey;
  readonly createdAtNs: bigint;
  readonly expiresAtNs: bigint | null;
  /** HMAC behind the key value; `null` without a master key (no key can then be presented). */
  readonly digest: Buffer | null;
}

/** Created on first launch, in this order (so that `GET /keys`, newest first, lists them reversed). */
const DEFAULT_KEYS: ReadonlyArray<Pick<ApiKey, 'name' | 'description' | 'actions'>> = [
  {
    name: 'Default Chat API Key',
    description: 'Use it to chat and search from the frontend',
    actions: ['chatCompletions', 'search'],
  },
  {
    name: 'Default Read-Only Admin API Key',
    description: 'Use it to read information across the whole database. Caution! Do not expose this key on a public frontend',
    actions: ['*.get', 'keys.get'],
  },
  {
    name: 'Default Admin API Key',
    description: 'Use it for anything that is not a search operation. Caution! Do not expose it on a public frontend',
    actions: ['*'],
  },
  { name: 'Default Search API Key', description: 'Use it to search from the frontend', actions: ['search'] },
];

export class KeyStore {
  private readonly db: Database<ApiKey, string>;
  private readonly entries = new Map<string, Entry>();
  /** key uid by the SHA-256 (hex) of its value's bytes (`findUidByValue`) */
  private readonly byHash = new Map<string, string>();
  private lastCreatedAt = 0n;

  constructor(
    store: InstanceStore,
    private readonly masterKey: string | null,
  ) {
    this.db = store.root.openDB<ApiKey, string>({ name: INSTANCE_DBS.keys });
    for (const { value } of this.db.getRange()) this.remember(value);
    if (this.entries.size === 0) {
      for (const key of DEFAULT_KEYS) this.create({ ...key, indexes: ['*'], expiresAt: null });
    }
  }

  /** Every key, newest `createdAt` first. */
  list(): ApiKey[] {
    return [...this.entries.values()]
      .sort((a, b) => (a.createdAtNs === b.createdAtNs ? 0 : a.createdAtNs > b.createdAtNs ? -1 : 1))
      .map((entry) => entry.key);
  }

  get(uid: string): ApiKey | undefined {
    return this.entries.get(uid)?.key;
  }

  /** The instant a key stops working, or `null` when it never expires. */
  expiresAtNs(uid: string): bigint | null {
    return this.entries.get(uid)?.expiresAtNs ?? null;
  }

  /** The value clients send for this key; empty without a master key (as Meilisearch shows it). */
  valueOf(uid: string): string {
    return this.masterKey === null ? '' : deriveKey(this.masterKey, uid);
  }

  /** The uid of the key whose value `token` is, if any. Its timing says nothing of any key's bytes (see the header). */
  findUidByValue(token: string): string | undefined {
    const presented = decodePresentedKey(token);
    if (presented === null || presented.length !== 32) return undefined;
    const uid = this.byHash.get(hashOf(presented));
    const digest = uid === undefined ? null : this.entries.get(uid)?.digest;
    return digest !== null && digest !== undefined && timingSafeEqual(digest, presented) ? uid : undefined;
  }

  /**
   * The key a `{key_or_uid}` path segment designates: a uid in any textual UUID form, else a key
   * value. Throws 404 `api_key_not_found` naming the uid (canonical form) or the segment as sent.
   */
  resolve(keyOrUid: string): ApiKey {
    const parsed = parseUuid(keyOrUid);
    const uid = parsed.ok ? parsed.uuid : this.findUidByValue(keyOrUid);
    const key = uid === undefined ? undefined : this.get(uid);
    if (key === undefined) throw new ApiError('api_key_not_found', `API key \`${uid ?? keyOrUid}\` not found.`);
    return key;
  }

  /** Stores a new key; 409 `api_key_already_exists` when its uid is taken. */
  create(input: NewApiKey): ApiKey {
    const uid = input.uid ?? randomUUID();
    if (this.entries.has(uid)) {
      throw new ApiError('api_key_already_exists', `\`uid\` field value \`${uid}\` is already an existing API key.`);
    }
    const now = formatRfc3339(this.nextCreationTime());
    return this.save({
      uid,
      name: input.name,
      description: input.description,
      actions: [...input.actions],
      indexes: [...input.indexes],
      expiresAt: input.expiresAt?.text ?? null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** Changes name and/or description; `updatedAt` moves even when nothing else does. */
  update(uid: string, patch: ApiKeyPatch): ApiKey {
    const key = this.requireKey(uid);
    return this.save({
      ...key,
      name: patch.name === undefined ? key.name : patch.name,
      description: patch.description === undefined ? key.description : patch.description,
      updatedAt: formatRfc3339(nowNs()),
    });
  }

  delete(uid: string): void {
    this.requireKey(uid);
    this.db.removeSync(uid);
    this.forget(uid);
  }

  /**
   * Replaces every key, the default ones included, with `keys`, uids and dates kept (a dump
   * import, dumps/import.ts). Their values stay derived from this instance's master key.
   */
  replaceAll(keys: readonly ApiKey[]): void {
    this.db.transactionSync(() => {
      for (const uid of this.entries.keys()) this.db.removeSync(uid);
      for (const key of keys) this.db.putSync(key.uid, key);
    });
    this.entries.clear();
    this.byHash.clear();
    for (const key of keys) this.remember(key);
  }

  private requireKey(uid: string): ApiKey {
    const key = this.get(uid);
    if (key === undefined) throw new ApiError('api_key_not_found', `API key \`${uid}\` not found.`);
    return key;
  }

  private save(key: ApiKey): ApiKey {
    this.db.putSync(key.uid, key);
    this.remember(key);
    return key;
  }

  private remember(key: ApiKey): void {
    const createdAtNs = instantOfRfc3339(key.createdAt);
    if (createdAtNs > this.lastCreatedAt) this.lastCreatedAt = createdAtNs;
    const digest = this.masterKey === null ? null : deriveKeyDigest(this.masterKey, key.uid);
    this.entries.set(key.uid, {
      key,
      createdAtNs,
      expiresAtNs: key.expiresAt === null ? null : instantOfRfc3339(key.expiresAt),
      digest,
    });
    if (digest !== null) this.byHash.set(hashOf(digest), key.uid);
  }

  private forget(uid: string): void {
    const digest = this.entries.get(uid)?.digest;
    if (digest !== null && digest !== undefined) this.byHash.delete(hashOf(digest));
    this.entries.delete(uid);
  }

  // Keys created in the same instant would list in no defined order; a strictly increasing
  // creation time keeps `GET /keys` deterministic (the default keys especially).
  private nextCreationTime(): bigint {
    const now = nowNs();
    this.lastCreatedAt = now > this.lastCreatedAt ? now : this.lastCreatedAt + 1n;
    return this.lastCreatedAt;
  }
}

/** The lookup key of a key value's bytes (`findUidByValue`). */
function hashOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
