// Highlighting, cropping and match positions (search.md §8.2–§8.6) on a real index: the matching
// words come from a real query resolution, so typos and prefixes are those the engine found.
import { afterEach, describe, expect, it } from 'vitest';

import type { ApiError } from '../../../../src/errors/api-error.js';
import { bestInterval, formatHits, type FormatOptions, type Match, type MatchTerm } from '../../../../src/engine/search/format.js';
import { mulberry32 } from '../../../helpers/random.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex | undefined;
afterEach(async () => {
  await index?.close();
  index = undefined;
});

const BASE: FormatOptions = {
  fields: [],
  displayed: ['*'],
  retrieve: null,
  attributesToHighlight: null,
  attributesToCrop: null,
  cropLength: 10,
  cropMarker: '…',
  highlightPreTag: '<em>',
  highlightPostTag: '</em>',
  showMatchesPosition: false,
};

/** Formats `doc` for query `q` after indexing it (plus `others`, so typo words exist). */
function format(doc: Record<string, unknown>, q: string, options: Partial<FormatOptions>, others: Record<string, unknown>[] = []) {
  index = openTestIndex();
  const docs: Record<string, Record<string, unknown>> = { [String(doc.id)]: doc };
  for (const other of others) docs[String(other.id)] = other;
  index.write(docs as never);
  const { matchingWords } = index.search(q);
  return formatHits([doc], matchingWords, { ...BASE, fields: Object.keys(doc), ...options })[0]!;
}

