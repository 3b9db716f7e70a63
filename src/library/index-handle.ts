/**
 * `quarry.index(uid)`: one index, with the meilisearch client's Index methods, names and argument
 * shapes (the per-setting ones are in index-settings.ts). Each method is the route the client
 * would call (same path, query string and JSON body), so its validation and its answer are the
 * HTTP API's.
 */
import type { FacetSearchQuery } from '../search/facet-search.js';
import type { SearchQuery } from '../search/query.js';
import { IndexSettings } from './index-settings.js';
import type { LibraryRoutes } from './routes.js';
import type { EnqueuedTaskPromise, TaskClient } from './tasks.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RecordAny = Record<string, any>;

/** A search's parameters: POST /indexes/{uid}/search's body without `q`. */
export type SearchParams = Omit<SearchQuery, 'q'>;
export type SearchForFacetValuesParams = FacetSearchQuery;

export interface SearchResponse<T extends RecordAny = RecordAny> extends RecordAny {
  hits: Array<T & { _formatted?: Partial<T>; _matchesPosition?: RecordAny; _rankingScore?: number; _rankingScoreDetails?: RecordAny }>;
  query: string;
  processingTimeMs: number;
  facetDistribution?: Record<string, Record<string, number>>;
  facetStats?: Record<string, { min: number; max: number }>;
}

export interface SearchForFacetValuesResponse {
  facetHits: { value: string; count: number }[];
  facetQuery: string | null;
  processingTimeMs: number;
}

/** Options of document additions and updates (the query parameters of POST/PUT …/documents). */
export interface DocumentOptions {
  primaryKey?: string;
  customMetadata?: string;
  skipCreation?: boolean;
}

/** Options of deletions (their query parameters). */
export interface TaskEnqueueOptions {
  customMetadata?: string;
}

export interface DocumentsQuery<T extends RecordAny = RecordAny> {
  offset?: number;
  limit?: number;
  fields?: Array<Extract<keyof T, string>> | Extract<keyof T, string>;
  filter?: unknown;
  retrieveVectors?: boolean;
  ids?: Array<string | number>;
  sort?: string[];
}

export interface ResourceResults<T> {
  results: T;
  offset: number;
  limit: number;
  total: number;
}

export interface DocumentsDeletionQuery {
  filter: unknown;
}

export type Settings = RecordAny;

export class Index<T extends RecordAny = RecordAny> extends IndexSettings {
  /** Public, unlike IndexSettings's: `quarry.index(uid)` builds it. */
  constructor(routes: LibraryRoutes, tasks: TaskClient, uid: string) {
    super(routes, tasks, uid);
  }

  private get params(): Record<string, string> {
    return { indexUid: this.uid };
  }

  private enqueue(answer: Promise<unknown>): EnqueuedTaskPromise {
    return this.tasks.enqueued(answer);
  }

  async search<D extends RecordAny = T>(query?: string | null, options?: SearchParams): Promise<SearchResponse<D>> {
    return (await this.routes.call('POST /indexes/:indexUid/search', { params: this.params, body: { q: query, ...options } })) as SearchResponse<D>;
  }

  async searchForFacetValues(params: SearchForFacetValuesParams): Promise<SearchForFacetValuesResponse> {
    return (await this.routes.call('POST /indexes/:indexUid/facet-search', { params: this.params, body: params })) as SearchForFacetValuesResponse;
  }

  /** The index's uid, primary key and dates. */
  async getRawInfo(): Promise<{ uid: string; primaryKey: string | null; createdAt: string; updatedAt: string }> {
    return (await this.routes.call('GET /indexes/:indexUid', { params: this.params })) as { uid: string; primaryKey: string | null; createdAt: string; updatedAt: string };
  }

  async getStats(): Promise<RecordAny> {
    return (await this.routes.call('GET /indexes/:indexUid/stats', { params: this.params })) as RecordAny;
  }

  /** As the client: GET …/documents, or POST …/documents/fetch when there is a filter. */
  async getDocuments<D extends RecordAny = T>(params?: DocumentsQuery<D>): Promise<ResourceResults<D[]>> {
    const query: RecordAny | undefined = params === undefined ? undefined : { ...params };
    if (query !== undefined && Array.isArray(query.sort) && query.sort.length === 0) delete query.sort;
    const answer =
      query?.filter === undefined
        ? this.routes.call('GET /indexes/:indexUid/documents', { params: this.params, query: query ?? {} })
        : this.routes.call('POST /indexes/:indexUid/documents/fetch', { params: this.params, body: query });
    return (await answer) as ResourceResults<D[]>;
  }

  async getDocument<D extends RecordAny = T>(documentId: string | number, parameters?: { fields?: string[]; retrieveVectors?: boolean }): Promise<D> {
    return (await this.routes.call('GET /indexes/:indexUid/documents/:documentId', {
      params: { ...this.params, documentId: String(documentId) },
      query: parameters ?? {},
    })) as D;
  }

  addDocuments(documents: T[], options?: DocumentOptions): EnqueuedTaskPromise {
    return this.enqueue(this.routes.call('POST /indexes/:indexUid/documents', { params: this.params, query: options ?? {}, body: documents }));
  }

  updateDocuments(documents: Array<Partial<T>>, options?: DocumentOptions): EnqueuedTaskPromise {
    return this.enqueue(this.routes.call('PUT /indexes/:indexUid/documents', { params: this.params, query: options ?? {}, body: documents }));
  }

  deleteDocument(documentId: string | number, options?: TaskEnqueueOptions): EnqueuedTaskPromise {
    return this.enqueue(
      this.routes.call('DELETE /indexes/:indexUid/documents/:documentId', { params: { ...this.params, documentId: String(documentId) }, query: options ?? {} }),
    );
  }

  /** By ids (an array: …/delete-batch) or by filter (an object: …/delete), as the client. */
  deleteDocuments(params: DocumentsDeletionQuery | Array<string | number>, options?: TaskEnqueueOptions): EnqueuedTaskPromise {
    const route = !Array.isArray(params) && typeof params === 'object' ? 'POST /indexes/:indexUid/documents/delete' : 'POST /indexes/:indexUid/documents/delete-batch';
    return this.enqueue(this.routes.call(route, { params: this.params, query: options ?? {}, body: params }));
  }

  deleteAllDocuments(options?: TaskEnqueueOptions): EnqueuedTaskPromise {
    return this.enqueue(this.routes.call('DELETE /indexes/:indexUid/documents', { params: this.params, query: options ?? {} }));
  }

  async getSettings(): Promise<Settings> {
    return (await this.routes.call('GET /indexes/:indexUid/settings', { params: this.params })) as Settings;
  }

  updateSettings(settings: Settings): EnqueuedTaskPromise {
    return this.enqueue(this.routes.call('PATCH /indexes/:indexUid/settings', { params: this.params, body: settings }));
  }

  resetSettings(): EnqueuedTaskPromise {
    return this.enqueue(this.routes.call('DELETE /indexes/:indexUid/settings', { params: this.params }));
  }
}
