/**
 * The page window of a search response (search.md §4), one implementation for `/search`, each
 * `/multi-search` result and the federated list: offset/limit, or page/hitsPerPage (page mode,
 * whose counts are exact), and the fields that describe it in the response.
 */

/** What a request says about its window: a search query's or `federation`'s fields. */
export interface PageParams {
  offset?: number;
  limit?: number;
  page?: number | null;
  hitsPerPage?: number | null;
}

export interface PageWindow {
  readonly pageMode: boolean;
  readonly hitsPerPage: number;
  readonly page: number;
  /** the ranked hits shown: `[offset, offset + limit)` */
  readonly offset: number;
  readonly limit: number;
}

export function pageWindow(params: PageParams): PageWindow {
  const pageMode = (params.page !== undefined && params.page !== null) || (params.hitsPerPage !== undefined && params.hitsPerPage !== null);
  const hitsPerPage = params.hitsPerPage ?? 20;
  const page = params.page ?? 1;
  const offset = pageMode ? Math.max(page - 1, 0) * hitsPerPage : (params.offset ?? 0);
  const limit = pageMode ? (page === 0 ? 0 : hitsPerPage) : (params.limit ?? 20);
  return { pageMode, hitsPerPage, page, offset, limit };
}

/**
 * Adds the window's fields to `body`, in v1.50's key order, for `total` matching hits. With
 * `clipAt` (v1.50's legacy search pipeline, the `legacySearch` feature) the counts and the echoed
 * offset are clipped at that many hits (`maxTotalHits`), as that pipeline answers them.
 */
export function addPageFields(body: Record<string, unknown>, window: PageWindow, matching: number, clipAt?: number): void {
  const total = clipAt === undefined ? matching : Math.min(matching, clipAt);
  if (window.pageMode) {
    body.hitsPerPage = window.hitsPerPage;
    body.page = window.page;
    body.totalPages = window.hitsPerPage === 0 ? 0 : Math.ceil(total / window.hitsPerPage);
    body.totalHits = total;
  } else {
    body.limit = window.limit;
    body.offset = clipAt === undefined ? window.offset : Math.min(window.offset, clipAt);
    body.estimatedTotalHits = total;
  }
}
