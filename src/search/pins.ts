/**
 * Dynamic search rules at search time (v1.50's pins, milli `resolve_pins` and
 * `merge_positioned_hits_into_page`): with the `dynamicSearchRules` feature on, the rules that
 * apply to the search (search-rules/active.ts) pin documents at positions of the results.
 * - A pinned document must exist and pass the search's filters (the tenant token's included);
 *   each is pinned once, by its first pin; at most `maxPinActions` (100). The query's words do not
 *   have to match it.
 * - Pinned documents leave the ranking (`pinExclusion`), then come back at their positions
 *   (`withPins`): a pin whose position is reached takes it, the organic hits fill the rest, and
 *   when those run out the remaining pins follow (v1.50 "pumps" them forward). Keyword,
 *   placeholder and semantic searches place the pins in rule order, so a pin at a later position
 *   listed before one at an earlier position holds the other back, as v1.50 does; a hybrid merge
 *   places them by ascending position.
 * - A pinned hit scores 1, its score details are `pin: {order, position}`, and it counts in the
 *   hit count and the facets.
 */
import { difference, fromUnsorted, has, union, type DocSet } from '../engine/docset.js';
import { DocumentStore } from '../engine/documents/store.js';
import { FacetReader } from '../engine/facets/store.js';
import type { IndexReadEnv } from '../engine/index-read-env.js';
import { parseQuery } from '../engine/search/query.js';
import { stopWordSet, tokenizerRules } from '../engine/settings-derived.js';
import type { SearchHit, SearchOutcome } from '../engine/search/search.js';
import { langOfLocales } from '../kernels/languages.js';
import { rulePins } from '../search-rules/active.js';
import { nowNs } from '../types/dates.js';
import type { IndexSettings } from '../types/settings.js';
import type { SearchContext } from './context.js';
import { storedLocales, type SearchQuery } from './query.js';

export interface Pin {
  readonly docid: number;
  readonly position: number;
}

/**
 * The documents the applying rules pin in this search of index `uid`, in rule order; `filters`
 * are the search's evaluated filters (the request's, the tenant token's).
 */
export function searchPins(ctx: SearchContext, env: IndexReadEnv, settings: IndexSettings, uid: string, query: SearchQuery, filters: readonly DocSet[]): Pin[] {
  if (!ctx.features.enabled('dynamicSearchRules')) return [];
  const rules = ctx.searchRules.all();
  if (rules.length === 0) return [];
  const parsed = parseQuery(query.q ?? '', stopWordSet(settings), tokenizerRules(settings), langOfLocales(storedLocales(query.locales)));
  // a phrase is one query word for the rules: its words joined by spaces (milli's `original`)
  const words = parsed.terms.map((term) => (term.kind === 'word' ? term.word : term.words.filter((word) => word !== null).join(' ')));
  const documents = new DocumentStore(env);
  const pinned = new Set<number>();
  const pins: Pin[] = [];
  const { limits } = ctx.searchRules;
  for (const pin of rulePins(rules, uid, nowNs(), words, limits)) {
    if (pins.length >= limits.maxPinActions) break;
    const docid = documents.docidOf(pin.id);
    if (docid === undefined || pinned.has(docid) || filters.some((filter) => !has(filter, docid))) continue;
    pinned.add(docid);
    pins.push({ docid, position: pin.position });
  }
  return pins;
}

/** The filter that keeps the pinned documents out of the ranking. */
export function pinExclusion(env: IndexReadEnv, pins: readonly Pin[]): DocSet {
  return difference(new FacetReader(env).allDocids(), fromUnsorted(pins.map((pin) => pin.docid)));
}

/** Whether a hit is a pinned document (its first score detail is the pin). */
export function isPinned(hit: SearchHit): boolean {
  return hit.details[0]?.kind === 'pin';
}

/** The hit of a pinned document. */
export function pinnedHit(pin: Pin): SearchHit {
  return { docid: pin.docid, score: 1, details: [{ kind: 'pin', position: pin.position }] };
}

/**
 * The first `take` entries of `organic` with `pins` placed at their positions, in the order given
 * (milli's `merge_positioned_hits_into_page` from the first result).
 */
export function placePins<P, T>(pins: readonly P[], organic: readonly T[], take: number, position: (pin: P) => number, asHit: (pin: P) => T): T[] {
  const out: T[] = [];
  let p = 0;
  let o = 0;
  while (out.length < take) {
    if (p < pins.length && (position(pins[p]!) <= out.length || o >= organic.length)) out.push(asHit(pins[p++]!));
    else if (o < organic.length) out.push(organic[o++]!);
    else break;
  }
  return out;
}

/** `outcome` (ranked without the pinned documents) with the pins placed in its first `need` hits. */
export function withPins(outcome: SearchOutcome, pins: readonly Pin[], need: number, byPosition: boolean): SearchOutcome {
  if (pins.length === 0) return outcome;
  const ordered = byPosition ? [...pins].sort((a, b) => a.position - b.position) : pins;
  return {
    ...outcome,
    hits: placePins(ordered, outcome.hits, need, (pin) => pin.position, pinnedHit),
    totalHits: outcome.totalHits + pins.length,
    candidates: union(outcome.candidates, fromUnsorted(pins.map((pin) => pin.docid))),
  };
}
