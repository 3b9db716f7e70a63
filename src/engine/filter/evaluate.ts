/**
 * Filter evaluation: FilterAst → the DocSet of matching documents, read from the facet data
 * (engine/facets/store.ts) and the `_geojson` shapes (facets/geojson-filter.ts) only — documents
 * are never scanned. Semantics of filter.md §3,
 * errors of §4 (Meilisearch `IndexFilter::evaluate`, `value_bounds.rs`).
 *
 * Callers: document routes and deletions by filter, search. They parse the filter and check the
 * experimental-feature gates first (gates.ts); this module checks the attributes (gates.ts
 * `assertFilterable`, each attribute's rule looked up once), then evaluates.
 * Reads only: run it on a read snapshot, or inside the batch's transaction.
 *
 * Semantics worth knowing:
 * - every token is a string, and also a number when it reads as a finite f64: `=` and ranges
 *   match number values numerically and string values bytewise on their normalised forms;
 * - `!=` and `NOT` complement against all documents, so documents without the field match;
 * - a path no document ever had matches nothing and skips the granular-rule operator check;
 * - `AND` evaluates its operands in order within what the previous ones kept, and stops once
 *   nothing is left (as Meilisearch does, later operands then raise no error).
 * - the work of one evaluation is bounded (work.ts): past it, the route's filter error, located
 *   on the condition being evaluated.
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { osaWithin } from '../../types/edit-distance.js';
import { fragmentsOf } from '../../types/fragments.js';
import type { IndexSettings } from '../../types/settings.js';
import { difference, EMPTY, fromSorted, intersect, unionAll, type DocSet } from '../docset.js';
import { FacetKind } from '../facets/extract.js';
import { geojsonFilterable, geoFilterable } from '../facets/fields.js';
import { badLatitudeMessage, badLongitudeMessage, EARTH_RADIUS, haversine, type LatLng } from '../facets/geo.js';
import { FacetReader, type Bound, type ReadMeter } from '../facets/store.js';
import { columnRanges } from '../facets/value-columns.js';
import { ENTRY_UNITS, FilterWork, RULE_UNITS } from './work.js';
import { shapesRelating } from '../facets/geojson-filter.js';
import { boxPolygon, circlePolygon, densified, queryPolygon, type QueryPolygon } from '../facets/geojson-shape.js';
import { normalizeFacet, parseFiniteFloat, rustFloat } from '../facets/values.js';
import { formatFilterError, type FilterAst, type GeoPoint, type Token, type VectorTarget } from '../filter-parser/index.js';
import type { IndexReadEnv } from '../index-read-env.js';
import type { FilterFeatures } from '../../types/attribute-patterns.js';
import { notFilterableMessage } from '../facets/filterable.js';
import { assertFilterable, FilterRules, foreignNotSupported } from './gates.js';
import { evaluateShardCondition, SHARD_FIELD } from '../shards/shard-filter.js';

export interface EvaluateOptions {
  /** The error code of the route's filter parameter (default `invalid_search_filter`). */
  readonly code?: ErrorCode;
  /**
   * `_vectors[.<embedder>[.<part>]] EXISTS`: the documents having such vectors, as the vector
   * store (engine/vectors) answers them.
   */
  readonly vectors: (embedder: string, target: VectorTarget) => DocSet;
  /**
   * Whether the value columns may answer ranges and prefixes (facets/value-columns.ts
   * `columnRanges`): only on a read snapshot of the thread that searches, whose columns they are.
   */
  readonly columns?: boolean;
}

/**
 * The documents of the index matching `ast`.
 * @throws ApiError(code) for attributes that are not filterable, operators a granular rule
 *   forbids, bad geo arguments.
 */
export function evaluateFilter(env: IndexReadEnv, settings: IndexSettings, ast: FilterAst, options: EvaluateOptions): DocSet {
  const code = options.code ?? 'invalid_search_filter';
  return new Evaluator(env, settings, code, options.vectors, options.columns === true).run(ast);
}

type Condition = Extract<FilterAst, { type: 'comparison' | 'between' | 'exists' | 'isNull' | 'isEmpty' | 'contains' | 'startsWith' }>;

/** The operator names of granular-rule errors and the feature each needs. */
const NEEDS: Partial<Record<string, 'equality' | 'comparison'>> = {
  '=': 'equality',
  '!=': 'equality',
  '>': 'comparison',
  '>=': 'comparison',
  '<': 'comparison',
  '<=': 'comparison',
  TO: 'comparison',
};

