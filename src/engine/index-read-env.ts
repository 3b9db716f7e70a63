/**
 * What the engine's read path needs of an index's storage: the databases of an index by name,
 * each with the few reads searches, facets, filters and hit formatting make (`ReadDb`). Two
 * implementations: the LMDB environment (index-env.ts: lmdb's databases are `ReadDb`s as they
 * are) and a read-only index bundle (bundle/reader.ts: sorted keys and values in one buffer).
 * Code that only reads takes an `IndexReadEnv`; code that writes takes an `IndexEnv`, so a
 * bundle can never reach a write path. No Node built-in here: the browser build loads this file.
 */

/** Database names of an index environment, declared once. */
export const INDEX_DBS = {
  /** small per-index values: field ids, settings, stats (see INDEX_MAIN_KEYS) */
  main: 'main',
  /** internal docid (u32) → stored document */
  documents: 'documents',
  /** external document id → internal docid */
  externalIds: 'external-ids',
  /** facet key (field id · kind · value) → docids (engine/facets/store.ts) */
  facetDocids: 'facet-docids',
  /** internal docid → its `_geo` point, while geo is enabled (engine/facets/store.ts) */
  geoPoints: 'geo-points',
  /** internal docid → its `_geojson` shape, while `_geojson` is filterable (engine/facets/geojson-shape.ts) */
  geojsonShapes: 'geojson-shapes',
  /** normalised word → its posting: docids with per-document field mask and first position (engine/words/postings.ts) */
  wordDocids: 'word-docids',
  /** word prefix (1 to 3 characters) → the union posting of the words it starts (engine/words/postings.ts) */
  prefixDocids: 'word-prefix-docids',
  /** the blocks of the largest word and prefix postings after their first (engine/words/posting-blocks.ts) */
  postingBlocks: 'posting-blocks',
  /** internal docid → its searchable words with fields and positions (engine/search/forward.ts) */
  docWords: 'docid-words',
  /** normalised word → its id (u32 LE): the typo dictionary, in key (UTF-8 byte) order */
  wordIds: 'word-ids',
  /** embedder id (u16 BE) · docid (u32 BE) → the document's vector entry: item ids, status, embedded text (engine/vectors/store.ts) */
  vectorDocs: 'vector-docs',
  /** embedder id (u16 BE) · item id (u32 BE) → the item's docid and vector, f32 or sign bits (engine/vectors/store.ts) */
  vectorItems: 'vector-items',
  /** embedder id (u16 BE) · item id (u32 BE) → the item's HNSW level and neighbour lists (engine/vectors/store.ts) */
  vectorLinks: 'vector-links',
} as const;

/**
 * shard name → the internal docids of its documents (a DocSet, raw u32 LE), as v1.50's
 * `shard-docids` (engine/shards/shard-docids.ts). Kept out of INDEX_DBS: index bundles do not
 * carry it (a `_shard` filter over a bundle finds no shard).
 */
export const SHARD_DOCIDS_DB = 'shard-docids';

export const INDEX_MAIN_KEYS = {
  /** the storage format of this environment (store/env.ts STORE_FORMAT_VERSION); none: its instance's format */
  format: 'format',
  /** the last batch whose write this environment committed, with its tasks' outcomes (engine/applied-batch.ts) */
  appliedBatch: 'applied-batch',
  nextDocid: 'next-docid',
  fieldDistribution: 'field-distribution',
  /** facet field id → path (engine/facets/store.ts) */
  facetFields: 'facet-fields',
  /** set while `geojsonShapes` holds the shape of every document that has one (engine/facets/updater.ts) */
  geojsonShapes: 'geojson-shapes',
  /** every internal docid, as a DocSet (engine/facets/store.ts) */
  documentsIds: 'documents-ids',
  /** a fresh random id with every write of documents-ids, so searches keep their decoded copy until then */
  documentsIdsVersion: 'documents-ids-version',
  /** a fresh random id with every write of documents or of what is derived from them (engine/index-changes.ts) */
  documentsVersion: 'documents-version',
  /** what the writes before the last changed, from documents version to version, for search caches to follow (engine/index-changes.ts) */
  indexChanges: 'index-changes',
  /** the last write's entry of that record (engine/index-changes.ts) */
  lastIndexChange: 'index-changes-last',
  /** next word id to allocate (engine/words/word-index.ts) */
  nextWordId: 'next-word-id',
  /** searchable field paths in search-field-id order (engine/words/word-index.ts) */
  searchFields: 'search-fields',
  /**
   * search field paths a rebuild of the word index dropped: an index's field list keeps every path
   * it ever numbered, as v1.50's fields map does (engine/words/word-index.ts `knownFieldPaths`)
   */
  pastSearchFields: 'past-search-fields',
  /** bumped whenever the set of indexed words changes, to reload the typo dictionary */
  wordsVersion: 'words-version',
  /** embedder name → its vector store state: id, dimensions, quantization, graph entry point (engine/vectors/store.ts) */
  vectorEmbedders: 'vector-embedders',
  /** a fresh random id with every batch writing vectors, so searches keep their loaded graphs until then */
  vectorsVersion: 'vectors-version',
  /** the last writes' changed vector items per embedder, from version to version (engine/vectors/store.ts) */
  vectorsJournal: 'vectors-journal',
} as const;

