/**
 * The feature mixes of the peer benchmark (`npm run bench:peers -- movies --features`), on the
 * movies dataset's query set, every answer capped at 20 hits:
 *
 * - faceted: each query (its own filter dropped) with the value counts of `genres` over all its
 *   matches. Engines without facets count in JS over every matching id (their `how` says so).
 * - filtered: each query with `genres = Drama AND release_date > 1980-01-01`.
 * - highlighted: each query with words, `title` and `overview` highlighted, `overview` cropped
 *   to 20 words. Engines without a highlighter are n/a.
 * - multi-search: the queries in groups of 3. Quarry answers a group with one POST
 *   /multi-search; every engine, Quarry included, also runs it as 3 sequential searches.
 * - federated: the same groups merged into one top 20 (Quarry's `federation`); others n/a.
 *
 * A first pass over each mix checks the answers (filters hold on every hit, marks and crops are
 * there, the placeholder's facet counts equal the dataset's, multi-search agrees with single
 * searches); then `measure` warms up and times the mix.
 */
import { matchesFilter, type Dataset, type Doc, type FilterClause, type Query } from './datasets.js';
import { fmt, measure, ratio, type Latency } from './latency.js';
import { countValues } from './peers/count-values.js';
import type { Engine, FeatureMix, HighlightRequest } from './peers/engine.js';

const FACET = 'genres';
const RELEASED_AFTER = Date.UTC(1980, 0, 1) / 1000;
const FILTER: FilterClause[] = [
  { field: 'genres', op: 'eq', value: 'Drama' },
  { field: 'release_date', op: 'gt', value: RELEASED_AFTER },
];
const MEILI_FILTER = `genres = Drama AND release_date > ${RELEASED_AFTER}`;
const HIGHLIGHT: HighlightRequest = { attributes: ['title', 'overview'], crop: 'overview', cropWords: 20 };
const PER_REQUEST = 3;
const MARK = '<em>';

const MIXES: FeatureMix[] = ['faceted', 'filtered', 'highlighted', 'multi-search', 'federated'];

/** One line of the feature table: a mix as one engine answers it, or n/a with the reason. */
export interface MixRow {
  mix: FeatureMix;
  how: string;
  /** the engine's own feature (not a stand-in): Quarry's is what the ratios divide by */
  base: boolean;
  hitsPerCall: number | null;
  latency: Latency | null;
}

export interface FeatureReport {
  engine: string;
  rows: MixRow[];
  /** what the checking pass found wrong (empty: nothing) */
  problems: string[];
  /** facet counts of a few queries, compared across engines */
  facetSamples: { q: string; distribution: Record<string, number> }[];
  /** the dataset's own counts of the facet over every document */
  facetTruth: Record<string, number>;
}

const qOnly = (query: Query): Query => ({ id: query.id, type: query.type, q: query.q });

function groups(queries: readonly Query[]): Query[][] {
  const out: Query[][] = [];
  for (let at = 0; at + PER_REQUEST <= queries.length; at += PER_REQUEST) out.push(queries.slice(at, at + PER_REQUEST));
  return out;
}

/** Words of a formatted text without marks or crop markers. */
const wordCount = (text: string) => text.replace(/<\/?em>/g, '').replace(/…/g, ' ').split(/\s+/).filter((w) => w.length > 0).length;

const sameCounts = (a: Record<string, number>, b: Record<string, number>) =>
  Object.keys({ ...a, ...b }).every((key) => (a[key] ?? 0) === (b[key] ?? 0));