function allowedOperators(features: FilterFeatures): string[] {
  if (!features.equality && !features.comparison) return [];
  return [
    'OR',
    'AND',
    'NOT',
    ...(features.equality ? ['=', '!=', 'IN'] : []),
    ...(features.comparison ? ['<', '>', '<=', '>=', 'TO'] : []),
    'IS EMPTY',
    'IS NULL',
    'EXISTS',
  ];
}

/** v1.50's operator names of the conditions without an `operator`, as `_shard` errors show them. */
const SHARD_OPERATORS: Partial<Record<Condition['type'], string>> = {
  between: 'TO',
  exists: 'EXISTS',
  isNull: 'IS NULL',
  isEmpty: 'IS EMPTY',
  contains: 'CONTAINS',
  startsWith: 'STARTS WITH',
};

/** A condition's attribute: its facet field id and the rule deciding its operators. */
interface Target {
  field: string;
  fid: number;
  features: FilterFeatures;
  rule: number;
}

/** `_geoRadius`'s points on its circle when the filter gives none (v1.50's default). */
const DEFAULT_CIRCLE_RESOLUTION = 125;

/** Rust's `f64 as usize`: truncation, saturating at 0. */
const asUsize = (value: number): number => (value > 0 ? Math.trunc(value) : 0);

class Evaluator {
  private universe: DocSet | undefined;
  private readonly reader: FacetReader;
  /** what the reader and the `_geojson` scans tell of their reads, charged to `work` */
  private readonly meter: ReadMeter;
  private readonly work: FilterWork;
  private readonly rules: FilterRules;
  /** the token of the condition being evaluated: where an error of the work bound points */
  private at: Token | undefined;

  constructor(
    private readonly env: IndexReadEnv,
    private readonly settings: IndexSettings,
    private readonly code: ErrorCode,
    private readonly vectors: EvaluateOptions['vectors'],
    columns: boolean,
  ) {
    this.meter = { read: (entries, docids) => this.work.charge(entries * ENTRY_UNITS + docids) };
    this.reader = new FacetReader(env, this.meter, columns ? columnRanges(env, this.meter) : undefined);
    this.work = new FilterWork(FilterWork.limitFor(this.reader.allDocids().length), () => this.refuse());
    this.rules = new FilterRules(settings.filterableAttributes, (checked) => this.work.charge(checked * RULE_UNITS));
  }

  private refuse(): never {
    const message = `The filter needs too much work to evaluate: more than ${this.work.limit} units (a facet value read is ${ENTRY_UNITS}, a document combined is 1). Use fewer conditions, or narrower ranges.`;
    throw new ApiError(this.code, this.at === undefined ? message : formatFilterError(message, this.at.span));
  }

  private all(): DocSet {
    this.universe ??= this.reader.allDocids();
    return this.universe;
  }

  /** The documents matching `ast`, once every attribute it names is known to be filterable. */
  run(ast: FilterAst): DocSet {
    assertFilterable(ast, this.rules, this.code, (field) => (this.at = field));
    return this.evaluate(ast, null);
  }

  /** `within`: what the enclosing `AND` kept so far (null = everything). Results may exceed it. */
  private evaluate(ast: FilterAst, within: DocSet | null): DocSet {
    if (within !== null && within.length === 0) return EMPTY;
    switch (ast.type) {
      case 'and': {
        let kept = this.evaluate(ast.children[0]!, within);
        for (const child of ast.children.slice(1)) {
          if (kept.length === 0) break;
          kept = this.intersect(kept, this.evaluate(child, kept));
        }
        return kept;
      }
      case 'or':
        return this.union(ast.children.map((child) => this.evaluate(child, within)));
      case 'not':
        return this.difference(within ?? this.all(), this.evaluate(ast.child, within));
      case 'in': {
        this.at = ast.field;
        if (ast.field.value === SHARD_FIELD) return this.shard('IN', ast.values);
        const target = this.target(ast.field);
        if (target === null) return EMPTY;
        return this.union(ast.values.map((value) => this.equal(target, value)));
      }
      case 'vectorExists':
        this.at = ast.field;
        return this.vectorExists(ast.embedder, ast.target, within);
      case 'geoRadius':
        this.at = ast.center[0];
        return this.geoRadius(ast.center, ast.radius, ast.resolution);
      case 'geoBoundingBox':
        this.at = ast.topRight[0];
        return this.geoBoundingBox(ast.topRight, ast.bottomLeft);
      case 'geoPolygon':
        this.at = ast.points[0]![0];
        return this.geoPolygon(ast.points);
      case 'foreign':
        throw foreignNotSupported(ast.field, this.code);
      default:
        return this.condition(ast);
    }
  }

