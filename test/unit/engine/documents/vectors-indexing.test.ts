import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import { sentVectors, withIndexedVectors } from '../../../../src/engine/documents/vectors-indexing.js';
import type { JsonObject } from '../../../../src/engine/document-id.js';

const embedders = { manual: { source: 'userProvided', dimensions: 3 } };

/** What the stored document becomes, as the batch computes `next` before the call. */
function index(sent: JsonObject, base: JsonObject | undefined, method: 'replace' | 'update') {
  const next = method === 'update' && base !== undefined ? { ...base, ...sent } : sent;
  return withIndexedVectors(next, sent, base, method, String(sent.id), embedders);
}

function refusal(sent: JsonObject): { code: string; message: string } {
  try {
    index(sent, undefined, 'replace');
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('accepted');
}

describe('withIndexedVectors checks', () => {
  it('refuses a `_vectors` that is not an object', () => {
    expect(refusal({ id: 1, _vectors: [1, 2] })).toEqual({
      code: 'invalid_vectors_type',
      message:
        'The `_vectors` field in the document with id: `1` is not an object. Was expecting an object with a key for each embedder with manually provided vectors, but instead got `[1,2]`',
    });
  });

  it('refuses a malformed entry, configured embedder or not', () => {
    expect(refusal({ id: 0, _vectors: { manual: { embeddings: [0, 0, 0] } } })).toEqual({
      code: 'invalid_vectors_type',
      message:
        'Bad embedder configuration in the document with id: `0`. Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`',
    });
    expect(refusal({ id: 'a', _vectors: { unknown: 'x' } }).message).toMatch(/^Bad embedder configuration in the document with id: `a`\. Expected `._vectors.unknown`/);
  });

  it('checks the numbers of configured embedders only', () => {
    expect(refusal({ id: 0, _vectors: { manual: { embeddings: [[true]], regenerate: false } } })).toEqual({
      code: 'invalid_vectors_type',
      message: 'Bad embedder configuration in the document with id: `0`. Invalid value type at `._vectors.manual.embeddings[0][0]`: expected a number, but found a boolean: `true`',
    });
    expect(index({ id: 0, _vectors: { free: [['not', 'numbers']] } }, undefined, 'replace')._vectors).toEqual({ free: [['not', 'numbers']] });
  });

  it('refuses embeddings of the wrong dimensions and more than 256 embeddings', () => {
    expect(refusal({ id: 0, _vectors: { manual: [[1, 2, 3], [1, 2]] } })).toEqual({
      code: 'invalid_vector_dimensions',
      message: 'Invalid vector dimensions in document with id `0` in `._vectors.manual`.\n  - note: embedding #1 has dimensions 2\n  - note: embedder `manual` requires 3',
    });
    const many = Array.from({ length: 257 }, () => [1, 2, 3]);
    expect(refusal({ id: 7, _vectors: { manual: many } })).toEqual({
      code: 'too_many_vectors',
      message: 'Too many vectors for document with id 7: found 257, but limited to 256.',
    });
  });
});

describe('withIndexedVectors keeps', () => {
  const base = { id: 1, title: 'a', _vectors: { free: [9] } };

  it('returns documents without vectors untouched', () => {
    const sent = { id: 1, title: 'a' };
    expect(index(sent, undefined, 'replace')).toBe(sent);
  });

  it('takes the configured embedders out of the stored document and attaches what was sent', () => {
    const stored = index({ id: 1, title: 'b', _vectors: { manual: [1, 2, 3], free: [9] } }, undefined, 'replace');
    expect(stored).toEqual({ id: 1, title: 'b', _vectors: { free: [9] } });
    expect(sentVectors(stored)).toEqual({ id: '1', entries: new Map([['manual', { form: 'shorthand', embeddings: [1, 2, 3], vectors: [[1, 2, 3]] }]]) });
    expect(index({ id: 1, _vectors: { manual: null } }, undefined, 'replace')).toEqual({ id: 1 });
  });

  it('tells apart embeddings given and `{"regenerate": …}` alone', () => {
    const sent = (value: unknown) => sentVectors(index({ id: 1, _vectors: { manual: value } }, undefined, 'replace'))!.entries.get('manual');
    expect(sent({ regenerate: false })).toEqual({ form: 'object', regenerate: false, embeddings: undefined, vectors: null });
    expect(sent({ regenerate: true, embeddings: null })).toEqual({ form: 'object', regenerate: true, embeddings: null, vectors: null });
    expect(sent([])?.vectors).toEqual([]);
    expect(sent(null)?.vectors).toEqual([]);
  });

  it('attaches an empty record to documents that sent nothing, so a missing embedding is seen', () => {
    expect(sentVectors(index({ id: 2, title: 'x' }, undefined, 'replace'))).toEqual({ id: '2', entries: new Map() });
  });

  it('merges the other names on update and keeps only the sent ones on replacement', () => {
    expect(index({ id: 1, _vectors: { other: [5] } }, base, 'update')).toEqual({ id: 1, title: 'a', _vectors: { free: [9], other: [5] } });
    expect(index({ id: 1, _vectors: null }, base, 'update')._vectors).toEqual(base._vectors);
    expect(index({ id: 1, title: 'b' }, base, 'replace')).toEqual({ id: 1, title: 'b' });
  });

  it('stores no empty `_vectors`', () => {
    expect(index({ id: 1, _vectors: {} }, undefined, 'replace')).toEqual({ id: 1 });
  });
});
