// What the proximity rule pairs (proximity-terms.ts, ranking.md §5) on a real index: phrase-like
// terms (quoted phrases, split words, synonyms of one or more words) pair forward only, through
// their first and last words; a common prefix pairs the words it starts forward only, and the
// prefix as an indexed word in both orders; an n-gram node costs n − 1 more on its edge.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { dictionaryOf } from '../../../../src/engine/search/dictionary.js';
import { ForwardReader, layRecord, SCRATCH_GROUP_BYTES, type ForwardTokens } from '../../../../src/engine/search/forward.js';
import { RecordArena } from '../../../../src/kernels/record-arena.js';
import { ProximityTerms, type ProximityInput } from '../../../../src/engine/search/proximity-terms.js';
import { parseQuery } from '../../../../src/engine/search/query.js';
import { resolveTerms, termFeatures } from '../../../../src/engine/search/terms.js';
import { withScratch } from '../../../../src/engine/search/scratch.js';
import { readWordsVersion } from '../../../../src/engine/index-changes.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

/** Each hit's id → its proximity `rank/max`, for a search matching every term. */
function proximity(q: string): Record<string, string> {
  const store = new DocumentStore(index.env);
  const out: Record<string, string> = {};
  for (const hit of index.search(q, { matchingStrategy: 'all' }).hits) {
    const detail = hit.details.find((d) => d.kind === 'proximity');
    out[String(store.byDocid(hit.docid)!.id)] = detail?.kind === 'proximity' ? `${detail.rank}/${detail.max}` : 'none';
  }
  return out;
}

function openWith(texts: Record<string, string>, settings = {}): TestIndex {
  const opened = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words', 'proximity'], ...settings });
  opened.write(Object.fromEntries(Object.entries(texts).map(([id, text]) => [id, { id, text }])));
  return opened;
}

describe('proximity of phrase-like terms', () => {
  it('gives nothing for reversed order next to a quoted phrase, while two words in reverse cost one more than in order', () => {
    index = openWith({ forward: 'wilting sun flower', reversed: 'sun flower wilting' });
    expect(proximity('wilting "sun flower"')).toEqual({ forward: '4/4', reversed: '1/4' });
    expect(proximity('wilting flower')).toEqual({ forward: '3/4', reversed: '3/4' });
  });

  it('pairs a split word on the right through its first word', () => {
    index = openWith({ forward: 'wilting sun flower', reversed: 'sun flower wilting', single: 'wilting sunflower' });
    expect(proximity('wilting sunflower')).toEqual({ single: '4/4', forward: '4/4', reversed: '1/4' });
  });

  it('pairs a one-word synonym forward only, as the phrase milli matches it as', () => {
    index = openWith({ forward: 'flower wilting', reversed: 'wilting flower' }, { synonyms: { xyz: ['flower'] } });
    expect(proximity('xyz wilting')).toEqual({ forward: '4/4', reversed: '1/4' });
  });

  it('pairs the first and last words of a phrase anywhere in a document holding it, not in one that lacks it', () => {
    index = openWith({ holds: 'sun flower. big flower wilting', lacks: 'sun. big flower wilting' });
    expect(proximity('"sun flower" wilting')).toEqual({ holds: '4/4' });
    expect(proximity('sunflower wilting')).toEqual({ holds: '4/4' });
  });
});

describe('proximity of a common prefix', () => {
  // 120 words starting with "win": "win" is a common prefix, "wint" is not
  const many = Array.from({ length: 120 }, (_, k) => `win${String.fromCharCode(97 + (k % 26))}${String.fromCharCode(97 + Math.floor(k / 26))}x`).join(' ');

  it('counts reversed order through the prefix as an indexed word only', () => {
    index = openWith({ many, word: 'win best', derived: 'winter best', after: 'best winter' });
    expect(proximity('best win')).toEqual({ after: '4/4', word: '3/4', derived: '1/4' });
    // a rarer prefix keeps the exact proximity of every word it starts
    expect(proximity('best wint')).toEqual({ after: '4/4', derived: '3/4' });
  });
});

describe('ProximityTerms', () => {
  it('prices a query again as before after another query took the shared word arrays', () => {
    index = openWith({ a: 'red apple green pear' });
    const env = index.env;
    const dictionary = dictionaryOf(env);
    const options = {
      env,
      settings: index.settings,
      dictionary,
      allowedMask: 0xffffffff,
      exactFieldsMask: 0,
      postings: new Map(),
      prefixes: new Map(),
      splits: new Map(),
      phrases: new Map(),
      forward: new ForwardReader(env, readWordsVersion(env)),
      timeUp: () => false,
      onCut: () => undefined,
    };
    const planOf = (q: string) => {
      const terms = resolveTerms(parseQuery(q, new Set()).terms, true, options);
      const candidates = Uint32Array.from(terms[0]!.docs);
      const input = { terms, features: termFeatures(terms, candidates), candidates, dictionary, forward: options.forward };
      return new ProximityTerms(input, false);
    };
    const costOf = (plan: ProximityTerms) => plan.gatherGroup([0], undefined, false).costs(plan.records([true, true]).records)[0];
    // the terms' features are scratch arrays, valid while the scratch is open (as a ranking holds it)
    withScratch(() => {
      const first = planOf('red apple');
      // adjacent in order: 0; reversed (distance 1 + 1): 1
      expect(costOf(first)).toBe(0);
      // a second query on the same words now stamps the arrays; the first one's entries stay its own
      expect(costOf(planOf('apple red'))).toBe(1);
      expect(costOf(first)).toBe(0);
    });
  });
});

