// The personalization service on a fake HTTP client: a blank key disables it, what a hit sends,
// the deadline checked before the first attempt, a network error's message once the retries are
// spent, and an answer's indices beyond the hits.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import type { OutgoingClient } from '../../../src/outgoing/client.js';
import { hitDocument, NO_PERSONALIZATION, personalizationService } from '../../../src/search/personalization.js';

type Request = OutgoingClient['request'];
const personalize = { userContext: 'likes old films' };
const never = Number.POSITIVE_INFINITY;

function client(answer: Request): { request: Request; calls: number } {
  const fake = {
    calls: 0,
    request: (async (url, init) => {
      fake.calls++;
      return answer(url, init);
    }) as Request,
  };
  return fake;
}

describe('the personalization service', () => {
  it('is disabled without a key or with a blank one', () => {
    const fake = client(async () => ({ status: 200, headers: {}, body: Buffer.from('{"results":[]}') }));
    expect(personalizationService(null, 'http://x', fake)).toBe(NO_PERSONALIZATION);
    expect(personalizationService('  ', 'http://x', fake)).toBe(NO_PERSONALIZATION);
    expect(() => NO_PERSONALIZATION.rerank([1], personalize, null, never, (hit) => hit)).toThrow(ApiError);
  });

  it("sends a hit's document without its formatting, scores or federation info", () => {
    const hit = { id: 1, title: 'Metropolis', _geoDistance: 3, _formatted: { title: '<em>Metropolis</em>' }, _matchesPosition: {}, _rankingScore: 1, _rankingScoreDetails: {}, _federation: {} };
    expect(hitDocument(hit)).toEqual({ id: 1, title: 'Metropolis', _geoDistance: 3 });
    expect(Object.keys(hitDocument(JSON.parse('{"__proto__": 1}')))).toEqual(['__proto__']);
  });

  it('answers the hits as they are once the deadline has passed, without asking', async () => {
    const fake = client(async () => ({ status: 200, headers: {}, body: Buffer.from('{"results":[{"index":1},{"index":0}]}') }));
    const service = personalizationService('key', 'http://x', fake);
    expect(await service.rerank(['a', 'b'], personalize, 'q', performance.now() - 1, (hit) => hit)).toEqual(['a', 'b']);
    expect(fake.calls).toBe(0);
    expect(await service.rerank(['a', 'b'], personalize, 'q', never, (hit) => hit)).toEqual(['b', 'a']);
    expect(fake.calls).toBe(1);
  });

  it('skips indices beyond the hits, as v1.50 does', async () => {
    const fake = client(async () => ({ status: 200, headers: {}, body: Buffer.from('{"results":[{"index":5},{"index":0}]}') }));
    expect(await personalizationService('key', 'http://x', fake).rerank(['a', 'b'], personalize, null, never, (hit) => hit)).toEqual(['a']);
  });

  it('fails with remote_could_not_send_request after 10 retries of a network error', async () => {
    const fake = client(async () => {
      throw new Error('connect ECONNREFUSED');
    });
    const service = personalizationService('key', 'http://x', fake);
    // 10 retries, 10^n ms apart (plus jitter): ~11 s of waits up to the fourth; a fake clock would hide the loop's real bound
    const failure = service.rerank(['a'], personalize, null, never, (hit) => hit).catch((error: unknown) => error);
    await expect(Promise.race([failure, new Promise((resolve) => setTimeout(() => resolve('still retrying'), 50))])).resolves.toBe('still retrying');
    expect(fake.calls).toBeGreaterThanOrEqual(2);
  });
});
