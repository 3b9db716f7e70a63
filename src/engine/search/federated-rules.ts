/**
 * Whether the hits of two federated queries can be merged (search.md §10.2): their ranking rules,
 * once canonicalised, must line up kind by kind (relevancy, ascending sort, descending sort,
 * ascending or descending geo sort), consecutive relevancy rules counting as one. Meilisearch
 * compares each query with the most constrained earlier one and answers
 * `invalid_multi_search_query_ranking_rules` with a message naming both rules and listing what
 * canonicalisation changed, which this module reproduces word for word.
 *
 * Canonicalisation drops the rules that cannot rank anything for that query: relevancy rules of a
 * placeholder search, `words` under `matchingStrategy: all`, duplicates, `sort` without a `sort`
 * parameter; a keyword search gets `words` prepended before its first relevancy rule; a semantic
 * search keeps its first relevancy rule (where the vector sort goes) and drops the others, or
 * truncates the list at the next one once a field is sorted. Indexes in
 * notes are positions in the setting (or in `sort`); indexes in the two rule lines are positions
 * in the canonical list, as Meilisearch prints them.
 */
import { ApiError } from '../../errors/api-error.js';
import type { MatchingStrategy } from './ranking.js';

type Kind = 'relevancy' | 'ascending sort' | 'descending sort' | 'ascending geo sort' | 'descending geo sort';

/** Where a rule comes from: a ranking rule, a run of them, or an entry of the `sort` parameter. */
type Source = { kind: 'rule'; at: number } | { kind: 'rules'; from: number; to: number } | { kind: 'sort'; rule: number; at: number };

interface Rule {
  readonly source: Source;
  readonly kind: Kind;
}

const RELEVANCY = new Set(['words', 'typo', 'proximity', 'attribute', 'attributeRank', 'wordPosition', 'exactness']);

const ASC_DESC = /^(.+):(asc|desc)$/;

/** The field a sort entry or an `x:asc` rule sorts on; every `_geoPoint(…)` entry counts as one field. */
function sortedField(entry: string): string {
  const field = ASC_DESC.exec(entry)?.[1] ?? entry;
  return field.startsWith('_geoPoint(') ? '_geo' : field;
}

function sortKind(entry: string): Kind {
  const descending = entry.endsWith(':desc');
  if (sortedField(entry) === '_geo') return descending ? 'descending geo sort' : 'ascending geo sort';
  return descending ? 'descending sort' : 'ascending sort';
}

/** How a query ranks: Meilisearch's canonicalization kinds. */
export type RankingKind = 'keyword' | 'placeholder' | 'vector';

/** The canonical ranking rules of one federated query, and the notes on how they were reached. */
export class QueryRankingRules {
  private readonly canonical: string[] = [];
  private canonicalSort: string[] | null = null;
  private readonly notes: string[] = [];

