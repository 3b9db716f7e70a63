// The page window shared by /search, each /multi-search result and the federated list.
import { describe, expect, it } from 'vitest';
import { addPageFields, pageWindow } from '../../../src/search/page.js';

describe('pageWindow', () => {
  it('takes offset and limit, 0 and 20 by default', () => {
    expect(pageWindow({})).toEqual({ pageMode: false, hitsPerPage: 20, page: 1, offset: 0, limit: 20 });
    expect(pageWindow({ offset: 5, limit: 3 })).toMatchObject({ pageMode: false, offset: 5, limit: 3 });
  });

  it('turns page and hitsPerPage into the window, either one switching page mode on', () => {
    expect(pageWindow({ page: 3, hitsPerPage: 10, offset: 99 })).toMatchObject({ pageMode: true, offset: 20, limit: 10 });
    expect(pageWindow({ page: 2 })).toMatchObject({ pageMode: true, offset: 20, limit: 20 });
    expect(pageWindow({ hitsPerPage: 7 })).toMatchObject({ pageMode: true, page: 1, offset: 0, limit: 7 });
  });

  it('shows nothing on page 0, and null page fields mean offset mode', () => {
    expect(pageWindow({ page: 0, hitsPerPage: 5 })).toMatchObject({ offset: 0, limit: 0 });
    expect(pageWindow({ page: null, hitsPerPage: null, limit: 4 })).toMatchObject({ pageMode: false, limit: 4 });
  });
});

describe('addPageFields', () => {
  it('describes an offset window with an estimated total', () => {
    const body: Record<string, unknown> = { hits: [] };
    addPageFields(body, pageWindow({ offset: 2, limit: 3 }), 41);
    expect(body).toEqual({ hits: [], limit: 3, offset: 2, estimatedTotalHits: 41 });
  });

  it('describes a page with the page count rounded up, 0 pages for 0 hits per page', () => {
    const body: Record<string, unknown> = {};
    addPageFields(body, pageWindow({ page: 1, hitsPerPage: 20 }), 41);
    expect(Object.entries(body)).toEqual([
      ['hitsPerPage', 20],
      ['page', 1],
      ['totalPages', 3],
      ['totalHits', 41],
    ]);
    const empty: Record<string, unknown> = {};
    addPageFields(empty, pageWindow({ hitsPerPage: 0 }), 41);
    expect(empty.totalPages).toBe(0);
  });
});
