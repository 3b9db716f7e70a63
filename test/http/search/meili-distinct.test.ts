// Port of Meilisearch's crates/meilisearch/tests/search/distinct.rs: placeholder searches with a
// distinct attribute — which variants each page gets, the estimated count in offset mode (only the
// ranked buckets are deduplicated) and the exact one in page mode (ranking.md §9, search.md §4) —
// and the `distinct` search parameter on a nested filterable attribute.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, stable } from '../../helpers/api.js';
import { expectJson, finishedTask, search, succeed } from '../../helpers/meili-datasets.js';
import { startServer, type TestServer } from '../../helpers/server.js';

const PRODUCTS: [description: string, brand: string, productId: string, colors: string[]][] = [
  ['Leather Jacket', 'Lee Jeans', '123456', ['Brown', 'Black', 'Blue']],
  ['T-Shirt', 'Nike', '789012', ['Red', 'Blue']],
  ['Running Shoes', 'Adidas', '456789', ['Black', 'White']],
  ['Hoodie', 'Puma', '987654', ['Gray']],
  ['Sweater', 'Gap', '234567', ['Green', 'Red', 'Blue']],
  ['Jeans', "Levi's", '345678', ['Indigo', 'Black', 'Stone Wash']],
];

/** distinct.rs's DOCUMENTS: one document per product and colour, ids 1–14 in this order. */
const DOCUMENTS = PRODUCTS.flatMap(([description, brand, product_id, colors]) => colors.map((color) => ({ description, brand, product_id, color }))).map((doc, i) => ({
  id: i + 1,
  ...doc,
}));

const NESTED_DOCUMENTS = [
  { id: 1, description: 'Leather Jacket', brand: 'Lee Jeans', product_id: '123456', color: { main: 'Brown', pattern: 'stripped' } },
  { id: 2, description: 'Leather Jacket', brand: 'Lee Jeans', product_id: '123456', color: { main: 'Black', pattern: 'stripped' } },
  { id: 3, description: 'Leather Jacket', brand: 'Lee Jeans', product_id: '123456', color: { main: 'Blue', pattern: 'used' } },
  { id: 4, description: 'T-Shirt', brand: 'Nike', product_id: '789012', color: { main: 'Blue', pattern: 'stripped' } },
];

let server: TestServer;
let filterableTask: any;

beforeAll(async () => {
  server = await startServer();
  // `id` and `product_id` both end in "id": the primary key is named, as the Rust test does
  await succeed(server, 'POST', '/indexes/products/documents?primaryKey=id', DOCUMENTS);
  await succeed(server, 'PATCH', '/indexes/products/settings', { distinctAttribute: 'product_id' });
  await succeed(server, 'POST', '/indexes/tamo/documents?primaryKey=id', NESTED_DOCUMENTS);
  filterableTask = await run(server, 'PATCH', '/indexes/tamo/settings', { filterableAttributes: ['color.main'] });
}, 60_000);
afterAll(async () => {
  await server.dispose();
});

const productIds = (hits: { product_id: string }[]) => hits.map((hit) => hit.product_id);

describe('distinct_search_with_offset_no_ranking', () => {
  it.each([
    [0, ['123456', '789012'], 11],
    [2, ['456789', '987654'], 10],
    [4, ['234567', '345678'], 6],
    [5, ['345678'], 6],
    [6, [], 6],
    [7, [], 6],
  ])('offset %i returns the next distinct products; the estimate drops the variants of the ranked ones', async (offset, expected, estimate) => {
    const body = await search(server, 'products', { offset, limit: 2 });
    expectJson(productIds(body.hits), expected);
    expect(body.estimatedTotalHits).toBe(estimate);
  });
});

describe('distinct_search_with_pagination_no_ranking', () => {
  it.each([
    [0, 2, [], 3],
    [1, 2, ['123456', '789012'], 3],
    [2, 2, ['456789', '987654'], 3],
    [3, 2, ['234567', '345678'], 3],
    [4, 2, [], 3],
    [2, 3, ['987654', '234567', '345678'], 2],
  ])('page %i of %i hits has the distinct products of that page and exact totals', async (page, hitsPerPage, expected, totalPages) => {
    const body = await search(server, 'products', { page, hitsPerPage });
    expectJson(productIds(body.hits), expected);
    expect([body.page, body.totalPages, body.totalHits]).toEqual([page, totalPages, 6]);
  });
});

describe('distinct_at_search_time', () => {
  it('makes a nested attribute filterable', () => {
    expectJson(
      stable(filterableTask),
      finishedTask({ uid: filterableTask.uid, indexUid: 'tamo', status: 'succeeded', type: 'settingsUpdate', details: { filterableAttributes: ['color.main'] } }),
    );
  });

  it('the distinct parameter keeps one document per value of a nested filterable attribute', async () => {
    const body = await search(server, 'tamo', { page: 1, hitsPerPage: 3, distinct: 'color.main' });
    expectJson(
      body.hits.map((hit: { id: number }) => hit.id),
      [1, 2, 3],
    );
    expect([body.page, body.totalPages, body.totalHits]).toEqual([1, 1, 3]);
  });
});
