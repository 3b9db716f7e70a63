// The typo kernel against its TS reference: fixed cases pin the matching rules (each also checks
// kernel == reference), random dictionaries and queries check the two agree everywhere.
import { describe, expect, it } from 'vitest';

import { referenceDistance, referenceTypoMatch } from '../../src/kernels/reference/typo.js';
import { getKernels } from '../../src/kernels/module.js';
import { mulberry32 } from '../helpers/random.js';
import { codePoints, expandMatches, MAX_TYPOS, packWordList, repackWordList, TypoFlag, TypoMatcher, type TypoQuery, type WordSource } from '../../src/kernels/typo.js';

/** Code-point (UTF-8 byte) order, the order the kernel expects. */
function sortWords(words: Iterable<string>): string[] {
  return [...new Set(words)].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/** Runs the kernel, checks the reference agrees, and returns word → distance per query. */
function match(words: readonly string[], queries: readonly TypoQuery[]): Record<string, number>[] {
  const matcher = new TypoMatcher(packWordList(words));
  const actual = expandMatches(matcher.match(queries));
  expect(actual).toEqual(referenceTypoMatch(words, queries));
  const out: Record<string, number>[] = queries.map(() => ({}));
  for (const [q, w, d] of actual) out[q]![words[w]!] = d;
  return out;
}

const DICT = sortWords([
  'batman', 'batmans', 'batmen', 'bat', 'bath', 'catman', 'hatman', 'botman', 'abtman', 'batamn',
  'dragon', 'dragons', 'wagon', 'dragonfly', 'drag', 'tragon', 'jurassic', 'jurasic', 'park', 'parking',
  'élan', 'elan', 'naïve', 'naive', '東京', '東京都', 'straße', 'strasse',
]);

describe('typo kernel', () => {
  it('finds exact words at distance 0 and one-typo words at distance 1', () => {
    const [res] = match(DICT, [{ word: 'batman', maxTypos: 1, flags: 0 }]);
    expect(res).toEqual({ batman: 0, batmans: 1, batmen: 1, catman: 1, hatman: 1, botman: 1, abtman: 1, batamn: 1 });
  });

  it('counts a transposition of adjacent letters as one typo', () => {
    expect(referenceDistance(codePoints('batamn'), codePoints('batman'), false)).toBe(1);
    const [res] = match(DICT, [{ word: 'batamn', maxTypos: 1, flags: TypoFlag.FirstChar }]);
    expect(res!.batman).toBe(1);
  });

  it('with the first-letter rule, a different first letter is never one typo', () => {
    const [res] = match(DICT, [{ word: 'batman', maxTypos: 1, flags: TypoFlag.FirstChar }]);
    expect(Object.keys(res!).sort()).toEqual(['batamn', 'batman', 'batmans', 'batmen', 'botman']);
  });

  it('with the first-letter rule and two typos, a different first letter costs two', () => {
    const [res] = match(DICT, [{ word: 'jurassic', maxTypos: 2, flags: TypoFlag.FirstChar }, { word: 'dragonfly', maxTypos: 2, flags: TypoFlag.FirstChar }]);
    expect(res).toEqual({ jurassic: 0, jurasic: 1 });
    const [, dragonfly] = match(DICT, [{ word: 'jurassic', maxTypos: 2, flags: 0 }, { word: 'tragonfly', maxTypos: 2, flags: TypoFlag.FirstChar }]);
    expect(dragonfly).toEqual({ dragonfly: 2 });
  });

  it('prefix mode matches every word with a close prefix', () => {
    const [typed] = match(DICT, [{ word: 'batmn', maxTypos: 1, flags: TypoFlag.Prefix | TypoFlag.FirstChar }]);
    expect(typed).toEqual({ batman: 1, batmans: 1, batmen: 1, batamn: 1 });
    const [exact] = match(DICT, [{ word: 'drag', maxTypos: 0, flags: TypoFlag.Prefix }]);
    expect(exact).toEqual({ drag: 0, dragon: 0, dragonfly: 0, dragons: 0 });
  });

  it('leaves out distance 0 on request and honours a word range', () => {
    const [res] = match(DICT, [{ word: 'dragon', maxTypos: 1, flags: TypoFlag.SkipExact | TypoFlag.FirstChar }]);
    expect(res).toEqual({ dragons: 1 });
    const from = DICT.indexOf('dragon');
    const [ranged] = match(DICT, [{ word: 'dragon', maxTypos: 1, flags: 0, from, to: from + 2 }]);
    // 'dragons' (one typo) lies outside [dragon, dragonfly]
    expect(ranged).toEqual({ dragon: 0 });
  });

  it('counts characters, not bytes, in non-ASCII words', () => {
    const [res] = match(DICT, [{ word: 'elan', maxTypos: 1, flags: 0 }, { word: '東京', maxTypos: 1, flags: 0 }]);
    expect(res).toEqual({ elan: 0, 'élan': 1 });
    const [, tokyo] = match(DICT, [{ word: 'elan', maxTypos: 1, flags: 0 }, { word: '東京', maxTypos: 1, flags: 0 }]);
    expect(tokyo).toEqual({ '東京': 0, '東京都': 1 });
  });

  it('handles an empty dictionary and many queries in one call', () => {
    expect(match([], [{ word: 'batman', maxTypos: 2, flags: TypoFlag.Prefix }])).toEqual([{}]);
    const queries = DICT.map((word) => ({ word, maxTypos: 2, flags: TypoFlag.Prefix }));
    match(DICT, queries);
  });

  it('grows its output when matches exceed the first capacity', () => {
    const words = sortWords(Array.from({ length: 500 }, (_, i) => `a${i.toString(36)}`));
    const [res] = match(words, [{ word: 'a', maxTypos: 2, flags: 0 }, { word: 'ab', maxTypos: 2, flags: TypoFlag.Prefix }]);
    expect(Object.keys(res!).length).toBeGreaterThan(30);
  });

  it('computes only the band of cells a budget can reach: long queries cost their length, not its square', () => {
    const long = 'ab'.repeat(50_000);
    // one transposition inside, one substitution at the end
    const near = `${long.slice(0, 5000)}ba${long.slice(5002, -1)}x`;
    const words = sortWords(['abc', long, `${long}z`]);
    const matcher = new TypoMatcher(packWordList(words));
    const found = (query: TypoQuery) => expandMatches(matcher.match([query])).map(([, w, d]) => [words[w], d]);
    expect(found({ word: near, maxTypos: 2, flags: 0 })).toEqual([[long, 2]]);
    expect(found({ word: near, maxTypos: 2, flags: TypoFlag.Prefix })).toEqual([
      [long, 2],
      [`${long}z`, 2],
    ]);
    expect(found({ word: near, maxTypos: 1, flags: TypoFlag.Prefix })).toEqual([]);
    // far longer than every word: nothing is within two typos, and nothing is scanned
    expect(found({ word: 'a'.repeat(1_000_000), maxTypos: 2, flags: TypoFlag.Prefix })).toEqual([]);
  });

  it('computes budgets up to 3 typos, as the reference, and refuses a larger one', () => {
    match(DICT, [{ word: 'batmanz', maxTypos: 3, flags: 0 }, { word: 'dragonfly', maxTypos: 3, flags: TypoFlag.Prefix | TypoFlag.FirstChar }]);
    const matcher = new TypoMatcher(packWordList(DICT));
    expect(() => matcher.match([{ word: 'batman', maxTypos: 4, flags: 0 }])).toThrow(RangeError);
    expect(getKernels().constant('MAX_TYPOS')).toBe(MAX_TYPOS);
  });

  it('agrees with the reference on long words near long queries', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'é'];
    const word = () => Array.from({ length: 20 + rand(40) }, () => alphabet[rand(alphabet.length)]).join('');
    // up to three random edits (substitution, insertion, deletion, transposition) of a word
    const edit = (text: string) => {
      const chars = [...text];
      for (let e = rand(4); e > 0; e--) {
        const at = rand(chars.length - 1);
        const kind = rand(4);
        if (kind === 0) chars[at] = alphabet[rand(alphabet.length)]!;
        else if (kind === 1) chars.splice(at, 0, alphabet[rand(alphabet.length)]!);
        else if (kind === 2) chars.splice(at, 1);
        else [chars[at], chars[at + 1]] = [chars[at + 1]!, chars[at]!];
      }
      return chars.join('');
    };
    for (let round = 0; round < 10; round++) {
      const words = sortWords(Array.from({ length: 1 + rand(60) }, word));
      const queries: TypoQuery[] = Array.from({ length: 1 + rand(5) }, () => ({ word: edit(words[rand(words.length)]!), maxTypos: rand(3), flags: rand(8) }));
      match(words, queries);
    }
  });

  it('agrees with the reference on random dictionaries and queries', () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'c', 'd', 'é', 'ß', '東'];
    const word = (max: number) => Array.from({ length: 1 + rand(max) }, () => alphabet[rand(alphabet.length)]).join('');
    for (let round = 0; round < 30; round++) {
      const words = sortWords(Array.from({ length: 1 + rand(300) }, () => word(8)));
      const queries: TypoQuery[] = Array.from({ length: 1 + rand(6) }, () => ({
        word: word(9),
        maxTypos: rand(3),
        flags: rand(8),
        ...(rand(4) === 0 ? { from: rand(words.length), to: rand(words.length + 5) } : {}),
      }));
      match(words, queries);
    }
  });
});

