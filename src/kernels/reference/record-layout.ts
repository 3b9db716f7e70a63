/**
 * Plain TypeScript reference of the record-laying kernel (assembly/record-layout.ts): a stored
 * forward record's words in, the laid record's words out. The tests compare the kernel against it.
 */

/** The laid words of the stored record `stored` (u32 words), laid at u32 index `head`. */
export function referenceLayRecord(stored: ArrayLike<number>, head: number): number[] {
  const n = stored.length;
  // counts are cut to the words the record holds
  const nFields = n >= 2 ? Math.min(stored[0]!, n - 2) : 0;
  const fields = Array.from({ length: nFields }, (_, k) => stored[1 + k]!);
  const nTokens = n >= 2 ? Math.min(stored[1 + nFields]!, Math.floor((n - 2 - nFields) / 2)) : 0;
  const pairs = Array.from({ length: nTokens }, (_, k): [number, number] => [stored[2 + nFields + 2 * k]!, stored[3 + nFields + 2 * k]!]);
  // consecutive pairs of one word id make one run
  const runs: { id: number; places: number[] }[] = [];
  for (const [id, place] of pairs) {
    const last = runs[runs.length - 1];
    if (last !== undefined && last.id === id) last.places.push(place);
    else runs.push({ id, places: [place] });
  }
  const placesAt = head + 3 + nFields + 2 * runs.length + 1;
  const starts: number[] = [];
  let at = placesAt;
  for (const run of runs) {
    starts.push(at);
    at += run.places.length;
  }
  return [nFields, ...fields, nTokens, runs.length, ...runs.map((run) => run.id), ...starts, at, ...runs.flatMap((run) => run.places)];
}
