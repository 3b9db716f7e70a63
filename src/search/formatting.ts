/**
 * `_formatted` and `_matchesPosition` (search.md §8.2–§8.6): highlighting, cropping and match
 * positions of one page of hits, computed by engine/search/format.ts with one tokenizer call.
 * A page whose documents hold more than SLICED_FROM_BYTES is formatted a few hits at a time, and
 * a large document a run of its top-level fields at a time, the event loop given a turn between
 * them once a time slice has passed (time-slices.ts): 40 documents of a 50,000-value array each,
 * highlighted, held the thread answering requests 13 s. A document of ELSEWHERE_FROM_BYTES or more
 * is decoded and formatted on a formatting thread when the caller has one (the server and the
 * library do; the browser build does not), since one large value cannot be cut.
 * The hits' views and their documents are built with pauses too once a slice has passed
 * (`mapInSlices`; a page of 20 documents of 65,000 fields took seconds to read), so a page that
 * long may read them from more than one snapshot; the caller keeps its index open across them.
 */
import { namedFields, projectDocument } from '../engine/documents/project.js';
import { DocumentStore } from '../engine/documents/store.js';
import { formatHits, type FormattedHit, type MarkupBudget, type MatchTerm } from '../engine/search/format.js';
import type { StoredFormatAnswer, StoredFormatJob } from '../engine/search/format-stored.js';
import { ApiError } from '../errors/api-error.js';
import type { SearchHit } from '../engine/search/search.js';
import type { IndexSearch } from './hits.js';
import { storedLocales, type SearchQuery } from './query.js';
import { TimeSlices } from '../types/time-slices.js';
import { setField } from '../types/own-record.js';
import { sortedKeys } from '../types/bytes.js';
import { withFloatsOf } from '../types/wire-floats.js';

/** Stored bytes of a page's documents from which it is formatted in groups (a normal page of 20 hits holds tens of KB). */
const SLICED_FROM_BYTES = 1024 * 1024;

/** Stored bytes of the documents formatted by one call, in a page formatted in groups (a hit alone when larger). */
const GROUP_BYTES = 256 * 1024;

/**
 * Stored bytes from which a document is decoded and formatted on a formatting thread, when the
 * caller has one: a single 40 MB value took ~2 s on the thread answering requests, which no
 * slicing by fields shortens. Below it, the ~0.1 s a thread's first task takes to start would
 * cost a search more than the formatting. Never below SLICED_FROM_BYTES: only the page formatted
 * in slices sends documents away, and a page holding such a document is always one.
 */
const ELSEWHERE_FROM_BYTES = SLICED_FROM_BYTES;

/**
 * Stored bytes of a document over GROUP_BYTES per part its top-level fields are formatted in:
 * formatting a field needs nothing of the others, and a 1.2 MB document of 65,000 fields held the
 * thread 0.7 s in one call.
 */
const PART_BYTES = 64 * 1024;

/** `doc`'s top-level fields in `count` runs of consecutive fields (fewer when it has fewer fields). */
function partsOf(doc: Record<string, unknown>, count: number): Record<string, unknown>[] {
  const keys = Object.keys(doc);
  const per = Math.max(1, Math.ceil(keys.length / count));
  const parts: Record<string, unknown>[] = [];
  for (let start = 0; start < keys.length; start += per) {
    const part: Record<string, unknown> = {};
    for (const key of keys.slice(start, start + per)) setField(part, key, doc[key]);
    parts.push(part);
  }
  return parts.length > 0 ? parts : [doc];
}

/** The formatting of a document's parts joined again: its fields in their order, its match positions in path order. */
function joined(parts: readonly FormattedHit[]): FormattedHit {
  const out: FormattedHit = {};
  for (const { formatted, matchesPosition } of parts) {
    if (formatted !== undefined) for (const [key, value] of Object.entries(formatted)) setField((out.formatted ??= {}), key, value);
    if (matchesPosition !== undefined) for (const [key, value] of Object.entries(matchesPosition)) setField((out.matchesPosition ??= {}), key, value);
  }
  // each part's positions are in path order; their union is put in it again
  if (out.matchesPosition !== undefined) out.matchesPosition = sortedKeys(out.matchesPosition);
  return out;
}

/**
 * `each` of every hit (its view: hits.ts `hitViewer`, or its document), the event loop given a
 * turn between two hits once a time slice has passed: the views of a page of 20 documents of
 * 65,000 fields took 4.6 s to build in one go.
 */
export async function mapInSlices(hits: readonly SearchHit[], each: (hit: SearchHit, i: number) => Record<string, unknown>): Promise<Record<string, unknown>[]> {
  const slices = new TimeSlices();
  const out: Record<string, unknown>[] = [];
  for (const [i, hit] of hits.entries()) {
    out.push(each(hit, i));
    await slices.pause();
  }
  return out;
}

/** Formats one stored document on another thread (engine/search/format-stored.ts). */
export type FormatElsewhere = (job: StoredFormatJob) => Promise<StoredFormatAnswer>;