  /** The field id and deciding rule of a condition's attribute; null = the condition matches nothing. */
  private target(field: Token): Target | null {
    const fid = this.reader.fieldId(field.value);
    if (fid === undefined) return null;
    const rule = this.rules.of(field.value);
    return rule === null ? null : { field: field.value, fid, features: rule.features, rule: rule.index };
  }

  private allow(target: Omit<Target, 'fid'>, operator: string): void {
    const needed = NEEDS[operator];
    if (needed === undefined || target.features[needed]) return;
    const { field, rule } = target;
    throw new ApiError(
      this.code,
      `Filter operator \`${operator}\` is not allowed for the attribute \`${field}\`.\n` +
        `  - Note: allowed operators: ${allowedOperators(target.features).join(', ')}.\n` +
        `  - Note: field \`${field}\` matched rule #${rule} in \`filterableAttributes\`\n` +
        `  - Hint: enable ${needed} in rule #${rule} by modifying the features.filter object\n` +
        `  - Hint: prepend another rule matching \`${field}\` with appropriate filter features before rule #${rule}`,
    );
  }

  private equal(target: Target, value: Token): DocSet {
    this.allow(target, '=');
    return this.reader.equal(target.fid, normalizeFacet(value.value), parseFiniteFloat(value.value));
  }

  /** A condition on `_shard` (shards/shard-filter.ts). */
  private shard(operator: string, values: readonly Token[]): DocSet {
    const condition = operator === '=' || operator === '!=' || operator === 'IN' ? { operator, values: values.map((value) => value.value) } : { operator };
    const found = evaluateShardCondition(this.env, condition, () => this.all());
    this.work.combine([found]);
    return found;
  }

  /** The union of `sets`, charged. */
  private union(sets: DocSet[]): DocSet {
    this.work.combine(sets);
    return unionAll(sets);
  }

  /** `a ∩ b`, charged. */
  private intersect(a: DocSet, b: DocSet): DocSet {
    this.work.combine([a, b]);
    return intersect(a, b);
  }

  /** `a` without `b`, charged. */
  private difference(a: DocSet, b: DocSet): DocSet {
    this.work.combine([a, b]);
    return difference(a, b);
  }

  private condition(ast: Condition): DocSet {
    this.at = ast.field;
    if (ast.field.value === SHARD_FIELD) return this.shard(SHARD_OPERATORS[ast.type] ?? ('operator' in ast ? ast.operator : ''), 'value' in ast ? [ast.value] : []);
    const target = this.target(ast.field);
    if (target === null) return EMPTY;
    const { fid } = target;
    switch (ast.type) {
      case 'comparison': {
        const { operator, value } = ast;
        if (operator === '=') return this.equal(target, value);
        this.allow(target, operator);
        if (operator === '!=') return this.difference(this.all(), this.reader.equal(fid, normalizeFacet(value.value), parseFiniteFloat(value.value)));
        const inclusive = operator.endsWith('=');
        const above = operator.startsWith('>');
        return this.range(fid, above ? value : null, above ? null : value, inclusive);
      }
      case 'between': {
        this.allow(target, 'TO');
        const from = parseFiniteFloat(ast.from.value);
        const to = parseFiniteFloat(ast.to.value);
        const low = normalizeFacet(ast.from.value);
        const high = normalizeFacet(ast.to.value);
        return this.union([
          from === null || to === null ? EMPTY : this.reader.numberRange(fid, { value: from, inclusive: true }, { value: to, inclusive: true }),
          this.reader.stringRange(fid, { value: low, inclusive: true }, { value: high, inclusive: true }),
        ]);
      }
      case 'exists':
        return this.reader.flagged(fid, FacetKind.exists);
      case 'isNull':
        return this.reader.flagged(fid, FacetKind.null);
      case 'isEmpty':
        return this.reader.flagged(fid, FacetKind.empty);
      case 'contains':
        return this.reader.stringContains(fid, normalizeFacet(ast.value.value));
      case 'startsWith': {
        const prefix = normalizeFacet(ast.value.value);
        return prefix === '' ? this.reader.flagged(fid, FacetKind.exists) : this.reader.stringPrefix(fid, prefix);
      }
    }
  }

