/**
 * The work one filter's evaluation may do: Quarry's bound, not Meilisearch's (v1.50 has none).
 *
 * Why: a filter is evaluated on the thread that answers requests, and a condition does not cost
 * a few microseconds but the facet entries it reads and the documents it yields: a range over
 * 36,000 titles reads 36,000 entries (15–45 ms), `NOT id = 1` yields every document, so 300
 * string ranges ORed took 70 s and 10,000 `NOT id = n` 44 s within the 10,000-condition bound.
 *
 * Units are about 10 ns of this machine's work (2 × AMD EPYC, measured 2026-12-03): a docid
 * produced or combined costs 1, a filterable rule checked RULE_UNITS, a facet entry or a `_geo`
 * point read ENTRY_UNITS (0.4 µs in a scan); the `_geojson` conditions spend from the same budget
 * (facets/geojson-filter.ts). The bound is PASSES reads of as many facet entries as the index has
 * documents, so that a few conditions over a field with a value per document fit, within FLOOR
 * (about 0.25 s, enough for most filters of a small index) and CEILING (about 2 s, a large
 * index's).
 */
/** What reading one LMDB facet entry (or a `_geo` point) costs, in docids combined. */
export const ENTRY_UNITS = 40;
/** What checking one `filterableAttributes` rule against an attribute costs (gates.ts `FilterRules`). */
export const RULE_UNITS = 1;
/** Reads of a facet entry per document one filter may do. */
const PASSES = 8;
const FLOOR = 20_000_000;
const CEILING = 200_000_000;

export class FilterWork {
  remaining: number;

  /** `refuse` throws the error of a filter past its bound. */
  constructor(
    readonly limit: number,
    private readonly refuse: () => never,
  ) {
    this.remaining = limit;
  }

  /** The bound of a filter over an index of `documents` documents. */
  static limitFor(documents: number): number {
    return Math.min(CEILING, Math.max(FLOOR, PASSES * ENTRY_UNITS * documents));
  }

  charge(units: number): void {
    this.remaining -= units;
    if (this.remaining < 0) this.refuse();
  }

  /** Charges the docids of `sets`, combined into one. */
  combine(sets: readonly ArrayLike<number>[]): void {
    let units = 0;
    for (const set of sets) units += set.length;
    this.charge(units);
  }
}