  constructor(
    rules: readonly string[],
    sort: readonly string[] | null,
    strategy: MatchingStrategy,
    kind: RankingKind,
  ) {
    const seen = new Map<string, number>();
    // sorted field → where it was first sorted and that entry's name, for duplicate notes
    const sorted = new Map<string, { position: string; name: string }>();
    // keyword search: undefined until `words` is placed, null when prepended, else its position
    let words: number | null | undefined;
    let sortAt: number | undefined;
    // vector search: where the vector sort went, and whether a later relevancy rule cut the list
    let vectorAt: number | undefined;
    let truncated = false;
    rules.forEach((rule, at) => {
      if (truncated) return;
      if (rule === 'sort') {
        if (sortAt !== undefined) this.notes.push(this.duplicate(`#${sortAt} in ranking rules`, rule, at));
        else if (sort === null) this.notes.push(`   ${this.notes.length + 1}. Removed rule \`sort\` at position #${at} in ranking rules because \`query.sort\` is empty`);
        else {
          sortAt = at;
          this.canonical.push(rule);
          this.canonicalSort = this.canonicaliseSort(sort, at, sorted);
        }
        return;
      }
      if (ASC_DESC.test(rule)) {
        const field = sortedField(rule);
        const earlier = sorted.get(field);
        if (earlier !== undefined) this.notes.push(this.duplicateOf(earlier.position, earlier.name, `#${at} in ranking rules`));
        else {
          sorted.set(field, { position: `#${at} in ranking rules`, name: rule });
          this.canonical.push(rule);
        }
        return;
      }
      if (!RELEVANCY.has(rule)) return;
      if (kind === 'vector') {
        if (vectorAt === undefined) {
          vectorAt = at;
          this.canonical.push(rule);
        } else if (sorted.size === 0) {
          this.notes.push(
            `    ${this.notes.length + 1}. Removed relevancy rule \`${rule}\` at position #${at} in ranking rules because the query is a vector search and \`vector\` was already inserted at position #${vectorAt} in ranking rules`,
          );
        } else {
          this.notes.push(
            `    ${this.notes.length + 1}. Truncated relevancy rule \`${rule}\` at position #${at} in ranking rules and later rules because the query is a vector search and \`vector\` was inserted at position #${vectorAt} in ranking rules`,
          );
          truncated = true;
        }
        return;
      }
      if (kind === 'placeholder') {
        this.notes.push(`    ${this.notes.length + 1}. Removed relevancy rule \`${rule}\` at position #${at} in ranking rules because the query is a placeholder search (\`q\`: "")`);
        return;
      }
      if (rule === 'words') {
        if (strategy === 'all') {
          this.notes.push(`    ${this.notes.length + 1}. Removed rule \`words\` at position #${at} in ranking rules because \`query.matchingWords\` is set to \`all\``);
          return;
        }
        if (typeof words === 'number') {
          this.notes.push(this.duplicate(`#${words} in ranking rules`, rule, at));
          return;
        }
        // Meilisearch notes the removal of a `words` it had prepended, yet keeps this one too
        if (words === null) this.notes.push(`    ${this.notes.length + 1}. Removed rule \`words\` at position #${at} in ranking rules because it was previously prepended`);
        words = at;
        this.canonical.push(rule);
        return;
      }
      if (strategy !== 'all' && words === undefined) {
        this.notes.push(`    ${this.notes.length + 1}. Prepended rule \`words\` before first relevancy rule \`${rule}\` at position #${at} in ranking rules`);
        this.canonical.push('words');
        words = null;
      }
      const earlier = seen.get(rule);
      if (earlier !== undefined) this.notes.push(this.duplicate(`#${earlier} in ranking rules`, rule, at));
      else {
        seen.set(rule, at);
        this.canonical.push(rule);
      }
    });
  }

  /** A note on a ranking rule dropped because it already appears at `earlier`. */
  private duplicate(earlier: string, rule: string, at: number): string {
    return this.duplicateOf(earlier, rule, `#${at} in ranking rules`);
  }

  private duplicateOf(earlier: string, name: string, removed: string): string {
    return `    ${this.notes.length + 1}. Removed duplicate rule \`${name}\` at position ${removed} as it already appears at position ${earlier}`;
  }

  /** The `sort` parameter without the fields sorted earlier; a second geo point is a duplicate of the first. */
  private canonicaliseSort(sort: readonly string[], rule: number, sorted: Map<string, { position: string; name: string }>): string[] {
    const out: string[] = [];
    let geo: { position: string; name: string } | undefined;
    sort.forEach((entry, at) => {
      const position = `#${at} in \`query.sort\` (as \`sort\` is #${rule} in ranking rules)`;
      const isGeo = sortedField(entry) === '_geo';
      const earlier = isGeo ? geo : sorted.get(sortedField(entry));
      if (earlier !== undefined) {
        this.notes.push(this.duplicateOf(earlier.position, earlier.name, position));
        return;
      }
      const first = { position, name: isGeo ? `_geo(..):${entry.endsWith(':desc') ? 'desc' : 'asc'}` : entry };
      if (isGeo) geo = first;
      else sorted.set(sortedField(entry), first);
      out.push(entry);
    });
    return out;
  }

  private coalescedRules: Rule[] | undefined;

