// milli's proximity-then-typo tests (crates/milli/src/search/new/tests/proximity_typo.rs at
// v1.50.0) over Quarry's engine: proximity ranks over every derivation of the terms (typo ones
// included), and never narrows the derivations the typo rule after it sees.
import { afterEach, describe, expect, it } from 'vitest';
import { DocumentStore } from '../../../../src/engine/documents/store.js';
import { openTestIndex, type TestIndex } from './harness.js';

let index: TestIndex;
afterEach(async () => {
  await index.close();
});

describe('milli proximity_typo.rs', () => {
  it('test_trap_basic: typo words in proximity rank a document first though its exact words are far apart, and it still counts 0 typos', () => {
    index = openTestIndex({ searchableAttributes: ['text'], rankingRules: ['words', 'proximity', 'typo'] });
    index.write({
      0: { id: 0, text: 'summer. holiday. sommer holidty' },
      1: { id: 1, text: 'summer. holiday. sommer holiday' },
    });
    const store = new DocumentStore(index.env);
    const hits = index.search('summer holiday', { matchingStrategy: 'all' }).hits;
    expect(hits.map((hit) => Number(store.byDocid(hit.docid)!.id))).toEqual([0, 1]);
    const both = [
      { kind: 'proximity', rank: 4, max: 4 },
      { kind: 'typo', count: 0, max: 2 },
    ];
    expect(hits.map((hit) => hit.details)).toEqual([both, both]);
  });
});
