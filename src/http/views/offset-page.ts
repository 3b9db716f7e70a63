/**
 * The `{results, offset, limit, total}` page that Meilisearch's offset-paginated lists answer
 * (`GET /indexes`, `GET /keys`, `POST /indexes/{uid}/fields`): offset 0 and limit 20 unless given.
 */
export interface OffsetPage<V> {
  results: V[];
  offset: number;
  limit: number;
  total: number;
}

export function offsetPage<T, V = T>(
  items: readonly T[],
  query: { offset?: number; limit?: number },
  view: (item: T) => V = (item) => item as unknown as V,
): OffsetPage<V> {
  const offset = query.offset ?? 0;
  const limit = query.limit ?? 20;
  return { results: items.slice(offset, offset + limit).map((item) => view(item)), offset, limit, total: items.length };
}