describe('recent matches', () => {
  it('answers queries asked before, alone or among new ones, as a matcher that never saw them', () => {
    const list = packWordList(DICT);
    const seasoned = new TypoMatcher(list);
    const batman: TypoQuery = { word: 'batman', maxTypos: 1, flags: TypoFlag.FirstChar | TypoFlag.SkipExact };
    const drag: TypoQuery = { word: 'drag', maxTypos: 2, flags: TypoFlag.Prefix };
    const park: TypoQuery = { word: 'parc', maxTypos: 1, flags: 0 };
    seasoned.match([batman, drag]);
    for (const queries of [[drag, park, batman], [batman, batman], [park], [drag, { ...drag, flags: 0 }], [{ ...batman, from: 1, to: 4 }]]) {
      expect(expandMatches(seasoned.match(queries)), JSON.stringify(queries)).toEqual(expandMatches(new TypoMatcher(list).match(queries)));
    }
  });

  it('still agrees with the reference when the records it keeps overflow and the oldest go', () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'c', 'd', 'e'];
    const word = (max: number) => Array.from({ length: 1 + rand(max) }, () => alphabet[rand(alphabet.length)]).join('');
    const words = sortWords(Array.from({ length: 3000 }, () => word(7)));
    // room for a few queries' records: most matches push older ones out
    const matcher = new TypoMatcher(packWordList(words), undefined, 300);
    const asked: TypoQuery[] = Array.from({ length: 40 }, () => ({ word: word(2), maxTypos: 2, flags: TypoFlag.Prefix }));
    for (let round = 0; round < 200; round++) {
      const queries = Array.from({ length: 1 + rand(3) }, () => (rand(2) === 0 ? asked[rand(asked.length)]! : { word: word(6), maxTypos: rand(3), flags: rand(8) }));
      expect(expandMatches(matcher.match(queries)), JSON.stringify(queries)).toEqual(referenceTypoMatch(words, queries));
    }
  });
});

