/**
 * A k-way merge of ranked lists, exactly as itertools' `kmerge_by` (which v1.50 merges federated
 * hits and network document lists with) takes their heads: a binary min-heap of the lists' heads
 * under `lessThan`, built by `heapify`, sifted down after each head is taken, an exhausted list
 * swapped out with the heap's last. When `lessThan` agrees with each list's order this is a
 * stable merge; when it does not (milli ranks the greater geo distance better, while each list
 * is sorted nearest first) or when heads tie, only this heap's walk gives v1.50's order.
 */

interface Head<T> {
  readonly list: readonly T[];
  index: number;
}

/** The lists' items merged; `lessThan(a, b)`: `a` comes before `b`. */
export function kmergeBy<T>(lists: readonly (readonly T[])[], lessThan: (a: T, b: T) => boolean): T[] {
  const heap: Head<T>[] = lists.filter((list) => list.length > 0).map((list) => ({ list, index: 0 }));
  const less = (a: Head<T>, b: Head<T>) => lessThan(a.list[a.index]!, b.list[b.index]!);
  const siftDown = (start: number): void => {
    let pos = start;
    let child = 2 * pos + 1;
    while (child + 1 < heap.length) {
      // the smaller of the two children (the right one only when strictly smaller)
      if (less(heap[child + 1]!, heap[child]!)) child += 1;
      if (!less(heap[child]!, heap[pos]!)) return;
      [heap[pos], heap[child]] = [heap[child]!, heap[pos]!];
      pos = child;
      child = 2 * pos + 1;
    }
    // a last left child without a sibling is compared with its parent too
    if (child + 1 === heap.length && less(heap[child]!, heap[pos]!)) [heap[pos], heap[child]] = [heap[child]!, heap[pos]!];
  };
  for (let i = Math.floor(heap.length / 2) - 1; i >= 0; i--) siftDown(i);
  const out: T[] = [];
  while (heap.length > 0) {
    const top = heap[0]!;
    out.push(top.list[top.index]!);
    if (top.index + 1 < top.list.length) top.index += 1;
    else {
      // swap_remove(0): the last head takes the top's place
      const last = heap.pop()!;
      if (heap.length > 0) heap[0] = last;
    }
    siftDown(0);
  }
  return out;
}
