/**
 * Checks run on a parsed filter before it reaches an index (filter.md §5), in Meilisearch's
 * order (`check_filter_experimental_features`): `CONTAINS`, `_foreign`, `_shard`, `_vectors`,
 * each refused with `feature_not_enabled` unless its experimental feature is on; then, for
 * endpoints that evaluate on one index only, `_foreign(...)` is refused with the route's code.
 * Callers: every route taking a filter (documents, search, facet-search, similar, edit).
 * Then, where an index evaluates the filter (evaluate.ts), `assertFilterable`: every attribute
 * it uses must be filterable by the index's `filterableAttributes` (../facets/filterable.ts).
 */
import { ApiError } from '../../errors/api-error.js';
import type { ErrorCode } from '../../errors/codes.js';
import { matchingRule } from '../../types/attribute-patterns.js';
import type { FilterableEntry } from '../../types/settings.js';
import { isFilterable, notFilterableMessage } from '../facets/filterable.js';
import { filterFields, findContainsOperator, findField, findForeignFilter, findVectorFilter, formatFilterError, type FilterAst, type Token } from '../filter-parser/index.js';

/** The experimental features a filter can need. */
export type FilterFeature = 'containsFilter' | 'foreignKeys' | 'network' | 'multimodal';

const GATES: readonly { feature: FilterFeature; find: (ast: FilterAst) => Token | null; message: string }[] = [
  {
    feature: 'containsFilter',
    find: findContainsOperator,
    message: 'Using `CONTAINS` in a filter requires enabling the `contains filter` experimental feature. See https://github.com/orgs/meilisearch/discussions/763',
  },
  {
    feature: 'foreignKeys',
    find: findForeignFilter,
    message: 'using a foreign filter requires enabling the `foreign_keys` experimental feature. See https://github.com/orgs/meilisearch/discussions/873',
  },
  {
    feature: 'network',
    find: (ast) => findField(ast, '_shard'),
    message: 'using a shard filter requires enabling the `network` experimental feature. See https://github.com/orgs/meilisearch/discussions/805',
  },
  {
    feature: 'multimodal',
    find: findVectorFilter,
    message: 'using a vector filter requires enabling the `multimodal` experimental feature. See https://github.com/orgs/meilisearch/discussions/846',
  },
];

/** Throws `feature_not_enabled` for the first operator whose experimental feature is off. */
export function assertFilterFeatures(ast: FilterAst, enabled: (feature: FilterFeature) => boolean): void {
  for (const gate of GATES) {
    if (enabled(gate.feature)) continue;
    const token = gate.find(ast);
    if (token !== null) throw new ApiError('feature_not_enabled', formatFilterError(gate.message, token.span));
  }
}

/** For endpoints working on one index: `_foreign(...)` is refused with the route's filter code. */
export function rejectForeignFilter(ast: FilterAst, code: ErrorCode): void {
  const token = findForeignFilter(ast);
  if (token !== null) throw foreignNotSupported(token, code);
}

/** The error of a `_foreign(...)` call (its field token) reaching one index. */
export function foreignNotSupported(field: Token, code: ErrorCode): ApiError {
  return new ApiError(code, formatFilterError('Filter condition `_foreign` is not supported for this endpoint.', field.span));
}

// Experimental filters that Meilisearch lets through without a filterable rule.
const ALWAYS_FILTERABLE = new Set(['_vectors', '_shard']);

/** The rule deciding a filterable attribute's features, with its position in `filterableAttributes`. */
export type FilterRule = NonNullable<ReturnType<typeof matchingRule>>;

/**
 * The rule of each attribute one filter names, looked up once per attribute (a filter of 10,000
 * conditions on one attribute, matched against 10,000 rules each time, made 100 million rule
 * checks: 2.4 s). `charge` is told of the rules each lookup checks (the filter's work bound).
 */
export class FilterRules {
  private readonly found = new Map<string, FilterRule | null>();

  constructor(
    readonly rules: readonly FilterableEntry[],
    private readonly charge: (checked: number) => void,
  ) {}

  of(field: string): FilterRule | null {
    let rule = this.found.get(field);
    if (rule === undefined) {
      rule = matchingRule(field, this.rules);
      this.charge(rule === null ? this.rules.length : rule.index + 1);
      this.found.set(field, rule);
    }
    return rule;
  }
}

/**
 * Throws `ApiError(code)` naming the attribute Meilisearch reports (see `filterFields` for the
 * order) when the filter uses an attribute no rule makes filterable. `at` is told of each
 * attribute before its rule is looked up.
 */
export function assertFilterable(ast: FilterAst, rules: FilterRules, code: ErrorCode, at: (field: Token) => void = () => {}): void {
  for (const field of filterFields(ast)) {
    if (ALWAYS_FILTERABLE.has(field.value)) continue;
    at(field);
    const rule = rules.of(field.value);
    if (rule !== null && isFilterable(rule.features)) continue;
    throw new ApiError(code, formatFilterError(notFilterableMessage(field.value, rules.rules), field.span));
  }
}