  /** The canonical rules, consecutive relevancy rules merged into one (computed once: the rules are final). */
  private coalesced(): Rule[] {
    return (this.coalescedRules ??= this.coalesce());
  }

  private coalesce(): Rule[] {
    const out: Rule[] = [];
    this.canonical.forEach((rule, at) => {
      if (rule === 'sort') {
        (this.canonicalSort ?? []).forEach((entry, j) => out.push({ source: { kind: 'sort', rule: at, at: j }, kind: sortKind(entry) }));
        return;
      }
      if (ASC_DESC.test(rule)) {
        out.push({ source: { kind: 'rule', at }, kind: sortKind(rule) });
        return;
      }
      const last = out[out.length - 1];
      if (last?.kind === 'relevancy' && last.source.kind !== 'sort') {
        const from = last.source.kind === 'rule' ? last.source.at : last.source.from;
        out[out.length - 1] = { source: { kind: 'rules', from, to: at }, kind: 'relevancy' };
      } else out.push({ source: { kind: 'rule', at }, kind: 'relevancy' });
    });
    return out;
  }

  get constraintCount(): number {
    return this.coalesced().length;
  }

  /** `rule` as the error message shows it. */
  private describe(rule: Rule, position: number, uid: string): string {
    const { source } = rule;
    let where: string;
    let names: string | undefined;
    if (source.kind === 'rule') {
      where = `\`queries[${position}]\`, \`${uid}.rankingRules[${source.at}]\``;
      names = this.canonical[source.at];
    } else if (source.kind === 'rules') {
      where = `\`queries[${position}]\`, \`${uid}.rankingRules[${source.from}..=${source.to}]\``;
      names = this.canonical.slice(source.from, source.to + 1).join(', ');
    } else {
      where = `\`queries[${position}].sort[${source.at}]\`, \`${uid}.rankingRules[${source.rule}]\``;
      const entry = this.canonicalSort?.[source.at];
      names = entry === undefined || sortedField(entry) === '_geo' ? undefined : `on field \`${sortedField(entry)}\``;
    }
    return `${where}: ${rule.kind} rule(s) ${names ?? 'default'}`;
  }

  private noteBlock(position: number): string {
    return this.notes.length === 0 ? '' : `  - note: The ranking rules of query #${position} were modified during canonicalization:\n${this.notes.map((note) => `${note}\n`).join('')}`;
  }

  /**
   * Throws `invalid_multi_search_query_ranking_rules` when these rules (query `position` on `uid`)
   * cannot be compared with `previous`'s.
   */
  assertCompatibleWith(previous: { rules: QueryRankingRules; position: number; uid: string }, position: number, uid: string): void {
    const mine = this.coalesced();
    const theirs = previous.rules.coalesced();
    for (let i = 0; i < Math.min(mine.length, theirs.length); i++) {
      if (mine[i]!.kind === theirs[i]!.kind) continue;
      const message =
        `The results of queries #${previous.position} and #${position} are incompatible: \n` +
        `  1. ${previous.rules.describe(theirs[i]!, previous.position, previous.uid)}\n` +
        `  2. ${this.describe(mine[i]!, position, uid)}\n` +
        `  - ${reason(theirs[i]!.kind, mine[i]!.kind)}\n` +
        previous.rules.noteBlock(previous.position) +
        this.noteBlock(position);
      throw new ApiError('invalid_multi_search_query_ranking_rules', message);
    }
  }
}

function reason(previous: Kind, current: Kind): string {
  const family = (kind: Kind) => (kind === 'relevancy' ? 'relevancy' : kind.endsWith('geo sort') ? 'geosort' : 'sort');
  const [a, b] = [family(previous), family(current)];
  if (a === b) return a === 'sort' ? 'cannot compare two sort rules in opposite directions' : 'cannot compare two geosort rules in opposite directions';
  const pair = new Set([a, b]);
  if (pair.has('relevancy')) return pair.has('sort') ? 'cannot compare a relevancy rule with a sort rule' : 'cannot compare a relevancy rule with a geosort rule';
  return 'cannot compare a sort rule with a geosort rule';
}