describe('the skip table', () => {
  it('points each word at the first later word sharing a shorter prefix with its predecessor', () => {
    const words = sortWords(['a', 'ab', 'abc', 'abcd', 'abd', 'ac', 'b', 'ba', 'bab', 'bb', 'c']);
    const { lcp, skips } = packWordList(words);
    for (let j = 0; j < words.length; j++) {
      let expected = j + 1;
      while (expected < words.length && (lcp[expected]! & 0xffff) >= (lcp[j]! & 0xffff)) expected++;
      expect([words[j], skips[j]]).toEqual([words[j], expected]);
    }
  });

  it('leaves blocks of thousands of words sharing a dead prefix as the reference does, within a range too', () => {
    // deep blocks: every word of a 4-letter alphabet up to 6 letters, so a dead prefix at any
    // depth leaves a block holding blocks of its own
    const words: string[] = [''];
    for (let length = 0; length < 6; length++) {
      for (const word of words.filter((w) => w.length === length)) for (const c of 'abcé') words.push(word + c);
    }
    const list = sortWords(words.filter((w) => w.length > 0));
    const queries: TypoQuery[] = [
      { word: 'abcéab', maxTypos: 2, flags: TypoFlag.FirstChar },
      { word: 'ccccc', maxTypos: 1, flags: TypoFlag.Prefix | TypoFlag.FirstChar },
      { word: 'babab', maxTypos: 2, flags: TypoFlag.SkipExact, from: 100, to: 2500 },
      { word: 'éa', maxTypos: 1, flags: TypoFlag.Prefix, from: 7, to: list.length - 3 },
    ];
    match(list, queries);
  });
});

describe('a succeeding matcher', () => {
  it('matches its own list on the instance it took over, larger or smaller, nothing of the list before', () => {
    const first = new TypoMatcher(packWordList(DICT));
    const queries: TypoQuery[] = [{ word: 'batman', maxTypos: 1, flags: 0 }, { word: 'zebra', maxTypos: 1, flags: 0 }];
    const words = (matcher: TypoMatcher, list: readonly string[]) => expandMatches(matcher.match(queries)).map(([q, w, d]) => [q, list[w], d]);
    expect(words(first, DICT)).toContainEqual([0, 'batman', 0]);
    const larger = sortWords([...Array.from({ length: 5000 }, (_, i) => `word${i}`), 'zebras', 'zebra']);
    const second = first.succeededBy(packWordList(larger));
    expect(words(second, larger)).toEqual(referenceTypoMatch(larger, queries).map(([q, w, d]) => [q, larger[w], d]));
    expect(words(second, larger)).toContainEqual([1, 'zebra', 0]);
    const smaller = sortWords(['batmen', 'zebra']);
    const third = second.succeededBy(packWordList(smaller));
    expect(words(third, smaller)).toEqual([[0, 'batmen', 1], [1, 'zebra', 0]]);
  });
});

