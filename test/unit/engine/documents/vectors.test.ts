import { describe, expect, it } from 'vitest';
import { embeddingsOf, readEntry, vectorsView, type StoredEmbeddingsOf } from '../../../../src/engine/documents/vectors.js';

const problem = (value: unknown) => (value as { problem?: string }).problem;

describe('readEntry', () => {
  it('reads arrays and null as the shorthand form and objects with `regenerate` as the object form', () => {
    expect(readEntry('m', [0.1, 0.2])).toEqual({ form: 'shorthand', embeddings: [0.1, 0.2] });
    expect(readEntry('m', null)).toEqual({ form: 'shorthand', embeddings: null });
    expect(readEntry('m', { embeddings: [[1]], regenerate: true })).toEqual({ form: 'object', regenerate: true, embeddings: [[1]] });
    expect(readEntry('m', { regenerate: false })).toEqual({ form: 'object', regenerate: false, embeddings: undefined });
  });

  it('refuses an object without `regenerate`', () => {
    expect(problem(readEntry('manual', { embeddings: [0, 0, 0] }))).toBe(
      'Missing field `._vectors.manual.regenerate`\n  - note: `._vectors.manual` must be an array of floats, an array of arrays of floats, or an object with field `regenerate`',
    );
    expect(problem(readEntry('manual', {}))).toMatch(/^Missing field `._vectors.manual.regenerate`/);
  });

  it('refuses a `regenerate` that is not a boolean with serde position in the compact object text', () => {
    expect(problem(readEntry('manual', { regenerate: 'yes please' }))).toBe(
      'Could not parse `._vectors.manual.regenerate`: invalid type: string "yes please", expected a boolean at line 1 column 26',
    );
    expect(problem(readEntry('manual', { embeddings: [1], regenerate: 3 }))).toBe(
      'Could not parse `._vectors.manual.regenerate`: invalid type: integer `3`, expected a boolean at line 1 column 32',
    );
    // a map is refused before it is read: the column is the one before `{`
    expect(problem(readEntry('manual', { regenerate: {} }))).toBe(
      'Could not parse `._vectors.manual.regenerate`: invalid type: map, expected a boolean at line 1 column 14',
    );
  });

  it('refuses an unknown key, checked before the missing `regenerate`', () => {
    expect(problem(readEntry('manual', { x: 1 }))).toBe('Unexpected field `._vectors.manual.x`\n  - note: the allowed fields are `regenerate` and `embeddings`');
  });

  it('refuses scalars with their kind', () => {
    const tail = 'to be an array of floats, an array of arrays of floats, or an object with at least the field `regenerate`, but got the';
    expect(problem(readEntry('m', 'x'))).toBe(`Expected \`._vectors.m\` ${tail} string \`x\``);
    expect(problem(readEntry('m', true))).toBe(`Expected \`._vectors.m\` ${tail} boolean \`true\``);
    expect(problem(readEntry('m', 3))).toBe(`Expected \`._vectors.m\` ${tail} integer \`3\``);
    expect(problem(readEntry('m', 1.5))).toBe(`Expected \`._vectors.m\` ${tail} number \`1.5\``);
  });
});

