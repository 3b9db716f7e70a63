/**
 * Combinations as itertools' `combinations` yields them, which v1.50's rule conditions try in
 * this order (the order decides which ones a bounded fuel reaches). Pure.
 */

/** Every `size`-element combination of `items`, in lexicographic order. */
export function* combinations<T>(items: readonly T[], size: number, start = 0, prefix: T[] = []): Generator<T[]> {
  if (prefix.length === size) {
    yield prefix;
    return;
  }
  for (let i = start; i <= items.length - (size - prefix.length); i++) yield* combinations(items, size, i + 1, [...prefix, items[i]!]);
}