describe('highlighting', () => {
  it('marks the words an n-gram of the query matches: whole, by prefix, with a typo', () => {
    const text = 'a sunflower, quickbrown fox';
    const others = [{ id: 2, text: 'quickbrown' }];
    expect(format({ id: 1, text }, 'sun flower', { attributesToHighlight: ['text'] }, others).formatted!.text).toBe('a <em>sunflower</em>, quickbrown fox');
    expect(format({ id: 1, text }, 'sun flo', { attributesToHighlight: ['text'] }, others).formatted!.text).toBe('a <em>sunflo</em>wer, quickbrown fox');
    expect(format({ id: 1, text }, 'quick browm ', { attributesToHighlight: ['text'] }, others).formatted!.text).toBe('a sunflower, <em>quickbrown</em> fox');
  });

  it('marks no query word the index does not hold, nor a prefix no indexed word starts', () => {
    index = openTestIndex({ searchableAttributes: ['a'] });
    const doc = { id: 1, a: 'hello', b: 'hello xyzzy world' };
    index.write({ '1': doc });
    const shown = (q: string) => formatHits([doc], index!.search(q).matchingWords, { ...BASE, fields: ['id', 'a', 'b'], attributesToHighlight: ['b'] })[0]!.formatted!.b;
    expect(shown('hello xyzzy ')).toBe('<em>hello</em> xyzzy world');
    expect(shown('hello xyzz')).toBe('<em>hello</em> xyzzy world');
    expect(shown('hello hel')).toBe('<em>hello</em> xyzzy world');
  });

  const cases: [string, string, string][] = [
    ['exact word, whatever its case', 'world', 'Hello <em>World</em>, hello <em>world</em>!'],
    ['prefix of the last word: only the typed characters', 'wor', 'Hello <em>Wor</em>ld, hello <em>wor</em>ld!'],
    ['typo match: the whole word', 'wrold', 'Hello <em>World</em>, hello <em>world</em>!'],
    ['phrase: one span per occurrence', '"hello world"', '<em>Hello World</em>, <em>hello world</em>!'],
    // milli's matcher skips every separator between a phrase's words, hard ones too
    ['a phrase across a hard separator', '"world hello"', 'Hello <em>World, hello</em> world!'],
  ];
  it.each(cases)('%s', (_name, q, expected) => {
    const out = format({ id: 1, text: 'Hello World, hello world!' }, q, { attributesToHighlight: ['text'] });
    expect(out.formatted!.text).toBe(expected);
  });

  it('matches words by their first bytes: a one-byte query word or prefix reaches every word it starts, a longer one only the words sharing its first two bytes', () => {
    const doc = { id: 7, text: 'a ab abc b ba да дом жук x' };
    const terms = (sequences: string[][], prefix: string[] = []): MatchTerm[] => [{ ids: [0, 0], sequences, prefix: prefix.length === 0 ? null : { words: prefix, chars: 1 } }];
    const options = { ...BASE, fields: ['id', 'text'], attributesToHighlight: ['text'] };
    const text = (found: MatchTerm[]) => formatHits([doc], found, options)[0]!.formatted!.text;
    expect(text(terms([['a']], ['a']))).toBe('<em>a</em> <em>a</em>b <em>a</em>bc b ba да дом жук x');
    expect(text(terms([['ab']]))).toBe('a <em>ab</em> abc b ba да дом жук x');
    // д is two bytes: a one-character prefix of it is a two-byte query word
    expect(text(terms([['ba']], ['д']))).toBe('a ab abc b <em>ba</em> <em>д</em>а <em>д</em>ом жук x');
    expect(text(terms([['дом'], ['x']]))).toBe('a ab abc b ba да <em>дом</em> жук <em>x</em>');
  });

  it("cuts field text with the index's custom tokens", () => {
    const doc = { id: 3, content: 'Mac&sep&&sepcheese' };
    const terms = [{ ids: [0, 0] as const, sequences: [['&']], prefix: null }];
    const options = { ...BASE, fields: ['content'], attributesToHighlight: ['content'] };
    const tokenizer = { separatorTokens: ['&sep'], nonSeparatorTokens: ['&'], dictionary: [] };
    expect(formatHits([doc], terms, { ...options, tokenizer })[0]!.formatted!.content).toBe('Mac&sep<em>&</em>&sepcheese');
    expect(formatHits([doc], terms, options)[0]!.formatted!.content).toBe('Mac&sep&&sepcheese');
  });

  it("cuts field text with the search's locale: Japanese and Chinese apart", () => {
    const doc = { id: 4, text: '東京都庁' };
    const terms = [{ ids: [0, 0] as const, sequences: [['東京']], prefix: null }];
    const options = { ...BASE, fields: ['text'], attributesToHighlight: ['text'] };
    // lindera (Japanese) cuts 東京|都庁, jieba (Chinese) 東|京都|庁
    expect(formatHits([doc], terms, { ...options, locales: ['jpn'] })[0]!.formatted!.text).toBe('<em>東京</em>都庁');
    expect(formatHits([doc], terms, { ...options, locales: ['cmn'] })[0]!.formatted!.text).toBe('東京都庁');
  });

  it('shows a lone surrogate as U+FFFD in a formatted value, matched or not', () => {
    const terms = [{ ids: [0, 0] as const, sequences: [['batman']], prefix: null }];
    const options = { ...BASE, fields: ['a', 'b', 'c'], attributesToHighlight: ['*'] };
    const out = formatHits([{ a: 'x\ud800y batman', b: 'x\ud800y', c: 'plain 😀' }], terms, options)[0]!.formatted!;
    expect(out).toEqual({ a: 'x\ufffdy <em>batman</em>', b: 'x\ufffdy', c: 'plain 😀' });
  });

  it('keeps apart a value in an array and a field whose name reads like its path and index', () => {
    const terms = [{ ids: [0, 0] as const, sequences: [['batman']], prefix: null }];
    const doc = { 'a\u00000': 'batman one', a: ['two', 'batman three'] };
    const out = formatHits([doc], terms, { ...BASE, fields: Object.keys(doc), attributesToHighlight: ['*'], showMatchesPosition: true })[0]!;
    expect(out.formatted).toEqual({ 'a\u00000': '<em>batman</em> one', a: ['two', '<em>batman</em> three'] });
    expect(out.matchesPosition).toEqual({ 'a\u00000': [{ start: 0, length: 6 }], a: [{ start: 0, length: 6, indices: [1] }] });
  });

  it('uses the custom tags and formats numbers as strings', () => {
    const out = format({ id: 852, title: 'Le Petit Prince', year: 1943 }, 'prince 1943', {
      attributesToHighlight: ['*'],
      highlightPreTag: '[',
      highlightPostTag: ']',
    });
    expect(out.formatted).toEqual({ id: '852', title: 'Le Petit [Prince]', year: '[1943]' });
  });

  it('keeps nested structure, booleans and null, highlighting leaf by leaf', () => {
    const doc = { id: 1, doggos: [{ name: 'bobby', age: 2 }, { name: 'buddy', age: 4 }], good: true, none: null };
    const out = format(doc, 'bobby', { attributesToHighlight: ['doggos.name'], showMatchesPosition: true });
    expect(out.formatted).toEqual({
      id: '1',
      doggos: [{ name: '<em>bobby</em>', age: '2' }, { name: 'buddy', age: '4' }],
      good: true,
      none: null,
    });
    expect(out.matchesPosition).toEqual({ 'doggos.name': [{ start: 0, length: 5, indices: [0] }] });
  });

  it("shows one array value's matches per path, the last one that matches, as v1.50 inserts them value by value", () => {
    const doc = { id: 1, arr: ['hello', 'x', 'hello world hello'], dogs: [{ name: 'hello' }, { name: 'nope' }, { name: 'big hello' }], deep: [['a', 'hello'], ['hello']] };
    const out = format(doc, 'hello', { showMatchesPosition: true });
    expect(out.matchesPosition).toEqual({
      arr: [
        { start: 0, length: 5, indices: [2] },
        { start: 12, length: 5, indices: [2] },
      ],
      deep: [{ start: 0, length: 5, indices: [1, 0] }],
      'dogs.name': [{ start: 4, length: 5, indices: [2] }],
    });
  });

  it('crops a field by the last attributesToCrop entry naming it, `*` included, its `:n` read as a Rust usize', () => {
    const doc = { id: 1, text: 'The groundbreaking invention had the power to split the world between those who embraced progress' };
    const crop = (attributesToCrop: string[], cropLength = 10) => format(doc, 'world', { attributesToCrop, cropLength }).formatted?.text;
    expect(crop(['text:2', 'text:4'])).toBe('…split the world between…');
    expect(crop(['text:2', '*'], 4)).toBe('…split the world between…');
    expect(crop(['*', 'text:2'], 4)).toBe('…the world…');
    expect(crop(['text:+2'], 4)).toBe('…the world…');
    // past 64 bits the length does not parse: the request's cropLength applies
    expect(crop(['text:99999999999999999999'], 2)).toBe('…the world…');
  });

  it('gives byte starts and byte lengths of the original text in _matchesPosition, prefix length only', () => {
    const out = format({ id: 1, title: 'Café crème world' }, 'crème wor', { showMatchesPosition: true });
    expect(out.formatted).toBeUndefined();
    // `crème` starts at byte 6 and spans 6 bytes; the prefix `wor` of `world` spans 3
    expect(out.matchesPosition).toEqual({ title: [{ start: 6, length: 6 }, { start: 13, length: 3 }] });
  });

  it('measures a prefix match in the original bytes of the characters it covers', () => {
    const out = format({ id: 1, title: 'Éclair crèmeux' }, 'crè', { showMatchesPosition: true });
    // `Éclair ` is 8 bytes; the prefix `crè` of `crèmeux` is 4 (è is 2)
    expect(out.matchesPosition).toEqual({ title: [{ start: 8, length: 4 }] });
  });

  // v1.50 (charabia `Token::original_lengths`): original characters are taken while their
  // normalised bytes fall short of the query word's, so a dropped mark inside the prefix counts,
  // one after it does not, and a character normalised into two (`ﬁ`, `Œ`) counts once
  const prefixCases: [string, string, string, number][] = [
    ['กรุงเทพมหานคร', 'กรุง', '<em>กรุง</em>เทพมหานคร', 12],
    ['Cafe\u0301teria', 'cafet', '<em>Cafe\u0301t</em>eria', 7],
    ['שָׁלוֹם', 'שלו', '<em>שָׁלו</em>ֹם', 10],
    ['مُحَمَّدٌ', 'محم', '<em>مُحَم</em>َّدٌ', 10],
    ['مُحَمَّدٌ', 'محمد', '<em>مُحَمَّد</em>ٌ', 16],
    ['ﬁnancial', 'fin', '<em>ﬁn</em>ancial', 4],
    ['Œuvre', 'oeu', '<em>Œu</em>vre', 3],
    ['Œuvre', 'oeuvre', '<em>Œuvre</em>', 6],
  ];
  it.each(prefixCases)('highlights in %s the prefix %s on the original characters its normalised bytes cover', (text, q, expected, length) => {
    const out = format({ id: 1, text }, q, { attributesToHighlight: ['text'], showMatchesPosition: true });
    expect(out.formatted!.text).toBe(expected);
    expect(out.matchesPosition).toEqual({ text: [{ start: 0, length }] });
  });

  it('returns an empty _matchesPosition when nothing matched', () => {
    const out = format({ id: 1, title: 'nothing here' }, 'zebra', { showMatchesPosition: true }, [{ id: 2, title: 'zebra' }]);
    expect(out.matchesPosition).toEqual({});
  });

  it('restricts _formatted to retrieved ∪ formatted attributes', () => {
    const out = format({ id: 1, title: 'the world', body: 'a world', extra: 'x' }, 'world', { retrieve: ['id'], attributesToHighlight: ['title'] });
    expect(out.formatted).toEqual({ id: '1', title: 'the <em>world</em>' });
  });
});

