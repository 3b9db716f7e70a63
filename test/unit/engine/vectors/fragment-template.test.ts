// Fragment templates (milli's JsonTemplate): every string of a JSON value rendered as Liquid,
// against a document's `doc` or a query's `q`/`media`; a fragment naming what its input lacks does
// not render; parse and render errors keep the failing string's path in milli's words.
import { describe, expect, it } from 'vitest';
import {
  documentFragmentContext,
  fragmentParseError,
  renderDocumentFragment,
  renderFragment,
  searchFragmentContext,
} from '../../../../src/engine/vectors/fragment-template.js';

describe('fragment templates', () => {
  it('renders every string of a JSON value, keeping the other values', () => {
    const fragment = { text: '{{ doc.name }} is a dog', n: 3, list: ['{{ doc.tags[1] }}', null, { deep: '{{ doc.owner.name }}' }] };
    const doc = { id: 1, name: 'kefir', tags: ['a', 'b'], owner: { name: 'tamo' }, _vectors: { x: [1] } };
    expect(renderFragment(fragment, documentFragmentContext(doc))).toEqual({ text: 'kefir is a dog', n: 3, list: ['b', null, { deep: 'tamo' }] });
  });

  it('gives nothing for a document lacking a field the fragment names, and hides _vectors', () => {
    expect(renderDocumentFragment('{{ doc.name }} is a {{ doc.breed }}', documentFragmentContext({ name: 'kefir' }))).toBeUndefined();
    expect(renderDocumentFragment('{{ doc._vectors }}', documentFragmentContext({ _vectors: { e: [1] } }))).toBeUndefined();
    expect(renderDocumentFragment('{{ fields }}', documentFragmentContext({ a: 1 }))).toBeUndefined();
  });

  it('renders a search fragment from q and media, each only when given', () => {
    expect(renderFragment({ q: '{{ q }}', m: '{{ media.image }}' }, searchFragmentContext('cat', { image: 'a.png' }))).toEqual({ q: 'cat', m: 'a.png' });
    expect(() => renderFragment('{{ q }}', searchFragmentContext(null, { image: 'a.png' }))).toThrow();
    expect(() => renderFragment('{{ media.image }}', searchFragmentContext('cat', undefined))).toThrow();
  });

  it('names the first string that does not parse, by its path', () => {
    expect(fragmentParseError({ a: ['ok', { b: '{{ doc.x ' }] })?.parsingError('.indexingFragments.f')).toMatch(
      /^in ``\.indexingFragments\.f\.a\[1\]\.b``, error while parsing template: liquid: /,
    );
    expect(fragmentParseError('{% if %}')?.parsingError('.searchFragments.s')).toMatch(/^error while parsing template: liquid: /);
    expect(fragmentParseError({ a: '{{ doc.x }}', b: 2 })).toBeUndefined();
  });
});
