/**
 * Meilisearch's own wording for settings that deserialize but are still wrong (settings.md §4–§7,
 * milli `CriterionError`, deserr integer bounds). Pure string builders; the schemas use them as
 * field checks and the processor as task errors.
 */

const BUILTIN_RANKING_RULES = new Set(['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'sort', 'exactness']);

/** Names that sort and filter expressions own; `_geo…(` calls are reserved too. */
const RESERVED_KEYWORDS = new Set(['_geo', '_geojson', '_geoDistance', '_geoPoint', '_geoRadius', '_geoBoundingBox', '_geoPolygon']);
const RESERVED_CALLS = ['_geoRadius(', '_geoBoundingBox(', '_geo(', '_geoDistance('];

const invalidRule = (name: string) =>
  `\`${name}\` ranking rule is invalid. Valid ranking rules are words, typo, sort, proximity, attribute, exactness and custom ranking rules.`;
const reserved = (name: string) => `\`${name}\` is a reserved keyword and thus can't be used as a ranking rule`;
const reservedFor = (name: string, use: 'sorting' | 'filtering') =>
  `${reserved(name)}. \`${name}\` can only be used for ${use} at search time`;

/**
 * Why `rule` is not a ranking rule (milli `Criterion::from_str`), or undefined when it is one.
 * Custom rules split at the LAST `:`, so a field name may itself contain `:`.
 */
export function rankingRuleProblem(rule: string): string | undefined {
  if (BUILTIN_RANKING_RULES.has(rule)) return undefined;
  const colon = rule.lastIndexOf(':');
  const direction = colon === -1 ? '' : rule.slice(colon + 1);
  if (direction !== 'asc' && direction !== 'desc') return invalidRule(rule);
  const field = rule.slice(0, colon);
  // A well-formed `_geoPoint(lat, lng)` is a sort expression, a malformed one a reserved name: both read the same.
  if (field.startsWith('_geoPoint(') && field.endsWith(')')) return reservedFor('_geoPoint', 'sorting');
  if (!RESERVED_KEYWORDS.has(field) && !RESERVED_CALLS.some((call) => field.startsWith(call))) return undefined;
  if (field.startsWith('_geoPoint')) return reservedFor('_geoPoint', 'sorting');
  if (field.startsWith('_geoRadius')) return reservedFor('_geoRadius', 'filtering');
  if (field.startsWith('_geoBoundingBox')) return reservedFor('_geoBoundingBox', 'filtering');
  return reserved(field);
}

export const MIXED_ATTRIBUTE_RULES =
  'Mixed usage of the attribute, attributeRank, and wordPosition ranking rules. You must either use the attribute ranking rule alone or the attributeRank and wordPosition ranking rules.';

/** `attribute` cannot be combined with its two halves. */
export function mixesAttributeRules(rules: readonly string[]): boolean {
  return rules.includes('attribute') && (rules.includes('attributeRank') || rules.includes('wordPosition'));
}

export function typoSizesProblem(oneTypo: number, twoTypos: number): string | undefined {
  if (oneTypo <= twoTypos) return undefined;
  return (
    '`minWordSizeForTypos` setting is invalid. `oneTypo` and `twoTypos` fields should be between `0` and `255`, ' +
    `and \`twoTypos\` should be greater or equals to \`oneTypo\` but found \`oneTypo: ${oneTypo}\` and twoTypos: ${twoTypos}\`.`
  );
}

/** deserr's bound check for a Rust `u8`. */
export function u8Problem(value: unknown): string | undefined {
  if (typeof value !== 'number' || value <= 255) return undefined;
  return `value: \`${value}\` is too large to be deserialized, maximum value authorized is \`255\``;
}

/** deserr's check for a Rust `NonZeroUsize`. */
export function nonZeroProblem(value: unknown): string | undefined {
  if (value !== 0) return undefined;
  return 'a non-zero integer value lower than `18446744073709551615` was expected, but found a zero';
}

/** v1.50's `SemanticRatio` and `RankingScoreThreshold` bounds, in search queries and the chat settings' search parameters. */
const RATIO_REASON = 'the value of `semanticRatio` is invalid, expected a float between `0.0` and `1.0`.';
const THRESHOLD_REASON = 'the value of `rankingScoreThreshold` is invalid, expected a float between `0.0` and `1.0`.';

/** `reason` when `value` is a number outside 0–1 (v1.50 compares `f > 1.0 || f < 0.0`, which a NaN passes). */
const unitProblem =
  (reason: string) =>
  (value: unknown): string | undefined =>
    typeof value === 'number' && (value > 1 || value < 0) ? reason : undefined;

export const semanticRatioProblem = unitProblem(RATIO_REASON);
export const rankingScoreThresholdProblem = unitProblem(THRESHOLD_REASON);

/** How Rust prints an `f32`: the shortest decimal that reads back as the same `f32`. */
function f32Text(value: number): string {
  const target = Math.fround(value);
  for (let digits = 1; digits <= 9; digits++) {
    const candidate = Number(target.toPrecision(digits));
    if (Math.fround(candidate) === target) return String(candidate);
  }
  return String(target);
}

/** The `distribution` ranges of milli's `DistributionShift` deserializer, as a schema value check. */
export function distributionProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { mean, sigma } = value as { mean?: unknown; sigma?: unknown };
  if (typeof mean !== 'number' || typeof sigma !== 'number') return undefined;
  if (mean < 0 || mean > 1) return `the distribution mean must be in the range [0, 1], got ${f32Text(mean)}`;
  if (sigma <= 0 || sigma > 1) return `the distribution sigma must be in the range ]0, 1], got ${f32Text(sigma)}`;
  return undefined;
}