describe('cropping', () => {
  const TEXT = 'Natalie risk her future to build a world with the boy she loves.';
  const cases: [string, string, number, string][] = [
    ['window around the matches', 'split the world', 10, '…future to build a world with the boy she loves…'],
    ['first words when nothing matches', 'zebra', 10, 'Natalie risk her future to build a world with the…'],
    // the final hard separator is not a word, so the window stops before it
    ['short window at the end', 'loves', 2, '…she loves…'],
    ['length 0 keeps the text', 'world', 0, TEXT],
  ];
  it.each(cases)('%s', (_name, q, cropLength, expected) => {
    const out = format({ id: 1, text: TEXT }, q, { attributesToCrop: ['text'], cropLength });
    expect(out.formatted!.text).toBe(expected);
  });

  it('crops text without match to the first words', () => {
    const text = 'A quick brown fox can not jump 32 feet, right? Brr, it is cold!';
    const out = format({ id: 1, text }, 'zebra', { attributesToCrop: ['text'] }, [{ id: 2, text: 'zebra' }]);
    expect(out.formatted!.text).toBe('A quick brown fox can not jump 32 feet, right…');
  });

  it('highlights inside the crop window and honours attr:N', () => {
    const out = format({ id: 1, title: 'Le Petit Prince' }, 'prince', { attributesToCrop: ['title:2'], attributesToHighlight: ['title'] });
    expect(out.formatted!.title).toBe('…Petit <em>Prince</em>');
  });

  it('prefers the window holding more distinct query terms', () => {
    const text = 'dragon one two three four five six seven eight nine ten eleven dragon knight';
    const out = format({ id: 1, text }, 'dragon knight', { attributesToCrop: ['text'], cropLength: 4, attributesToHighlight: ['text'] });
    expect(out.formatted!.text).toBe('…ten eleven <em>dragon</em> <em>knight</em>');
  });

  it('uses an empty crop marker as nothing', () => {
    const out = format({ id: 1, text: 'one two three four' }, 'three', { attributesToCrop: ['text'], cropLength: 1, cropMarker: '' });
    expect(out.formatted!.text).toBe('three');
  });
});

