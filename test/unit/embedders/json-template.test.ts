// The REST embedder's JSON templates: milli's parse messages for misplaced placeholders and
// repeat markers, injection of texts, and extraction of embeddings from answers.
import { describe, expect, it } from 'vitest';
import {
  EMBEDDING_PLACEHOLDER,
  TEXT_PLACEHOLDER,
  extractEmbeddings,
  inject,
  parseInjectable,
} from '../../../src/embedders/json-template.js';

const parseRequest = (template: unknown) => parseInjectable(template, 'request', TEXT_PLACEHOLDER);
const parseResponse = (template: unknown) => parseInjectable(template, 'response', EMBEDDING_PLACEHOLDER);
const requestError = (template: unknown) => {
  try {
    parseRequest(template);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('no error');
};

describe('parsing', () => {
  it('finds a single placeholder or the repeated form', () => {
    expect(parseRequest({ input: '{{text}}', model: 'm' }).single).toEqual(['input']);
    const batch = parseRequest({ input: ['{{text}}', '{{..}}'] });
    expect(batch.array).toMatchObject({ pathToArray: ['input'], pathInArray: [] });
    expect(parseRequest({ input: [{ text: '{{text}}', kind: 'x' }, '{{..}}'] }).array?.pathInArray).toEqual(['text']);
  });

  it("reports milli's messages for every misplaced marker", () => {
    expect(requestError({ input: 'x' })).toBe('in `request`: "{{text}}" not found');
    expect(requestError({ a: '{{text}}', b: '{{text}}' })).toBe('in `request.b`: Found "{{text}}", but it was already present in `request.a`');
    expect(requestError({ a: '{{..}}' })).toBe('in `request.a`: "{{..}}" appears outside of an array');
    expect(requestError({ a: ['{{text}}', 'x', '{{..}}'] })).toBe('in `request.a`: "{{..}}" expected at position #1, but found at position #2');
    expect(requestError({ a: ['{{..}}', '{{..}}'] })).toBe('in `request.a`: "{{..}}" expected at position #1, but found at position #0');
    expect(requestError({ a: ['x', '{{..}}'] })).toBe('in `request.a[0]`: Expected "{{text}}" inside of the repeated value');
    expect(requestError({ a: [{ b: ['{{text}}', '{{..}}'] }, '{{..}}'] })).toBe(
      'in `request.a.b`: "{{..}}" appears nested inside of a value that is itself repeated',
    );
    expect(requestError({ a: ['{{text}}', '{{..}}'], b: ['{{text}}', '{{..}}'] })).toBe(
      'in `request.b`: Found "{{..}}", but it was already present in `request.a`',
    );
    expect(requestError({ a: ['{{text}}', '{{..}}'], b: '{{text}}' })).toBe(
      'in `request.b`: Found "{{text}}", but it was already present in `request.a[0]` (repeated)',
    );
  });
});

describe('injecting and extracting', () => {
  it('puts each text in its own copy of the repeated value', () => {
    const template = parseRequest({ model: 'm', input: [{ text: '{{text}}' }, '{{..}}'] });
    expect(inject(template, ['a', 'b'])).toEqual({ model: 'm', input: [{ text: 'a' }, { text: 'b' }] });
    expect(inject(parseRequest('{{text}}'), ['only'])).toBe('only');
  });

  it('reads one embedding per repeated element, in order', () => {
    const template = parseResponse({ data: [{ embedding: '{{embedding}}' }, '{{..}}'] });
    const embeddings = extractEmbeddings(template, { data: [{ embedding: [0.5, 1] }, { embedding: [2, 3] }] });
    expect(embeddings.map((e) => Array.from(e))).toEqual([[0.5, 1], [2, 3]]);
  });

  it("explains an answer that does not fit the template, suggesting a close key", () => {
    const template = parseResponse({ data: { embedding: '{{embedding}}' } });
    expect(() => extractEmbeddings(template, { data: { embeddings: [1] } })).toThrow(
      'in `response.data`, while extracting a single "{{embedding}}", configuration expects key "embedding", which is missing in response\n' +
        '  - Hint: `data` has key `embeddings`, did you mean `response.data.embeddings` in embedder configuration?',
    );
    expect(() => extractEmbeddings(template, { data: 3 })).toThrow(
      'in `response.data`, while extracting a single "{{embedding}}", configuration expects `data` to be an object with key `embedding` but server sent 3',
    );
    expect(() => extractEmbeddings(template, { data: { embedding: ['x'] } })).toThrow(
      /^in `response.data.embedding`, while extracting a single "\{\{embedding\}\}", expected `embedding` to be an array of numbers, but failed to parse server response:/,
    );
  });
});
