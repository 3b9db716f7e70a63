import { describe, expect, it } from 'vitest';
import { projectDocument, projectValue } from '../../../../src/engine/documents/project.js';

const doc = {
  id: 1,
  title: 'Carol',
  author: { name: 'Patricia', born: { year: 1921, city: 'Fort Worth' }, tags: ['a'] },
  'a.b': 'dotted key',
  a: { b: 'nested', c: 'other' },
  editions: [{ year: 1952, publisher: 'Coward-McCann' }, { year: 1990, publisher: 'Bloomsbury' }, 'loose'],
  _vectors: { default: [0.1] },
};

describe('projectDocument', () => {
  it('keeps every field but _vectors without selectors', () => {
    const { _vectors: _, ...rest } = doc;
    expect(projectDocument(doc, null)).toEqual(rest);
  });

  it('keeps a whole field under a selector and only the way to a nested one', () => {
    expect(projectDocument(doc, ['title', 'author.born.year'])).toEqual({ title: 'Carol', author: { born: { year: 1921 } } });
  });

  it('applies a nested selector to every element of an array, keeping scalars', () => {
    expect(projectDocument(doc, ['editions.year'])).toEqual({ editions: [{ year: 1952 }, { year: 1990 }, 'loose'] });
  });

  it('reaches both a top-level key that holds the dot and the nested field', () => {
    expect(projectDocument(doc, ['a.b'])).toEqual({ 'a.b': 'dotted key', a: { b: 'nested' } });
  });

  it('selects nothing for unknown selectors, however many', () => {
    const many = Array.from({ length: 100_000 }, (_, i) => `field${i}.inner`);
    expect(projectDocument(doc, many)).toEqual({});
    expect(projectDocument(doc, [...many, 'id'])).toEqual({ id: 1 });
  });

  it('never returns _vectors, even when selected', () => {
    expect(projectDocument(doc, ['_vectors', 'id'])).toEqual({ id: 1 });
  });
});

describe('projectValue', () => {
  it('returns the value whole when a selector covers its path or a parent path', () => {
    expect(projectValue(doc.author, 'author', ['author'])).toBe(doc.author);
    expect(projectValue(doc.author.born, 'author.born', ['author'])).toBe(doc.author.born);
  });

  it('keeps the fields on the way to a selector', () => {
    expect(projectValue(doc.author, 'author', ['author.born.city', 'author.tags'])).toEqual({ born: { city: 'Fort Worth' }, tags: ['a'] });
  });
});
