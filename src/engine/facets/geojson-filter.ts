/**
 * The documents whose `_geojson` shape relates to a query polygon (the `_geojson` half of
 * `_geoPolygon`, `_geoBoundingBox` and `_geoRadius`, v1.50's `cellulite.in_shape`): a scan of
 * the index's shapes (updater.ts), each skipped on its bounding box before the exact test
 * (geojson-shape.ts `relates`). The work of one query (positions read, edges tested) is bounded
 * (MAX_WORK), so a filter over large shapes is refused rather than let run for seconds; it is
 * also spent from the whole filter's budget (filter/work.ts), so that many such queries are too.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { fromSorted, type DocSet } from '../docset.js';
import { INDEX_MAIN_KEYS, type IndexReadEnv } from '../index-read-env.js';
import type { ReadMeter } from './store.js';
import { BOX_BYTES, decodeShape, encodedBox, POSITION_COST, relates, type QueryPolygon, type WorkBudget } from './geojson-shape.js';

/** The work one query may do (geojson-shape.ts `WorkBudget`: edge tests and positions read): a few tenths of a second. */
const MAX_WORK = 40_000_000;

/** A docid combined, a filter budget's unit, costs about 2.5 of this query's (an edge test: 40 million took 0.15 s). */
const DOCIDS_PER_WORK = 0.4;

/**
 * The documents of `env` whose shape relates to `polygon`, or null when the index holds no
 * complete record of its shapes (written before shapes were indexed, and not written since).
 * `meter`: the whole filter's (filter/work.ts), told of each key read as a facet entry and of this
 * query's work as docids combined.
 */
export function shapesRelating(env: IndexReadEnv, polygon: QueryPolygon, code: ErrorCode, meter: ReadMeter): DocSet | null {
  if (env.geojsonShapes === undefined || env.main.get(INDEX_MAIN_KEYS.geojsonShapes) !== true) return null;
  const [minLng, minLat, maxLng, maxLat] = polygon.box;
  const budget: WorkBudget = { remaining: MAX_WORK };
  const found: number[] = [];
  const shapes = env.geojsonShapes;
  // keys, then each value by a fast read (lmdb's reused buffer, read before the next lookup): a
  // range would copy every value, megabytes for a large shape, into fresh memory
  for (const key of shapes.getKeys({})) {
    meter.read(1, 0);
    const value = shapes.getBinaryFast(key)!;
    const [left, bottom, right, top] = encodedBox(value);
    // NaN (an empty collection) fails every comparison: it relates to nothing
    if (!(left <= maxLng && right >= minLng && bottom <= maxLat && top >= minLat)) continue;
    // decoding copies every position (16 bytes each after the box): paid before it is done
    budget.remaining -= (POSITION_COST * (value.length - BOX_BYTES)) / 16;
    if (budget.remaining >= 0 && relates(decodeShape(value), polygon, budget)) found.push(key);
    if (budget.remaining < 0) {
      throw new ApiError(code, 'The `_geojson` shapes this filter must compare are too large: use a smaller area or fewer points.');
    }
  }
  meter.read(0, DOCIDS_PER_WORK * (MAX_WORK - budget.remaining));
  return fromSorted(found);
}