/** Runs and checks every mix the engine supports; the engine holds the dataset already. */
export async function runFeatureMixes(engine: Engine, dataset: Dataset, rounds: number): Promise<FeatureReport> {
  if (dataset.name !== 'movies') throw new Error('the feature mixes are defined on the movies dataset');
  const byId = new Map<number, Doc>(dataset.docs.map((doc) => [doc.id, doc]));
  const plain = dataset.queries.map(qOnly);
  const filtered = plain.map((query) => ({ ...query, filter: FILTER, meiliFilter: MEILI_FILTER }));
  const worded = plain.filter((query) => query.q.trim() !== '');
  const grouped = groups(plain);
  // the placeholder (every document), three single words and a two-word query
  const sampleQs = ['', ...plain.filter((query) => query.type === 'word').slice(0, 3).map((query) => query.q), plain.find((query) => query.type === 'two-words')!.q];
  const facetTruth = countValues(byId.keys(), byId, FACET);
  const problems: string[] = [];
  const facetSamples: FeatureReport['facetSamples'] = [];
  const rows: MixRow[] = [];
  const how = (mix: FeatureMix) => engine.how?.[mix] ?? '';

  /** Checks the answers in one pass (hits per call), then times the mix. */
  async function timed<T, R>(mix: FeatureMix, rowHow: string, base: boolean, inputs: T[], work: (input: T) => Promise<R> | R, check: (input: T, answer: R) => number) {
    let hits = 0;
    for (const input of inputs) hits += check(input, await work(input));
    rows.push({ mix, how: rowHow, base, hitsPerCall: hits / inputs.length, latency: await measure(inputs, rounds, work) });
  }
  const notApplicable = (mix: FeatureMix, reason: string) => rows.push({ mix, how: reason, base: false, hitsPerCall: null, latency: null });

  if (engine.facets === undefined) notApplicable('faceted', 'no facets');
  else {
    await timed('faceted', how('faceted'), true, plain, (query) => engine.facets!(query, FACET), (query, answer) => {
      if (query.q === '' && !sameCounts(answer.distribution, facetTruth)) problems.push('faceted: the placeholder counts differ from the dataset');
      if (sampleQs.includes(query.q) && !facetSamples.some((s) => s.q === query.q)) facetSamples.push({ q: query.q, distribution: answer.distribution });
      return answer.ids.length;
    });
  }

  await timed('filtered', how('filtered'), true, filtered, (query) => engine.search(query), (query, ids) => {
    const failing = ids.filter((id) => !matchesFilter(byId.get(id)!, FILTER));
    if (failing.length > 0) problems.push(`filtered: "${query.q}" returned ${failing.length} hits outside the filter`);
    return ids.length;
  });

  if (engine.highlight === undefined) notApplicable('highlighted', 'no highlighter');
  else {
    await timed('highlighted', how('highlighted'), true, worded, (query) => engine.highlight!(query, HIGHLIGHT), (query, hits) => {
      const unmarked = hits.filter((hit) => !HIGHLIGHT.attributes.some((field) => hit.formatted[field]?.includes(MARK)));
      // FlexSearch's boundary counts characters, so its crops are only about the requested length
      const longest = Math.max(0, ...hits.map((hit) => wordCount(hit.formatted[HIGHLIGHT.crop] ?? '')));
      if (unmarked.length > hits.length / 2) problems.push(`highlighted: "${query.q}": ${unmarked.length} of ${hits.length} hits carry no mark`);
      if (longest > HIGHLIGHT.cropWords * 2) problems.push(`highlighted: "${query.q}": a crop of ${longest} words`);
      return hits.length;
    });
  }

  const sequential = async (group: Query[]) => {
    const out: number[][] = [];
    for (const query of group) out.push(await engine.search(query));
    return out;
  };
  if (engine.multiSearch !== undefined) {
    await timed('multi-search', how('multi-search'), true, grouped, (group) => engine.multiSearch!(group, false), (_, answer) => answer.flat().length);
    // multi-search answers what the same searches answer one by one
    for (const group of grouped.slice(0, 10)) {
      const [one, many] = [await sequential(group), await engine.multiSearch(group, false)];
      if (JSON.stringify(one) !== JSON.stringify(many)) problems.push(`multi-search: [${group.map((q) => q.q).join(', ')}] differs from its single searches`);
    }
  }
  await timed('multi-search', `${PER_REQUEST} sequential searches`, false, grouped, sequential, (_, answer) => answer.flat().length);

  if (engine.multiSearch === undefined) notApplicable('federated', 'no federated merge');
  else {
    await timed('federated', how('federated'), true, grouped, (group) => engine.multiSearch!(group, true), (_, [merged]) => merged!.length);
    // a federated hit is one of its queries' own top 20
    for (const group of grouped.slice(0, 10)) {
      const own = new Set((await sequential(group)).flat());
      const [merged] = await engine.multiSearch(group, true);
      const strangers = merged!.filter((id) => !own.has(id));
      if (strangers.length > 0) problems.push(`federated: [${group.map((q) => q.q).join(', ')}] returned ${strangers.length} hits from outside its queries' top 20`);
    }
  }
  return { engine: engine.name, rows, problems, facetSamples, facetTruth };
}

/** The feature table (same style as the plain one), then what the checks found and the facet samples. */
export function printFeatureTables(reports: FeatureReport[]): void {
  console.log(`\nfilter: \`${MEILI_FILTER}\`; highlight ${HIGHLIGHT.attributes.join(', ')}, crop ${HIGHLIGHT.crop} to ${HIGHLIGHT.cropWords} words; multi-search: ${PER_REQUEST} queries per request\n`);
  console.log('| mix | engine | how | hits/call | p50 ms | p95 ms | p99 ms | p50 vs Quarry | p99 vs Quarry |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const mix of MIXES) {
    const quarry = reports.find((r) => r.engine.startsWith('Quarry'));
    const base = quarry?.rows.find((row) => row.mix === mix && row.base)?.latency ?? undefined;
    for (const report of reports) {
      for (const row of report.rows.filter((r) => r.mix === mix)) {
        const l = row.latency;
        console.log(
          l === null
            ? `| ${mix} | ${report.engine} | n/a: ${row.how} | — | — | — | — | — | — |`
            : `| ${mix} | ${report.engine} | ${row.how} | ${fmt(row.hitsPerCall!, 1)} | ${fmt(l.p50, 3)} | ${fmt(l.p95, 3)} | ${fmt(l.p99, 3)} | ${ratio(l.p50, base?.p50)} | ${ratio(l.p99, base?.p99)} |`,
        );
      }
    }
  }
  console.log('\nchecks:');
  for (const report of reports) {
    const shown = report.problems.slice(0, 5);
    console.log(`- ${report.engine}: ${shown.length === 0 ? 'all answers passed' : `${report.problems.length} problems: ${shown.join('; ')}`}`);
  }
  const truth = reports[0]?.facetTruth ?? {};
  const top = Object.entries(truth)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([value]) => value);
  console.log(`\nfacet counts (${FACET}: ${top.join(', ')}; Σ over all values):\n`);
  console.log(`| q | ${['dataset', ...reports.map((r) => r.engine)].join(' | ')} |`);
  console.log(`|---|${['dataset', ...reports].map(() => '---').join('|')}|`);
  const cell = (d: Record<string, number> | undefined) =>
    d === undefined ? 'n/a' : `${top.map((value) => d[value] ?? 0).join(' / ')}; Σ ${Object.values(d).reduce((a, b) => a + b, 0)}`;
  for (const q of new Set(reports.flatMap((r) => r.facetSamples.map((s) => s.q)).sort())) {
    const row = reports.map((r) => cell(r.facetSamples.find((s) => s.q === q)?.distribution));
    console.log(`| "${q}" | ${q === '' ? cell(truth) : '—'} | ${row.join(' | ')} |`);
  }
}
