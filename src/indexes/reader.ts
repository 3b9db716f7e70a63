/**
 * Read access to the indexes for request handlers, so that they never open an environment
 * themselves: an index by uid (uid validated, else `index_not_found`; the fields list looks it up
 * unchecked, as v1.50's route does), its environment's current
 * snapshot, and the reads routes answer as they are (stored settings, the fields list). An
 * environment it gives is borrowed (IndexEnvs.get): for the handler's synchronous run only;
 * a request that uses one across awaits leases it.
 */
import { DocumentStore } from '../engine/documents/store.js';
import { readFacetFields } from '../engine/facets/store.js';
import { knownSearchPaths } from '../engine/words/word-index.js';
import { compareBytes } from '../types/bytes.js';
import type { IndexEnv, IndexEnvLease, IndexEnvs } from '../engine/index-env.js';
import { searchSettings } from '../engine/index-settings.js';
import { ApiError } from '../errors/api-error.js';
import { fieldView, type FieldView } from '../settings/fields.js';
import { validateIndexUid } from './uid.js';
import { RESERVED_INDEX_UID_PREFIX, reservedIndexUidMessage } from '../types/index-uid.js';
import type { IndexSettings } from '../types/settings.js';
import type { IndexRecord, IndexRegistry } from './registry.js';

export function indexNotFound(uid: string): ApiError {
  return new ApiError('index_not_found', `Index \`${uid}\` not found.`);
}

/**
 * The record of the index `rawUid` names as v1.50's `user_index` finds it, the uid unchecked (the
 * fields route, the chat's search tool): a reserved uid (`.meili…`) refused in the index
 * scheduler's words, any other looked up as written.
 */
export function userRecord<R>(lookup: (uid: string) => R | undefined, rawUid: string): R {
  if (rawUid.startsWith(RESERVED_INDEX_UID_PREFIX)) throw new ApiError('invalid_index_uid', reservedIndexUidMessage(rawUid));
  const record = lookup(rawUid);
  if (record === undefined) throw indexNotFound(rawUid);
  return record;
}

export class IndexReader {
  constructor(
    private readonly registry: Pick<IndexRegistry, 'get'>,
    private readonly envs: Pick<IndexEnvs, 'get' | 'acquire'>,
  ) {}

  /** The record of index `uid` as stored, without checking the uid. */
  get(uid: string): IndexRecord | undefined {
    return this.registry.get(uid);
  }

  /** The record of the index `rawUid` names: its uid validated, `index_not_found` when there is none. */
  record(rawUid: string): IndexRecord {
    const uid = validateIndexUid(rawUid);
    const record = this.registry.get(uid);
    if (record === undefined) throw indexNotFound(uid);
    return record;
  }

  envOf(record: IndexRecord): IndexEnv {
    return this.envs.get(record.uuid);
  }

  /** The environment of the index `rawUid` names (as `record`). */
  open(rawUid: string): IndexEnv {
    return this.envOf(this.record(rawUid));
  }

  /** The environment of the index `rawUid` names (as `record`), kept open until the lease is released. */
  lease(rawUid: string): IndexEnvLease {
    return this.envs.acquire(this.record(rawUid).uuid);
  }

  /**
   * The index's stored settings (`GET /indexes/{uid}/settings`): the object searches share until
   * a commit changes them (read-only), not a copy decoded per request. 450,000 synonyms took
   * ~1.4-4 s of this thread to decode at every GET.
   */
  settings(rawUid: string): Readonly<IndexSettings> {
    return searchSettings(this.open(rawUid));
  }

  /**
   * Every field of the index, sorted by name, with what its settings make of it (`POST
   * /indexes/{uid}/fields`): the documents' top-level fields and the nested paths indexing ever
   * gave an id, searchable or faceted, as v1.50's fields map holds them; that map numbers
   * `_geo.lat` and `_geo.lng` with `_geo` whatever the settings (`write_to_obkv`). The route does
   * not check the uid's format, as v1.50's calls `user_index` directly (`userRecord`).
   */
  fields(rawUid: string): FieldView[] {
    const record = userRecord((uid) => this.registry.get(uid), rawUid);
    const env = this.envOf(record);
    const settings = searchSettings(env);
    const documentFields = new DocumentStore(env).fieldIds();
    const geo = documentFields.includes('_geo') ? ['_geo.lat', '_geo.lng'] : [];
    const names = new Set([...documentFields, ...geo, ...knownSearchPaths(env), ...readFacetFields(env)]);
    return [...names].sort(compareBytes).map((name) => fieldView(name, settings));
  }
}