/**
 * A key range as lmdb reads one: keys from `start` (left out with `exclusiveStart`) to `end`
 * (left out unless `inclusiveEnd`), descending from `start` with `reverse`; then `offset`
 * entries skipped and at most `limit` given. `exclusiveStart` goes with a `start`, and
 * `inclusiveEnd` and `reverse` with an `end`: without them lmdb's defaults leave out its lowest
 * possible key, which the bundle does not mimic.
 */
export interface ReadRange<K> {
  start?: K;
  end?: K;
  reverse?: boolean;
  exclusiveStart?: boolean;
  inclusiveEnd?: boolean;
  offset?: number;
  limit?: number;
}

/**
 * The reads of one database, with lmdb's meaning: `get` decodes the stored value (msgpack, JSON
 * for documents, or a Buffer for binary databases), `getBinary` gives its bytes, `getBinaryFast`
 * too but possibly in a buffer the next read reuses (so it is read before the next lookup),
 * ranges are in key order (ordered-binary bytes for string keys, numeric for u32 keys, bytewise
 * for binary keys).
 */
export interface ReadDb<V, K> {
  get(key: K): V | undefined;
  getBinary(key: K): Buffer | undefined;
  getBinaryFast(key: K): Buffer | undefined;
  getRange(range?: ReadRange<K>): Iterable<{ key: K; value: V }>;
  getKeys(range?: ReadRange<K>): Iterable<K>;
  /** the number of entries */
  getCount(): number;
}

/** An index's databases as the read path sees them (the keys of INDEX_DBS). */
export interface IndexReadEnv {
  /** identifies the index's data: caches keyed by it (vector graphs) must not mix two indexes */
  readonly uuid: string;
  readonly main: ReadDb<unknown, string>;
  /** documents keep their keys in field-id order */
  readonly documents: ReadDb<Record<string, unknown>, number>;
  readonly externalIds: ReadDb<number, string>;
  readonly facetDocids: ReadDb<Buffer, Buffer>;
  readonly geoPoints: ReadDb<Buffer, number>;
  /** absent from an index bundle written before bundles carried shapes */
  readonly geojsonShapes?: ReadDb<Buffer, number>;
  readonly wordDocids: ReadDb<Buffer, string>;
  readonly prefixDocids: ReadDb<Buffer, string>;
  readonly postingBlocks: ReadDb<Buffer, Buffer>;
  readonly docWords: ReadDb<Buffer, number>;
  readonly wordIds: ReadDb<Buffer, string>;
  readonly vectorDocs: ReadDb<unknown, Buffer>;
  readonly vectorItems: ReadDb<Buffer, Buffer>;
  readonly vectorLinks: ReadDb<Buffer, Buffer>;
  /** SHARD_DOCIDS_DB, in an LMDB environment only */
  readonly shardDocids?: ReadDb<Buffer, string>;
}

/** How each database's keys are encoded: lmdb's key encoding as index-env.ts opens it. */
export const INDEX_DB_KEYS: Record<keyof typeof INDEX_DBS, 'string' | 'uint32' | 'binary'> = {
  main: 'string',
  documents: 'uint32',
  externalIds: 'string',
  facetDocids: 'binary',
  geoPoints: 'uint32',
  geojsonShapes: 'uint32',
  wordDocids: 'string',
  prefixDocids: 'string',
  postingBlocks: 'binary',
  docWords: 'uint32',
  wordIds: 'string',
  vectorDocs: 'binary',
  vectorItems: 'binary',
  vectorLinks: 'binary',
};

/** How each database's values are encoded: msgpack (lmdb's default), raw bytes, or JSON text (store/json-documents.ts). */
export const INDEX_DB_VALUES = {
  main: 'msgpack',
  documents: 'json',
  externalIds: 'msgpack',
  facetDocids: 'binary',
  geoPoints: 'binary',
  geojsonShapes: 'binary',
  wordDocids: 'binary',
  prefixDocids: 'binary',
  postingBlocks: 'binary',
  docWords: 'binary',
  wordIds: 'binary',
  vectorDocs: 'msgpack',
  vectorItems: 'binary',
  vectorLinks: 'binary',
} as const satisfies Record<keyof typeof INDEX_DBS, 'msgpack' | 'binary' | 'json'>;
