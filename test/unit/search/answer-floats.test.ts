// Which members of a search answer are written as floats: hits' scores, score details, federation
// weights, facet stats, in every answer shape (search, multi-search, federated, similar).
import { describe, expect, it } from 'vitest';
import { withAnswerFloats } from '../../../src/search/answer-floats.js';
import { stringifyReply } from '../../../src/types/reply-text.js';

describe('withAnswerFloats', () => {
  it('marks the scores and score details of hits, sort values and geo sort points included, not document fields', () => {
    const answer = withAnswerFloats({
      hits: [
        {
          score: 1,
          _rankingScore: 1,
          _rankingScoreDetails: {
            words: { order: 0, matchingWords: 1, maxMatchingWords: 1, score: 1 },
            attribute: { order: 1, attributeRankingOrderScore: 1, queryWordDistanceScore: 0, score: 1 },
            '_geoPoint(1, 2):asc': { order: 2, value: { lat: 1, lng: 2 }, distance: 0 },
            'year:asc': { order: 3, value: 1999 },
            vectorSort: { order: 4, similarity: 1 },
          },
        },
      ],
    });
    expect(stringifyReply(answer)).toBe(
      '{"hits":[{"score":1,"_rankingScore":1.0,"_rankingScoreDetails":{' +
        '"words":{"order":0,"matchingWords":1,"maxMatchingWords":1,"score":1.0},' +
        '"attribute":{"order":1,"attributeRankingOrderScore":1.0,"queryWordDistanceScore":0.0,"score":1.0},' +
        '"_geoPoint(1, 2):asc":{"order":2,"value":{"lat":1.0,"lng":2.0},"distance":0.0},' +
        '"year:asc":{"order":3,"value":1999.0},' +
        '"vectorSort":{"order":4,"similarity":1.0}}}]}',
    );
  });

  it('marks multi-search results, federation weights, facet stats and facets by index', () => {
    const answer = withAnswerFloats({
      results: [{ hits: [{ _rankingScore: 0 }], facetStats: { year: { min: 1, max: 2 } } }],
    });
    expect(stringifyReply(answer)).toBe('{"results":[{"hits":[{"_rankingScore":0.0}],"facetStats":{"year":{"min":1.0,"max":2.0}}}]}');
    const federated = withAnswerFloats({
      hits: [{ _federation: { indexUid: 'm', queriesPosition: 0, weightedRankingScore: 1 } }],
      facetsByIndex: { m: { distribution: { year: { '1': 1 } }, stats: { year: { min: 1, max: 1 } } } },
    });
    expect(stringifyReply(federated)).toBe(
      '{"hits":[{"_federation":{"indexUid":"m","queriesPosition":0,"weightedRankingScore":1.0}}],"facetsByIndex":{"m":{"distribution":{"year":{"1":1}},"stats":{"year":{"min":1.0,"max":1.0}}}}}',
    );
  });
});