describe('embeddingsOf', () => {
  it('normalises one vector, several vectors, empty and null to an array of arrays', () => {
    expect(embeddingsOf('m', [0.1, 0.2])).toEqual([[0.1, 0.2]]);
    expect(embeddingsOf('m', [[1, 2], [3, 4]])).toEqual([[1, 2], [3, 4]]);
    expect(embeddingsOf('m', [])).toEqual([]);
    expect(embeddingsOf('m', null)).toEqual([]);
    expect(embeddingsOf('m', undefined)).toEqual([]);
  });

  it('gives deserr messages at the `embeddings` path', () => {
    const at = 'Invalid value type at `._vectors.manual.embeddings';
    expect(problem(embeddingsOf('manual', true))).toBe(`${at}\`: expected null or an array, but found a boolean: \`true\``);
    expect(problem(embeddingsOf('manual', ['yeah']))).toBe(`${at}[0]\`: expected a number or an array, but found a string: \`"yeah"\``);
    expect(problem(embeddingsOf('manual', [null]))).toBe(`${at}[0]\`: expected a number or an array, but found null`);
    expect(problem(embeddingsOf('manual', [[true]]))).toBe(`${at}[0][0]\`: expected a number, but found a boolean: \`true\``);
    expect(problem(embeddingsOf('manual', [0.1, [0.2, 0.3]]))).toBe(`${at}[1]\`: expected a number, but found an array: \`[0.2,0.3]\``);
    expect(problem(embeddingsOf('manual', [[0.1, 0.2], 0.3]))).toBe(`${at}[1]\`: expected an array, but found a number: \`0.3\``);
    expect(problem(embeddingsOf('manual', [[0.1, true], 0.3]))).toBe(`${at}[0][1]\`: expected a number, but found a boolean: \`true\``);
    expect(problem(embeddingsOf('manual', [[1], -3]))).toBe(`${at}[1]\`: expected an array, but found a negative integer: \`-3\``);
  });
});

describe('vectorsView', () => {
  const embedders = { manual: { source: 'userProvided', dimensions: 2 }, other: { source: 'userProvided', dimensions: 1 } };
  const store =
    (entries: Record<string, { embeddings: number[][]; regenerate: boolean }>): StoredEmbeddingsOf =>
    (name) =>
      entries[name] === undefined ? undefined : { embeddings: entries[name].embeddings.map((v) => Float32Array.from(v)), regenerate: entries[name].regenerate };

  it('shows every configured embedder from the store in the object form with f32 values, sorted by name', () => {
    const view = vectorsView(undefined, embedders, store({ manual: { embeddings: [[0.1, 0.2]], regenerate: false } }));
    expect(Object.keys(view)).toEqual(['manual', 'other']);
    expect(view).toEqual({
      manual: { embeddings: [[0.10000000149011612, 0.20000000298023224]], regenerate: false },
      other: { embeddings: [], regenerate: true },
    });
    expect(Object.keys(view.manual as object)).toEqual(['embeddings', 'regenerate']);
  });

  it('ignores entries a stored document keeps under a configured name', () => {
    expect(vectorsView({ manual: [9, 9] }, embedders, store({ manual: { embeddings: [], regenerate: false } })).manual).toEqual({ embeddings: [], regenerate: false });
  });

  it('puts names that are no configured embedder first, as Meilisearch stores them', () => {
    const view = vectorsView({ zeta: [0.1, 0.2], alpha: { embeddings: [[1]], regenerate: true }, beta: null, gamma: { regenerate: false } }, embedders, store({}));
    expect(Object.keys(view)).toEqual(['alpha', 'beta', 'gamma', 'zeta', 'manual', 'other']);
    expect(view.zeta).toEqual([0.1, 0.2]);
    expect(view.alpha).toEqual({ regenerate: true, embeddings: [[1]] });
    expect(Object.keys(view.alpha as object)).toEqual(['regenerate', 'embeddings']);
    expect(view.beta).toEqual([]);
    expect(view.gamma).toEqual({ regenerate: false, embeddings: null });
  });

  it('is an empty object without embedders nor stored vectors', () => {
    expect(vectorsView(undefined, {}, store({}))).toEqual({});
  });

  it('exports the vectors of fragment embedders with regenerate false, and shows the stored flag to retrieveVectors', () => {
    const embedders = { frag: { source: 'rest', indexingFragments: { a: { value: {} } } } };
    const stored = store({ frag: { embeddings: [[1]], regenerate: true } });
    expect(vectorsView(undefined, embedders, stored)).toEqual({ frag: { embeddings: [[1]], regenerate: false } });
    expect(vectorsView(undefined, embedders, stored, 'retrieve')).toEqual({ frag: { embeddings: [[1]], regenerate: true } });
  });
});