describe('a group whose records lie in several arenas', () => {
  const FOUR = { a: 'red apple green pear', b: 'apple pie red', c: 'red fruit apple', d: 'apple red' };
  // adjacent: 0; reversed at distance 2 (2 + 1): 2; in order at distance 2: 1; reversed adjacent (1 + 1): 1
  const EXPECTED = [0, 2, 1, 1];

  /** The 'red apple' costs of FOUR's documents, their records read through `forward`. */
  const costsWith = (target: TestIndex, forward: ProximityInput['forward']) =>
    withScratch(() => {
      const { env, settings } = target;
      const dictionary = dictionaryOf(env);
      const reader = new ForwardReader(env, readWordsVersion(env));
      const options = { env, settings, dictionary, allowedMask: 0xffffffff, exactFieldsMask: 0, postings: new Map(), prefixes: new Map(), splits: new Map(), phrases: new Map(), forward: reader, timeUp: () => false, onCut: () => undefined };
      const terms = resolveTerms(parseQuery('red apple', new Set()).terms, true, options);
      const candidates = Uint32Array.from([0, 1, 2, 3]);
      const plan = new ProximityTerms({ terms, features: termFeatures(terms, candidates), candidates, dictionary, forward }, false);
      return Array.from(plan.gatherGroup([0, 1, 2, 3], undefined, false).costs(plan.records([true, true]).records));
    });

  it('prices each document as when its records lie in one', () => {
    index = openWith(FOUR);
    const env = index.env;
    // each record laid in an arena of its own, as when the cache budget drops the arena between two reads
    const apart = new Map<number, ForwardTokens>();
    const readApart = (docid: number) => {
      if (!apart.has(docid)) apart.set(docid, layRecord(env.docWords.getBinaryFast(docid)!, new RecordArena()));
      return apart.get(docid)!;
    };
    expect(costsWith(index, new ForwardReader(env, readWordsVersion(env)))).toEqual(EXPECTED);
    expect(costsWith(index, { read: readApart, openGroup: () => {}, closeGroup: () => {}, groupScratchBytes: 0 })).toEqual(EXPECTED);
  });

  it('gathers the records of two arenas taking turns in one call per arena, each document priced as in one', () => {
    index = openWith(FOUR);
    const env = index.env;
    // documents 0 and 2 in one arena, 1 and 3 in another, as records of the cache and of the
    // scratch memory alternate in a group bigger than the cache
    const arenas = [new RecordArena(), new RecordArena()];
    let gathers = 0;
    for (const arena of arenas) {
      const gather = arena.gather.bind(arena);
      arena.gather = (table, docs) => {
        gathers++;
        return gather(table, docs);
      };
    }
    const laid = new Map<number, ForwardTokens>();
    const readTurns = (docid: number) => {
      if (!laid.has(docid)) laid.set(docid, layRecord(env.docWords.getBinaryFast(docid)!, arenas[docid % 2]!));
      return laid.get(docid)!;
    };
    expect(costsWith(index, { read: readTurns, openGroup: () => {}, closeGroup: () => {}, groupScratchBytes: 0 })).toEqual(EXPECTED);
    expect(gathers).toBe(2);
  });

  it('prices each document as in one piece when the records past the cache are gathered piece by piece', () => {
    index = openWith(FOUR);
    const reader = new ForwardReader(index.env, readWordsVersion(index.env));
    // every record counted as a full piece past the cache: a piece per document
    let pieces = 0;
    const pieceByPiece: ProximityInput['forward'] = {
      read: (docid) => reader.read(docid),
      openGroup: () => pieces++,
      closeGroup: () => {},
      groupScratchBytes: SCRATCH_GROUP_BYTES,
    };
    expect(costsWith(index, pieceByPiece)).toEqual(EXPECTED);
    expect(pieces).toBe(4);
  });
});

describe('proximity through n-grams', () => {
  it('prices an n-gram node n − 1 more on its edge, its first edge and the costliest pair too', () => {
    index = openWith({ words: 'wilting sun flower', joined: 'wilting sunflower', far: 'wilting a b c sunflower', first: 'sunflower wilting' });
    // the words alone cost at most 3 + 3: rank 7 − cost of the document's best cut
    expect(proximity('wilting sun flower')).toEqual({ words: '7/7', joined: '6/7', far: '3/7', first: '5/7' });
    // an n-gram starting the query costs n − 1 on its first edge (then 0 forward, 1 reversed)
    expect(proximity('sun flower wilting')).toEqual({ words: '5/7', joined: '5/7', far: '3/7', first: '6/7' });
  });
});
