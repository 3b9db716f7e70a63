// Document templates: the `doc` and `fields` context of milli's prompt module, the default
// template, strict variables, the bounded engine (no file system), UTF-8 truncation and the
// parse check settings use.
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/errors/api-error.js';
import { renderDocumentTemplate, templateParseProblem, truncateUtf8 } from '../../../../src/engine/vectors/template.js';

describe('rendering', () => {
  it('renders the default template over the searchable fields, skipping nulls and reserved fields', () => {
    const doc = { id: 0, name: 'kefir', age: null, secret: 'x', _vectors: { manual: [1] }, _geo: { lat: 1, lng: 2 } };
    expect(renderDocumentTemplate({}, doc, { isSearchable: (field) => field !== 'secret' })).toBe('id: 0\nname: kefir\n');
  });

  it('renders a field named `__proto__` like any other', () => {
    const doc = JSON.parse('{"id": 1, "__proto__": "proto value", "nested": {"__proto__": "deep"}}') as Record<string, unknown>;
    const plain = renderDocumentTemplate({}, { id: 1, x: 'proto value', nested: { x: 'deep' } });
    expect(renderDocumentTemplate({}, doc)).toBe(plain.replaceAll('x', '__proto__'));
    expect(plain).toContain('x: proto value');
  });

  it('navigates nested objects and arrays of doc', () => {
    const template = '{{ doc.name }} is a {{ doc.breed.name }} ({{ doc.breed.kind }}), likes {{ doc.toys[1] }}';
    const doc = { name: 'iko', breed: { name: 'jack russell', kind: 'terrier' }, toys: ['ball', 'rope'] };
    expect(renderDocumentTemplate({ documentTemplate: template }, doc)).toBe('iko is a jack russell (terrier), likes rope');
  });

  it('exposes fields as name, value and is_searchable, and prints objects as Rust liquid does', () => {
    const template = '{% for field in fields %}{{ field.name }}={{ field.value }}/{{ field.is_searchable }};{% endfor %}';
    expect(renderDocumentTemplate({ documentTemplate: template }, { a: 1, b: { c: 'd', e: [1, 2] } }, { isSearchable: (f) => f === 'a' })).toBe(
      'a=1/true;b=cde12/false;',
    );
  });

  it('uses the indexing embedder template of a composite embedder', () => {
    const composite = { source: 'composite', searchEmbedder: { source: 'rest' }, indexingEmbedder: { source: 'rest', documentTemplate: 'doc {{ doc.id }}' } };
    expect(renderDocumentTemplate(composite, { id: 'x' })).toBe('doc x');
  });

  it('fails on a missing field, naming the document, but not in a condition', () => {
    expect(renderDocumentTemplate({ documentTemplate: '{% if doc.missing %}yes{% endif %}ok' }, { a: 1 })).toBe('ok');
    let error: unknown;
    try {
      renderDocumentTemplate({ documentTemplate: '{{ doc.missing }}' }, { a: 1 }, { docId: '7' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_document_fields');
    expect((error as ApiError).message).toMatch(/^user error: missing field in document `7`: liquid: /);
  });

  it('never reads the file system nor inherited properties', () => {
    expect(() => renderDocumentTemplate({ documentTemplate: '{% include "/etc/passwd" %}' }, { a: 1 })).toThrow(ApiError);
    expect(() => renderDocumentTemplate({ documentTemplate: '{{ doc.constructor }}' }, { a: 1 })).toThrow(ApiError);
  });

  it('stops a runaway template', () => {
    expect(() => renderDocumentTemplate({ documentTemplate: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' }, { a: 1 })).toThrow(ApiError);
  });

  it('cuts the text to documentTemplateMaxBytes at a character boundary, unless asked not to', () => {
    const doc = { t: 'インテル ザー ビーグル' };
    expect(renderDocumentTemplate({ documentTemplate: '{{ doc.t }}', documentTemplateMaxBytes: 31 }, doc)).toBe('インテル ザー ビーグ');
    expect(renderDocumentTemplate({ documentTemplate: '{{ doc.t }}', documentTemplateMaxBytes: 31 }, doc, { truncate: false })).toBe(doc.t);
  });
});

describe('truncateUtf8', () => {
  it("keeps milli's test cases", () => {
    const s = 'インテル ザー ビーグル';
    expect(truncateUtf8(s, 42)).toBe(s);
    expect(truncateUtf8(s, 32)).toBe(s);
    expect(truncateUtf8(s, 30)).toBe('インテル ザー ビーグ');
    expect(truncateUtf8(s, 28)).toBe('インテル ザー ビー');
    expect(truncateUtf8(s, 25)).toBe('インテル ザー ビ');
    expect(truncateUtf8('イ', 3)).toBe('イ');
    expect(truncateUtf8('イ', 2)).toBe('');
  });
});

describe('templateParseProblem', () => {
  it('accepts the templates milli accepts and frames a syntax error as Rust liquid does', () => {
    for (const ok of ['', '{{doc.title}}: {{doc.overview}}', '{{doc.actor.firstName}}', '{% for field in fields %}{{field}}{% endfor %}']) {
      expect(templateParseProblem(ok)).toBeUndefined();
    }
    expect(templateParseProblem('{{ doc.name')).toMatch(/^user error: cannot parse template: liquid: {2}--> 1:\d+\n {2}\|\n1 \| \{\{ doc\.name\n/);
  });
});