// Meilisearch's matcher cases (milli matches/mod_test.rs): [query, text, highlight, crop length, expected]
const LONG = 'The groundbreaking invention had the power to split the world between those who embraced progress and those who resisted change!';
const MATCHER_CASES: [string, string, boolean, number, string][] = [
  ['split the world', '', true, 10, ''],
  ['split the world', ':-)', true, 10, ':-)'],
  ['split the world', '(A quick brown fox can not jump 32 feet, right? Brr, it is cold!)', false, 10, '(A quick brown fox can not jump 32 feet, right…'],
  [
    'split the world',
    'Natalie risk her future to build a world with the boy she loves. Emily Henry: The Love That Split The World.',
    true,
    0,
    'Natalie risk her future to build a <em>world</em> with <em>the</em> boy she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.',
  ],
  ['split the world', 'Natalie risk her future to build a world with the boy she loves.', true, 10, '…future to build a <em>world</em> with <em>the</em> boy she loves…'],
  [
    'split the world',
    'Natalie risk her future to build a world with the boy she loves. Emily Henry: The Love That Split The World.',
    true,
    10,
    '…she loves. Emily Henry: <em>The</em> Love That <em>Split</em> <em>The</em> <em>World</em>.',
  ],
  ['split the world', 'The world split void void void void void void void void void split the world void void', false, 10, '…void void void void void split the world void void'],
  ['split the world', 'split void the void void world void void void void void void void void void void split the world void void', false, 10, '…void void void void void split the world void void'],
  ['split the world', 'split split split split split split void void void void void void void void void void split the world void void', false, 10, '…void void void void void split the world void void'],
  ['world', 'Ŵôřlḑôle', true, 0, '<em>Ŵôřlḑ</em>ôle'],
  ['world', 'Ŵôřlḑ', true, 0, '<em>Ŵôřlḑ</em>'],
  ['westfali', 'Westfália', true, 0, '<em>Westfáli</em>a'],
  ['"the world"', LONG, true, 10, '…the power to split <em>the world</em> between those who embraced…'],
  ['those "and those"', LONG, true, 10, '…world between <em>those</em> who embraced progress <em>and those</em> who resisted…'],
  ['"The groundbreaking invention had the power to split the world"', LONG, true, 10, '<em>The groundbreaking invention had the power to split the world</em>…'],
  ['"groundbreaking invention" "split the world between"', LONG, true, 10, '…<em>groundbreaking invention</em> had the power to <em>split the world between</em>…'],
  ['split the world', 'void void split the world void void.', false, 2, '…split the…'],
  ['split the world', 'void void split the world void void.', false, 1, '…split…'],
  ['split the world', 'void void split the world void void.', false, 0, 'void void split the world void void.'],
];

