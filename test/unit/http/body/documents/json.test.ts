// fresh process: it bounds the size of the JSON line kernel's memory, which earlier files grow.
import { afterAll, describe, expect, it } from 'vitest';
import { getKernels } from '../../../../../src/kernels/module.js';
import { MAX_KERNEL_BYTES } from '../../../../../src/indexes/payload-lines.js';
import { pieces, refuse, splits, tempStore, write } from './harness.js';

// Expected error texts: Meilisearch's tests/documents/add_documents.rs snapshots and serde_json's
// own messages for the other syntax errors.
const store = tempStore();
afterAll(() => store.remove());

const malformed = (detail: string) => ({
  code: 'malformed_payload',
  message: `The \`json\` payload provided is malformed. \`Couldn't serialize document value: ${detail}\`.`,
});

describe('JSON payloads', () => {
  it('cuts strings with runs of backslashes and escaped quotes the same whatever the chunk boundaries', async () => {
    const docs = [{ id: 1, a: 'x\\\\\\"y', b: '\\', c: '"\\"', 'k\\"': 'end\\\\' }, { id: 2, s: '}]"[{' }];
    const body = Buffer.from(JSON.stringify(docs));
    for (const parts of splits(body)) {
      const out = await write(store, 'json', pieces(parts));
      expect(out.lines).toEqual(docs.map((doc) => JSON.stringify(doc)));
    }
  });

  it('takes compact elements whole among spaced ones, the same lines whatever the chunk boundaries', async () => {
    const body = Buffer.from('[{"id":1,"t":"é \\" }]"},{ "id" : 2 },{"id":3,"n":[1,{"x":null}],"f":-1.5e3},\n{"id":4}]');
    const expected = ['{"id":1,"t":"é \\" }]"}', '{"id":2}', '{"id":3,"n":[1,{"x":null}],"f":-1.5e3}', '{"id":4}'];
    for (const parts of splits(body)) {
      const out = await write(store, 'json', pieces(parts));
      expect(out.lines).toEqual(expected);
    }
    // elements of every size, so that a first look at too few bytes is widened
    const docs = Array.from({ length: 40 }, (_, i) => ({ id: i, text: 'w'.repeat(i * i * 7) }));
    for (const chunk of [100, 4096, 1 << 20]) {
      const out = await write(store, 'json', JSON.stringify(docs), { chunk });
      expect(out.documentsCount).toBe(docs.length);
      expect(out.lines).toEqual(docs.map((doc) => JSON.stringify(doc)));
    }
  });

  it('writes spaced-out and pretty-printed elements compact, counted, whatever the chunk boundaries, and places the errors after them', async () => {
    // as Python's json.dumps writes them: a space after every comma and colon
    const dumps = (value: unknown): string =>
      Array.isArray(value)
        ? `[${value.map(dumps).join(', ')}]`
        : typeof value === 'object' && value !== null
          ? `{${Object.entries(value).map(([key, item]) => `${JSON.stringify(key)}: ${dumps(item)}`).join(', ')}}`
          : JSON.stringify(value);
    const docs = Array.from({ length: 300 }, (_, i) => ({ id: i, title: `t, ${i}: "q"`, tags: ['a b', i % 7], nested: { x: i / 4, y: null, z: [true, { w: 'é 🙂' }] }, text: 'w '.repeat((i * 13) % 900) }));
    const expected = docs.map((doc) => JSON.stringify(doc));
    for (const body of [dumps(docs), JSON.stringify(docs, null, 2), JSON.stringify(docs, null, '\t').replaceAll('\n', '\r\n')]) {
      for (const chunk of [100, 4096, 1 << 16, undefined]) {
        const out = await write(store, 'json', body, { chunk });
        expect(out.documentsCount).toBe(docs.length);
        expect(out.lines).toEqual(expected);
      }
      // a broken element after them: its place counted over the elements' own lines
      const broken = body.slice(0, -1) + ',\n  {"c": tru}\n]';
      const at = broken.lastIndexOf('}');
      const line = broken.slice(0, at).split('\n').length;
      const column = at - broken.lastIndexOf('\n', at - 1);
      for (const chunk of [4096, undefined]) {
        expect(await refuse(store, 'json', broken, { chunk })).toEqual(malformed(`expected ident at line ${line} column ${column}`));
      }
    }
  });

  it('reports an error after compact elements at the place the cutter finds it', async () => {
    for (const chunk of [undefined, 7]) {
      expect(await refuse(store, 'json', '[{"a":1},{"b":"x"},{"c":tru}]', { chunk })).toEqual(malformed('expected ident at line 1 column 28'));
      expect(await refuse(store, 'json', '[{"a":1},\n{"b":"x"},{"c":"\\q"}]', { chunk })).toEqual(malformed('invalid escape at line 2 column 18'));
      expect(await refuse(store, 'json', '[{"a":1},{"b":"x"}{"c":1}]', { chunk })).toEqual(malformed('expected `,` or `]` at line 1 column 19'));
      expect(await refuse(store, 'json', '[{"a":1},{"b":"x"},{"c":1}', { chunk })).toEqual(malformed('EOF while parsing a list at line 1 column 26'));
      expect(await refuse(store, 'json', '[{"a":1},{"b":"x"},{"d":' + '['.repeat(130) + ']'.repeat(130) + '}]', { chunk })).toEqual(malformed('recursion limit exceeded at line 1 column 152'));
    }
  });

  it('writes documents longer than the kernel takes (MAX_KERNEL_BYTES) through the cutter, in one chunk', async () => {
    const docs = [{ id: 1, text: 'x'.repeat(MAX_KERNEL_BYTES) }, { id: 2 }, { id: 3, text: 'é'.repeat(MAX_KERNEL_BYTES) }];
    const out = await write(store, 'json', JSON.stringify(docs));
    expect(out.lines).toEqual(docs.map((doc) => JSON.stringify(doc)));
    // the kernel was given at most MAX_KERNEL_BYTES of them: its memory, which never shrinks, did not grow to hold them
    expect(getKernels().arena.byteLength).toBeLessThan(2 * MAX_KERNEL_BYTES);
  });

  it('writes each element of an array as one compact line and counts them', async () => {
    const out = await write(store, 'json', '[{"id": 1, "content": "Bouvier Bernois"}, {"id":2}]');
    expect(out.documentsCount).toBe(2);
    expect(out.lines).toEqual(['{"id":1,"content":"Bouvier Bernois"}', '{"id":2}']);
  });

  it('accepts a single object as one document', async () => {
    const out = await write(store, 'json', '  {"id": 1, "content": "Bouvier Bernois"}\n');
    expect(out.documentsCount).toBe(1);
    expect(out.lines).toEqual(['{"id":1,"content":"Bouvier Bernois"}']);
  });

  it('accepts an empty array as zero documents and an empty file', async () => {
    const out = await write(store, 'json', ' [ ] ');
    expect(out).toMatchObject({ documentsCount: 0, size: 0, lines: [] });
  });

  it('compacts pretty-printed documents but keeps strings, escapes and number texts verbatim', async () => {
    const body = [
      '[',
      '  {',
      '    "id": 14630868576586246730,',
      '    "text": "a  b\\tc \\" } ] \\\\",',
      '    "uni": "\\u00e9t\u00e9 🐶",',
      '    "float": 1.50e+3,',
      '    "nested": { "list": [ 1, [ 2 ], { } ], "a.b": null }',
      '  }',
      ']',
    ].join('\r\n');
    const out = await write(store, 'json', body);
    expect(out.lines).toEqual([
      '{"id":14630868576586246730,"text":"a  b\\tc \\" } ] \\\\","uni":"\\u00e9t\u00e9 🐶","float":1.50e+3,"nested":{"list":[1,[2],{}],"a.b":null}}',
    ]);
  });

  it('ignores what follows the closing bracket, as Meilisearch does', async () => {
    const out = await write(store, 'json', '[{"id":1}] whatever {');
    expect(out.lines).toEqual(['{"id":1}']);
  });

  it('gives the same file whatever the chunk boundaries (strings, escapes, UTF-8, CRLF)', async () => {
    const body = Buffer.from('[\r\n{"a":"x\\"y\\\\","é":"🐶\\u00e9"},\r\n {"b" : [1, {"c":"]}"}]}\r\n]');
    const expected = await write(store, 'json', body);
    expect(expected.lines).toEqual(['{"a":"x\\"y\\\\","é":"🐶\\u00e9"}', '{"b":[1,{"c":"]}"}]}']);
    for (const parts of splits(body)) {
      const out = await write(store, 'json', pieces(parts));
      expect(out.content.equals(expected.content)).toBe(true);
    }
  });

  it('reports the position of a syntax error in the whole payload, across chunks', async () => {
    const body = Buffer.from('[{"id": 1}, {id: 2}]');
    expect(await refuse(store, 'json', body)).toEqual(malformed('key must be a string at line 1 column 14'));
    for (const parts of splits(body)) {
      expect(await refuse(store, 'json', pieces(parts))).toEqual(malformed('key must be a string at line 1 column 14'));
    }
  });

  it('counts lines and columns from the start of the payload', async () => {
    expect(await refuse(store, 'json', '[\n  {"a": 1},\n  {"b": tru}\n]')).toEqual(malformed('expected ident at line 3 column 12'));
    expect(await refuse(store, 'json', '[\n {"a": 1,\n  "b": 01}]')).toEqual(malformed('invalid number at line 3 column 9'));
  });

  it('refuses an empty body as a missing payload', async () => {
    expect(await refuse(store, 'json', '')).toEqual({ code: 'missing_payload', message: 'A json payload is missing.' });
  });

  it('reports a whitespace-only body as an early end of input', async () => {
    expect(await refuse(store, 'json', '  ')).toEqual(malformed('EOF while parsing a value at line 1 column 2'));
  });

  it('refuses any other top-level value as not documents', async () => {
    const notDocuments = malformed('data are neither an object nor a list of objects');
    expect(await refuse(store, 'json', `"${'0123456789'.repeat(10)}m"`)).toEqual(notDocuments);
    expect(await refuse(store, 'json', '12')).toEqual(notDocuments);
    expect(await refuse(store, 'json', 'null')).toEqual(notDocuments);
    expect(await refuse(store, 'json', '"kefir" and more')).toEqual(notDocuments);
  });

  it('refuses an array element that is not an object with the not-documents message', async () => {
    const notDocuments = malformed('data are neither an object nor a list of objects');
    expect(await refuse(store, 'json', '[1]')).toEqual(notDocuments);
    expect(await refuse(store, 'json', '[{"id":1}, "doggo"]')).toEqual(notDocuments);
    expect(await refuse(store, 'json', '[[{"id":1}]]')).toEqual(notDocuments);
    expect(await refuse(store, 'json', '[{"id":1}, true')).toEqual(notDocuments);
  });

  it('reports syntax errors of a bare element before judging its type', async () => {
    expect(await refuse(store, 'json', '[tru]')).toEqual(malformed('expected ident at line 1 column 5'));
    expect(await refuse(store, 'json', '[x]')).toEqual(malformed('expected value at line 1 column 2'));
  });

  it('words array structure errors as serde_json does', async () => {
    expect(await refuse(store, 'json', '[{"a":1},]')).toEqual(malformed('trailing comma at line 1 column 10'));
    expect(await refuse(store, 'json', '[{"a":1} {"b":2}]')).toEqual(malformed('expected `,` or `]` at line 1 column 10'));
    expect(await refuse(store, 'json', '[}')).toEqual(malformed('expected value at line 1 column 2'));
    expect(await refuse(store, 'json', '[,{"a":1}]')).toEqual(malformed('expected value at line 1 column 2'));
    expect(await refuse(store, 'json', '}')).toEqual(malformed('expected value at line 1 column 1'));
  });

  it('reports a truncated payload at its end', async () => {
    expect(await refuse(store, 'json', '[')).toEqual(malformed('EOF while parsing a list at line 1 column 1'));
    expect(await refuse(store, 'json', '[{"a":1}\n')).toEqual(malformed('EOF while parsing a list at line 2 column 0'));
    expect(await refuse(store, 'json', '[{"a":1},')).toEqual(malformed('EOF while parsing a value at line 1 column 9'));
    expect(await refuse(store, 'json', '[{"a":1},{"b":')).toEqual(malformed('EOF while parsing a value at line 1 column 14'));
    expect(await refuse(store, 'json', '{"a": "b')).toEqual(malformed('EOF while parsing a string at line 1 column 8'));
    expect(await refuse(store, 'json', '{"a": {"b": 1}')).toEqual(malformed('EOF while parsing an object at line 1 column 14'));
  });

  it('refuses characters after a single object', async () => {
    expect(await refuse(store, 'json', '{"a":1} x')).toEqual(malformed('trailing characters at line 1 column 9'));
    expect(await refuse(store, 'json', '{"a":1}\n{"b":2}')).toEqual(malformed('trailing characters at line 2 column 1'));
  });

  it('refuses a document holding a number past f64\'s range where serde_json stops reading it', async () => {
    expect(await refuse(store, 'json', '{"id":1,"n":1e400}')).toEqual(malformed('number out of range at line 1 column 17'));
    expect(await refuse(store, 'json', '{"id":1,\n "n": -2e2147483648}')).toEqual(malformed('number out of range at line 2 column 19'));
    // in range, or tending to zero, or only a string's text: taken
    const fine = '{"id":1,"a":1.5e300,"b":0e2147483648,"c":1e-2147483648,"d":"1e400"}';
    expect((await write(store, 'json', fine)).lines).toEqual([fine]);
    // an array's elements too (v1.50 skims them at enqueue, then fails the task when it indexes the field)
    expect(await refuse(store, 'json', '[{"id":1},{"id":2,"n":[1e400]}]')).toEqual(malformed('number out of range at line 1 column 28'));
    expect(await refuse(store, 'json', `[{"id":1,"n":${'9'.repeat(400)}}]`)).toEqual(malformed('number out of range at line 1 column 413'));
    expect(await refuse(store, 'json', `{"id":1,"n":${'9'.repeat(250)}e99}`)).toEqual(malformed('number out of range at line 1 column 265'));
    expect((await write(store, 'json', `[{"id":1,"a":1e100,"b":${'9'.repeat(300)}}]`)).lines).toEqual([`{"id":1,"a":1e100,"b":${'9'.repeat(300)}}`]);
  });

  it('refuses invalid UTF-8 in a string at the offending byte, and outside one as the syntax error it is there (serde_json)', async () => {
    const body = Buffer.concat([Buffer.from('[{"a":"'), Buffer.from([0xc3]), Buffer.from('"}]')]);
    expect(await refuse(store, 'json', body)).toEqual(malformed('invalid unicode code point at line 1 column 8'));
    const escaped = Buffer.concat([Buffer.from('[{"a":"\\"'), Buffer.from([0xff]), Buffer.from('"}]')]);
    expect(await refuse(store, 'json', escaped)).toEqual(malformed('invalid unicode code point at line 1 column 10'));
    expect(await refuse(store, 'json', Buffer.from([0xff]))).toEqual(malformed('expected value at line 1 column 1'));
    expect(await refuse(store, 'json', Buffer.concat([Buffer.from('[{"a":1},'), Buffer.from([0xff]), Buffer.from(']')]))).toEqual(malformed('expected value at line 1 column 10'));
  });

  it('refuses raw control characters inside strings', async () => {
    expect(await refuse(store, 'json', '[{"a":"x\ny"}]')).toEqual(
      malformed('control character (\\u0000-\\u001F) found while parsing a string at line 1 column 9'),
    );
  });
});
