// A stored document formatted from its bytes, as a formatting thread does it: the answer and a
// refusal are plain data that cross threads, and the hit is the one formatHits makes of the
// decoded document.
import { describe, expect, it } from 'vitest';
import { formatStored, type StoredFormatJob } from '../../../../src/engine/search/format-stored.js';
import { formatHits, type FormatOptions, type MatchTerm } from '../../../../src/engine/search/format.js';
import { documentCodec } from '../../../../src/store/json-documents.js';
import { parseWithFloats } from '../../../../src/types/written-floats.js';

const OPTIONS: Omit<FormatOptions, 'markup'> = {
  fields: ['id', 'text', 'year'],
  displayed: ['*'],
  retrieve: null,
  attributesToHighlight: ['*'],
  attributesToCrop: null,
  cropLength: 10,
  cropMarker: '…',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>',
  showMatchesPosition: true,
};

/** The prefix term `jok` (its words `jok` and the typo word `joke`) and the word `night`. */
const TERMS: MatchTerm[] = [
  { ids: [0, 0], sequences: [['night']], prefix: null },
  { ids: [1, 1], sequences: [], prefix: { words: ['jok', 'joke'], chars: 3 } },
];

/** A document as the documents database stores a payload line: its JSON text. */
const TEXT = '{"id":7,"text":"The joker laughs at night, jokingly.","year":1989.0}';
const bytes = () => documentCodec.encode(new TextEncoder().encode(TEXT)) as Uint8Array;

describe('formatStored', () => {
  it('answers the hit formatHits makes of the decoded document, and the markup left, as plain data', () => {
    const job: StoredFormatJob = { bytes: bytes(), terms: TERMS, options: OPTIONS, markupLeft: 1_000 };
    const answer = structuredClone(formatStored(structuredClone(job)));
    const markup = { left: 1_000, vectors: 0, facetWalkNs: 0 };
    const [expected] = formatHits([parseWithFloats(TEXT) as Record<string, unknown>], TERMS, { ...OPTIONS, markup });
    expect(answer).toEqual({ hit: expected, markupLeft: markup.left });
    expect(markup.left).toBeLessThan(1_000);
    expect((expected!.formatted as { text: string; year: string }).text).toBe('The <em>jok</em>er laughs at <em>night</em>, <em>jok</em>ingly.');
    expect((expected!.formatted as { year: string }).year).toBe('1989.0');
  });

  it('answers a refusal as its code and message, not as an error object', () => {
    const answer = formatStored({ bytes: bytes(), terms: TERMS, options: { ...OPTIONS, highlightPostTag: '>'.repeat(10) }, markupLeft: 5 });
    expect(structuredClone(answer)).toEqual({
      refused: { code: 'invalid_search_highlight_post_tag', message: expect.stringContaining('`.highlightPostTag`') },
    });
  });
});