describe('Meilisearch matcher cases', () => {
  it.each(MATCHER_CASES)('%s on %s (highlight %s, crop %i)', (q, text, highlight, cropLength, expected) => {
    const out = format({ id: 1, text }, q, { attributesToHighlight: highlight ? ['text'] : null, attributesToCrop: cropLength > 0 || !highlight ? ['text'] : null, cropLength }, [
      { id: 2, text: 'split the world' },
    ]);
    expect(out.formatted!.text).toBe(expected);
  });
});

it('highlights phrases as one span and phrases split across apostrophes', () => {
  const out = format({ id: 1, text: "the do or die can't be he do and or isn't he" }, 'the "t he" door "do or"', {
    attributesToHighlight: ['text'],
    highlightPreTag: '_',
    highlightPostTag: '_',
  });
  expect(out.formatted!.text).toBe("_the_ _do or_ die can't be he do and or isn'_t he_");
});

describe('presence of _formatted', () => {
  it('exists when a displayed field of the index is formatted, even if this document lacks it', () => {
    const out = format({ id: 7, other: 'x' }, 'x', { fields: ['id', 'other', 'title'], attributesToHighlight: ['title'] });
    expect(out.formatted).toEqual({ id: '7', other: 'x' });
  });

  it('is absent when only undisplayed or unknown fields are formatted', () => {
    expect(format({ id: 7, secret: 'x' }, 'x', { displayed: ['id'], attributesToHighlight: ['secret'] }).formatted).toBeUndefined();
    expect(format({ id: 7 }, 'x', { attributesToCrop: ['nowhere'] }).formatted).toBeUndefined();
  });

  it('formats displayed attributes that are not retrieved when asked with *', () => {
    const out = format({ id: 7, title: 'x marks' }, 'x', { displayed: ['id', 'title'], retrieve: ['id'], attributesToHighlight: ['*'] });
    expect(out.formatted).toEqual({ id: '7', title: '<em>x</em> marks' });
  });
});

it('highlights one-word and multi-word synonyms of a query word', async () => {
  index = openTestIndex({ synonyms: { nyc: ['new york', 'bigapple'] } });
  const doc = { id: 1, text: 'I love New York, the bigapple and nyc' };
  index.write({ '1': doc });
  const { matchingWords } = index.search('nyc');
  const [out] = formatHits([doc], matchingWords, { ...BASE, fields: ['id', 'text'], attributesToHighlight: ['text'], showMatchesPosition: true });
  expect(out!.formatted!.text).toBe('I love <em>New York</em>, the <em>bigapple</em> and <em>nyc</em>');
  expect(out!.matchesPosition).toEqual({ text: [{ start: 7, length: 8 }, { start: 21, length: 8 }, { start: 34, length: 3 }] });
});