  /** `>`, `>=` (`low`) or `<`, `<=` (`high`): numbers when the token is one, and strings. */
  private range(fid: number, low: Token | null, high: Token | null, inclusive: boolean): DocSet {
    const token = (low ?? high)!;
    const number = parseFiniteFloat(token.value);
    const normalized = normalizeFacet(token.value);
    const bound = <T>(value: T): Bound<T> => ({ value, inclusive });
    return this.union([
      number === null ? EMPTY : this.reader.numberRange(fid, low === null ? null : bound(number), high === null ? null : bound(number)),
      this.reader.stringRange(fid, low === null ? null : bound(normalized), high === null ? null : bound(normalized)),
    ]);
  }

  private vectorExists(embedder: Token | null, target: VectorTarget, within: DocSet | null): DocSet {
    const configured = Object.keys(this.settings.embedders).sort();
    const names = embedder === null ? configured : [embedder.value];
    if (embedder !== null && !configured.includes(embedder.value)) {
      const available =
        configured.length === 0
          ? 'This index does not have any configured embedders.'
          : `Available embedders are: ${configured.map((name) => `\`${name}\``).join(', ')}.${didYouMean(embedder.value, configured)}`;
      throw new ApiError(this.code, formatFilterError(`The embedder \`${embedder.value}\` does not exist. ${available}`, embedder.span));
    }
    if (names.length === 0) return EMPTY;
    if (embedder !== null && target.kind === 'fragment') this.checkFragment(embedder, target.name);
    const found = this.union(names.map((name) => this.vectors(name, target)));
    return within === null ? found : this.intersect(found, within);
  }

  /** `_vectors.<embedder>.fragments.<name>` must name one of the embedder's indexing fragments (milli's `FragmentDoesNotExist`). */
  private checkFragment(embedder: Token, fragment: Token): void {
    const available = fragmentsOf(this.settings.embedders[embedder.value]!, 'indexingFragments').map(([name]) => name);
    if (available.includes(fragment.value)) return;
    const tail =
      available.length === 0
        ? 'This embedder does not have any configured fragments.'
        : `Available fragments on this embedder are: ${available.map((name) => `\`${name}\``).join(', ')}.${didYouMean(fragment.value, available)}`;
    throw new ApiError(this.code, formatFilterError(`The fragment \`${fragment.value}\` does not exist on embedder \`${embedder.value}\`. ${tail}`, fragment.span));
  }

  // --- geo ---

  private float(token: Token): number {
    const value = parseFiniteFloat(token.value);
    if (value === null) throw new ApiError(this.code, formatFilterError('Non finite floats are not supported', token.span));
    return value;
  }

  /** A point's coordinates, range-checked. */
  private coordinates(point: GeoPoint): LatLng {
    const lat = this.float(point[0]);
    const lng = this.float(point[1]);
    return this.checkPoint(point, lat, lng);
  }

  private checkPoint(point: GeoPoint, lat: number, lng: number): LatLng {
    if (!(lat >= -90 && lat <= 90)) throw new ApiError(this.code, formatFilterError(badLatitudeMessage(lat), point[0].span));
    if (!(lng >= -180 && lng <= 180)) throw new ApiError(this.code, formatFilterError(badLongitudeMessage(lng), point[1].span));
    return [lat, lng];
  }

  /**
   * Which of `_geo` points and `_geojson` shapes a geo filter reads (v1.50 unions both when both
   * are filterable), or the error naming `_geo/_geojson` at `where`.
   */
  private geoSources(where: Token): { points: boolean; shapes: boolean } {
    const points = geoFilterable(this.settings);
    const shapes = geojsonFilterable(this.settings);
    if (!points && !shapes) {
      throw new ApiError(this.code, formatFilterError(notFilterableMessage('_geo/_geojson', this.settings.filterableAttributes), where.span));
    }
    return { points, shapes };
  }

  /** The documents whose `_geojson` shape relates to `polygon`. */
  private shapes(polygon: QueryPolygon): DocSet {
    const found = shapesRelating(this.env, polygon, this.code, this.meter);
    if (found !== null) return found;
    if (this.all().length === 0) return EMPTY;
    // an index made filterable on `_geojson` before shapes were indexed: refused, not answered wrongly
    throw new ApiError(this.code, 'The `_geojson` shapes of this index are not indexed yet: they are at its next document addition or settings update.');
  }

  private geoRadius(center: GeoPoint, radiusToken: Token, resolutionToken: Token | null): DocSet {
    const point = this.coordinates(center);
    const radius = this.float(radiusToken);
    let resolution = DEFAULT_CIRCLE_RESOLUTION;
    if (resolutionToken !== null) {
      resolution = asUsize(this.float(resolutionToken));
      if (resolution < 3 || resolution > 1000) {
        throw new ApiError(this.code, formatFilterError(`Invalid resolution \`${resolution}\`. Resolution must be between 3 and 1000.`, resolutionToken.span));
      }
    }
    const sources = this.geoSources(center[0]);
    const found = sources.points ? this.pointsAround(point, radius) : EMPTY;
    return sources.shapes ? this.union([found, this.shapes(densified(circlePolygon(point[0], point[1], radius, resolution)))]) : found;
  }

  /** The documents whose `_geo` point lies within `radius` metres of `point`. */
  private pointsAround(point: LatLng, radius: number): DocSet {
    const latFid = this.reader.fieldId('_geo.lat');
    if (latFid === undefined) return EMPTY;
    // Every point within `radius` lies in this latitude band; the exact distance decides after. A
    // band reaching a pole is open there: a stored latitude may lie past it (v1.50 indexes 90.0000001)
    const band = (radius / EARTH_RADIUS) * (180 / Math.PI) * (1 + 1e-9) + 1e-9;
    const low = point[0] - band;
    const high = point[0] + band;
    const candidates = this.reader.numberRange(latFid, low <= -90 ? null : { value: low, inclusive: true }, high >= 90 ? null : { value: high, inclusive: true });
    const inside: number[] = [];
    for (const docid of candidates) {
      const where = this.reader.point(docid);
      if (where !== undefined && haversine(point, where) <= radius + Number.EPSILON) inside.push(docid);
    }
    return fromSorted(inside);
  }

  private geoBoundingBox(topRight: GeoPoint, bottomLeft: GeoPoint): DocSet {
    const values = [this.float(topRight[0]), this.float(topRight[1]), this.float(bottomLeft[0]), this.float(bottomLeft[1])] as const;
    const [top, right] = this.checkPoint(topRight, values[0], values[1]);
    const [bottom, left] = this.checkPoint(bottomLeft, values[2], values[3]);
    if (top < bottom) {
      throw new ApiError(
        this.code,
        formatFilterError(`The top latitude \`${rustFloat(top)}\` is below the bottom latitude \`${rustFloat(bottom)}\`.`, bottomLeft[1].span),
      );
    }
    const sources = this.geoSources(topRight[0]);
    let found: DocSet = EMPTY;
    if (sources.points) {
      // Meilisearch rewrites the box as `_geo.lat` / `_geo.lng` TO conditions, rule checks included.
      const lat = this.between('_geo.lat', bottom, top);
      const lng = left <= right ? this.between('_geo.lng', left, right) : this.union([this.between('_geo.lng', left, 180), this.between('_geo.lng', -180, right)]);
      found = this.intersect(lat, lng);
    }
    if (!sources.shapes) return found;
    // a box across the antimeridian is wrapped, as for points, rather than read west to east in the plane
    const boxes = left <= right ? [boxPolygon(top, right, bottom, left)] : [boxPolygon(top, 180, bottom, left), boxPolygon(top, right, bottom, -180)];
    return this.union([found, ...boxes.map((box) => this.shapes(densified(box)))]);
  }

  private between(field: string, from: number, to: number): DocSet {
    const fid = this.reader.fieldId(field);
    const rule = this.rules.of(field);
    if (fid === undefined || rule === null) return EMPTY;
    this.allow({ field, features: rule.features, rule: rule.index }, 'TO');
    return this.reader.numberRange(fid, { value: from, inclusive: true }, { value: to, inclusive: true });
  }

  private geoPolygon(points: readonly GeoPoint[]): DocSet {
    if (!geojsonFilterable(this.settings)) {
      throw new ApiError(this.code, formatFilterError(notFilterableMessage('_geojson', this.settings.filterableAttributes), points[0]![0].span));
    }
    const ring = new Float64Array(2 * points.length);
    points.forEach((point, at) => {
      const [lat, lng] = this.coordinates(point);
      ring[2 * at] = lng;
      ring[2 * at + 1] = lat;
    });
    return this.shapes(densified(queryPolygon(ring)));
  }
}

/** milli's `DidYouMean`: ` Did you mean \`x\`?` for the first name within two typos (a transposition counting one), else nothing. */
function didYouMean(name: string, available: readonly string[]): string {
  const suggestion = available.find((candidate) => osaWithin(name, candidate, 2));
  return suggestion === undefined ? '' : ` Did you mean \`${suggestion}\`?`;
}