/** A document formatted by `elsewhere` from its stored bytes, charging what its markup took to `markup`. */
async function formattedElsewhere(elsewhere: FormatElsewhere, stored: Uint8Array, terms: readonly MatchTerm[], options: StoredFormatJob['options'], markup: MarkupBudget): Promise<FormattedHit> {
  const left = markup.left;
  // a copy: lmdb's fast read answers a buffer the next read reuses (its `length` set to the value's,
  // not the buffer's), and the copy moves to the thread
  const answer = await elsewhere({ bytes: Uint8Array.prototype.slice.call(stored, 0, stored.length), terms, options, markupLeft: left });
  if ('refused' in answer) throw new ApiError(answer.refused.code, answer.refused.message);
  markup.left -= left - answer.markupLeft;
  return answer.hit;
}

/**
 * `views` (one per hit of a page) with `_formatted` and `_matchesPosition` added when asked,
 * placed after the document fields and before the ranking fields. `markup`: what the request's
 * tags and crop markers may still take (format.ts).
 */
export async function withFormatting(
  search: IndexSearch,
  query: SearchQuery,
  hits: readonly SearchHit[],
  views: Record<string, unknown>[],
  markup: MarkupBudget,
  elsewhere?: FormatElsewhere,
): Promise<Record<string, unknown>[]> {
  const highlight = query.attributesToHighlight ?? null;
  const crop = query.attributesToCrop ?? null;
  if ((highlight === null || highlight.length === 0) && (crop === null || crop.length === 0) && query.showMatchesPosition !== true) return views;
  const store = new DocumentStore(search.env);
  const bytes = hits.map((hit) => search.env.documents.getBinaryFast(hit.docid)?.length ?? 0);
  // a large document is decoded where it is formatted
  const away = hits.map((_, i) => elsewhere !== undefined && bytes[i]! >= ELSEWHERE_FROM_BYTES);
  const docs = await mapInSlices(hits, (hit, i) => (away[i] ? {} : projectDocument(store.byDocid(hit.docid) ?? {}, null)));
  const shared = {
    fields: store.fieldIds(),
    displayed: search.settings.displayedAttributes,
    retrieve: query.attributesToRetrieve === null || query.attributesToRetrieve === undefined ? null : namedFields(query.attributesToRetrieve),
    attributesToHighlight: highlight,
    attributesToCrop: crop,
    cropLength: query.cropLength ?? 10,
    cropMarker: query.cropMarker ?? '…',
    highlightPreTag: query.highlightPreTag ?? '<em>',
    highlightPostTag: query.highlightPostTag ?? '</em>',
    showMatchesPosition: query.showMatchesPosition === true,
    locales: storedLocales(query.locales),
    localizedAttributes: search.settings.localizedAttributes,
  };
  // the settings object itself: the tokenizer rules derived from it are kept per object
  const options = { ...shared, tokenizer: search.settings, markup };
  // a formatting thread gets plain data: of the settings, only what the tokenizer reads
  const { separatorTokens, nonSeparatorTokens, dictionary } = search.settings;
  const sent = { ...shared, tokenizer: { separatorTokens, nonSeparatorTokens, dictionary } };
  const terms = search.outcome.matchingWords;
  let formatted: ReturnType<typeof formatHits>;
  if (bytes.reduce((sum, size) => sum + size, 0) < SLICED_FROM_BYTES) {
    formatted = formatHits(docs, terms, options);
  } else {
    formatted = [];
    const slices = new TimeSlices();
    for (let from = 0; from < docs.length; ) {
      const stored = away[from] ? search.env.documents.getBinaryFast(hits[from]!.docid) : undefined;
      if (stored !== undefined) {
        formatted.push(await formattedElsewhere(elsewhere!, stored, terms, sent, markup));
        from++;
        continue;
      }
      if (bytes[from]! > GROUP_BYTES) {
        // one large document, formatted a run of its fields at a time
        const parts: FormattedHit[] = [];
        for (const part of partsOf(docs[from]!, Math.ceil(bytes[from]! / PART_BYTES))) {
          parts.push(...formatHits([part], terms, options));
          await slices.pause();
        }
        formatted.push(joined(parts));
        from++;
        continue;
      }
      let to = from + 1;
      for (let size = bytes[from]!; to < docs.length && size + bytes[to]! <= GROUP_BYTES; to++) size += bytes[to]!;
      formatted.push(...formatHits(docs.slice(from, to), terms, options));
      from = to;
      await slices.pause();
    }
  }
  return views.map((view, i) => {
    const { _rankingScore, _rankingScoreDetails, ...fields } = view;
    const out: Record<string, unknown> = withFloatsOf(view, fields);
    const { formatted: f, matchesPosition } = formatted[i]!;
    if (f !== undefined) out._formatted = f;
    if (matchesPosition !== undefined) out._matchesPosition = matchesPosition;
    if (_rankingScore !== undefined) out._rankingScore = _rankingScore;
    if (_rankingScoreDetails !== undefined) out._rankingScoreDetails = _rankingScoreDetails;
    return out;
  });
}