describe('the markup budget', () => {
  const doc = { id: 1, text: 'world and world and world and world, a long text about the world to crop somewhere' };
  const refusal = (options: Partial<FormatOptions>) => {
    try {
      format(doc, 'world', options);
    } catch (error) {
      return { code: (error as ApiError).code, message: (error as ApiError).message };
    }
    throw new Error('formatted within the budget');
  };

  it('takes what the tags and crop markers add, and leaves the rest to the next page', () => {
    const markup = { left: 1_000, vectors: 0, facetWalkNs: 0 };
    const out = format(doc, 'world', { attributesToHighlight: ['text'], attributesToCrop: ['text'], cropLength: 6, cropMarker: '[…]', markup });
    expect(out.formatted!.text).toBe('[…]text about the <em>world</em> to crop[…]');
    // one tag pair of 4 + 5 units, two markers of 3
    expect(markup.left).toBe(1_000 - 9 - 2 * 3);
  });

  it('refuses the search once spent, naming the longest tag or marker', () => {
    expect(refusal({ attributesToHighlight: ['text'], highlightPreTag: 'x'.repeat(20), markup: { left: 60, vectors: 0, facetWalkNs: 0 } })).toEqual({
      code: 'invalid_search_highlight_pre_tag',
      message:
        'Invalid value at `.highlightPreTag`: the highlight tags and crop markers of this request\'s hits would take more than 67108864 characters. Ask for fewer hits, or fewer attributes to highlight or crop, or use a shorter `highlightPreTag`.',
    });
    expect(refusal({ attributesToHighlight: ['text'], highlightPostTag: 'y'.repeat(20), markup: { left: 60, vectors: 0, facetWalkNs: 0 } }).code).toBe('invalid_search_highlight_post_tag');
    expect(refusal({ attributesToCrop: ['text'], cropLength: 3, cropMarker: 'z'.repeat(40), markup: { left: 60, vectors: 0, facetWalkNs: 0 } }).code).toBe('invalid_search_crop_marker');
  });
});

describe('the crop window', () => {
  /** The crop score of a window, computed anew (the definition bestInterval keeps up to date). */
  function naiveScore(matches: readonly Match[], terms: readonly MatchTerm[]): number[] {
    const ids = new Set<number>();
    let distance = 0;
    let order = 0;
    matches.forEach((m, k) => {
      const [first, last] = terms[m.term]!.ids;
      for (let id = first; id <= last; id++) ids.add(id);
      order += m.lastWord - m.firstWord;
      distance -= m.lastWord - m.firstWord;
      if (k === 0) return;
      const prev = matches[k - 1]!;
      distance -= Math.min(m.firstWord - prev.lastWord, 7);
      if (first > terms[prev.term]!.ids[0]) order++;
    });
    return [ids.size, distance, order];
  }
  function naiveInterval(matches: readonly Match[], terms: readonly MatchTerm[], cropLength: number): [number, number] {
    let best: [number, number] = [0, 0];
    let bestScore: number[] | null = null;
    let first = 0;
    let last = 0;
    const consider = () => {
      const score = naiveScore(matches.slice(first, last + 1), terms);
      const differs = bestScore === null ? -1 : score.findIndex((v, i) => v !== bestScore![i]);
      if (bestScore === null || (differs !== -1 && score[differs]! > bestScore[differs]!)) {
        bestScore = score;
        best = [first, last];
      }
    };
    for (let k = 1; k < matches.length; k++) {
      if (matches[k]!.lastWord - matches[first]!.firstWord >= cropLength) {
        consider();
        while (first < k && matches[k]!.lastWord - matches[first]!.firstWord >= cropLength) first++;
      }
      last = k;
    }
    consider();
    return best;
  }

  it('picks the window that scoring every window anew picks, on random matches', () => {
    const r = mulberry32(5);
    const terms: MatchTerm[] = [
      { ids: [0, 0], sequences: [], prefix: null },
      { ids: [1, 3], sequences: [], prefix: null },
      { ids: [4, 4], sequences: [], prefix: null },
      { ids: [2, 2], sequences: [], prefix: null },
    ];
    for (let round = 0; round < 300; round++) {
      const matches: Match[] = [];
      let word = Math.floor(r() * 3);
      for (let k = 0, n = 1 + Math.floor(r() * 40); k < n; k++) {
        const term = Math.floor(r() * terms.length);
        const length = term === 1 ? 3 : 1;
        matches.push({ firstToken: word * 2, lastToken: (word + length - 1) * 2, firstWord: word, lastWord: word + length - 1, start: 0, end: 0, term });
        word += length + Math.floor(r() * 9);
      }
      const cropLength = 1 + Math.floor(r() * 20);
      expect(bestInterval(matches, terms, cropLength), `round ${round}`).toEqual(naiveInterval(matches, terms, cropLength));
    }
  });
});