describe('new matchers', () => {
  it('each hold an instance of their own, whether made at once or from the one made ahead', async () => {
    const lists = [sortWords(['batman', 'robin']), sortWords(['dragon', 'wagon']), sortWords(['park', 'parking'])];
    const queries: TypoQuery[] = [{ word: 'batman', maxTypos: 1, flags: 0 }, { word: 'dragon', maxTypos: 1, flags: 0 }, { word: 'park', maxTypos: 1, flags: 0 }];
    const first = new TypoMatcher(packWordList(lists[0]!));
    const second = new TypoMatcher(packWordList(lists[1]!));
    // the instance made ahead is ready after the current task
    await new Promise((resolve) => setTimeout(resolve, 5));
    const third = new TypoMatcher(packWordList(lists[2]!));
    [first, second, third].forEach((matcher, i) => {
      expect(expandMatches(matcher.match(queries))).toEqual(referenceTypoMatch(lists[i]!, queries));
      expect(expandMatches(matcher.match(queries)).map(([q]) => q)).toContain(i);
    });
  });
});


/** The sources of `after` in `before`: runs of words adjacent in both, and the words `before` lacks. */
function sourcesOf(before: readonly string[], after: readonly string[], kept: ReadonlySet<string>): WordSource[] {
  const sources: WordSource[] = [];
  for (const word of after) {
    const at = kept.has(word) ? before.indexOf(word) : -1;
    const last = sources[sources.length - 1];
    if (at === -1) sources.push(word);
    else if (typeof last === 'object' && last.to === at) sources[sources.length - 1] = { from: last.from, to: at + 1 };
    else sources.push({ from: at, to: at + 1 });
  }
  return sources;
}

describe('repacking a word list', () => {
  it('packs a list changed by words added and removed as packing it afresh does, with the old longest word as a bound', () => {
    let seed = 7;
    const random = () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed / 2 ** 32;
    };
    const letters = ['a', 'b', 'é', 'ß', '東', 'x'];
    const word = () => Array.from({ length: 1 + Math.floor(random() * 7) }, () => letters[Math.floor(random() * letters.length)]).join('');
    for (let trial = 0; trial < 200; trial++) {
      const before = sortWords(Array.from({ length: Math.floor(random() * 40) }, word));
      const kept = new Set(before.filter(() => random() < 0.8));
      const after = sortWords([...kept, ...Array.from({ length: Math.floor(random() * 6) }, word)]);
      const packed = packWordList(before);
      const repacked = repackWordList(packed, sourcesOf(before, after, kept));
      const fresh = packWordList(after);
      expect({ ...repacked, longest: 0 }).toEqual({ ...fresh, longest: 0 });
      expect(repacked.longest).toBe(Math.max(fresh.longest, packed.longest));
    }
  });
});

describe('packing a word list', () => {
  it('writes each word as TextEncoder does, lone surrogates included, with common prefixes counted on whole characters', () => {
    const random = mulberry32(3);
    // one to four UTF-8 bytes, and halves of a surrogate pair alone
    const letters = ['a', 'b', 'é', 'é\u0301', '東', '😀', '😁', '\ud83d', '\ude00', 'x'];
    const encoder = new TextEncoder();
    for (let trial = 0; trial < 200; trial++) {
      const words = sortWords(Array.from({ length: Math.floor(random() * 60) }, () => Array.from({ length: 1 + Math.floor(random() * 8) }, () => letters[Math.floor(random() * letters.length)]).join('')));
      const packed = packWordList(words);
      const encoded = words.map((word) => encoder.encode(word));
      expect(packed.bytes).toEqual(Uint8Array.from(encoded.flatMap((bytes) => [...bytes])));
      expect([...packed.offsets]).toEqual(encoded.reduce((ends, bytes) => [...ends, ends.at(-1)! + bytes.length], [0]));
      const chars = (bytes: Uint8Array) => new TextDecoder().decode(bytes).length - (new TextDecoder().decode(bytes).match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
      expect(packed.longest).toBe(Math.max(0, ...encoded.map(chars)));
      for (let i = 1; i < words.length; i++) {
        const [a, b] = [encoded[i - 1]!, encoded[i]!];
        let bytes = 0;
        while (bytes < Math.min(a.length, b.length) && a[bytes] === b[bytes]) bytes++;
        // a prefix ends at a character boundary: before the difference's character
        while (bytes > 0 && bytes < b.length && (b[bytes]! & 0xc0) === 0x80) bytes--;
        expect(packed.lcp[i], `${words[i - 1]} ${words[i]}`).toBe(chars(b.subarray(0, bytes)) | (bytes << 16));
      }
    }
  });
});
