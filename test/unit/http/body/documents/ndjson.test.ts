// fresh process: it bounds the size of the JSON line kernel's memory, which earlier files grow.
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../../helpers/random.js';
import { getKernels } from '../../../../../src/kernels/module.js';
import { MAX_KERNEL_BYTES } from '../../../../../src/indexes/payload-lines.js';
import { pieces, refuse, splits, tempStore, write } from './harness.js';

// Expected error texts: Meilisearch's tests/documents/add_documents.rs snapshots and serde_json's
// own messages for the other syntax errors.
const store = tempStore();
afterAll(() => store.remove());

const malformed = (detail: string) => ({
  code: 'malformed_payload',
  message: `The \`ndjson\` payload provided is malformed. \`Couldn't serialize document value: ${detail}\`.`,
});

describe('NDJSON payloads', () => {
  it('writes documents longer than the kernel takes (MAX_KERNEL_BYTES) through the cutter, in one chunk', async () => {
    const docs = [{ id: 1, text: 'x'.repeat(MAX_KERNEL_BYTES) }, { id: 2 }, { id: 3, text: 'é'.repeat(MAX_KERNEL_BYTES) }];
    const out = await write(store, 'ndjson', docs.map((doc) => JSON.stringify(doc) + '\n').join(''));
    expect(out.lines).toEqual(docs.map((doc) => JSON.stringify(doc)));
    // the kernel was not given them: its memory, which never shrinks, did not grow to hold them
    expect(getKernels().arena.byteLength).toBeLessThan(2 * MAX_KERNEL_BYTES);
  });

  it('refuses a document holding a number past f64\'s range at the digit serde_json stops at', async () => {
    expect(await refuse(store, 'ndjson', '{"id":1}\n{"id":2,"n":-1e400}\n')).toEqual(malformed('number out of range at line 2 column 18'));
    expect((await write(store, 'ndjson', '{"id":1,"n":1e-400,"m":1e308}\n')).lines).toEqual(['{"id":1,"n":1e-400,"m":1e308}']);
  });

  it('writes one compact line per object and counts them', async () => {
    const out = await write(store, 'ndjson', '{"id": 1, "content": "a b"}\n{"id":2}\n');
    expect(out.documentsCount).toBe(2);
    expect(out.lines).toEqual(['{"id":1,"content":"a b"}', '{"id":2}']);
  });

  it('skips blank lines and accepts CRLF, a missing final newline and a document over several lines', async () => {
    const out = await write(store, 'ndjson', '\r\n\r\n{"id":1}\r\n\n  \t\n{\n  "id": 2,\n  "tags": [ "x" ]\n}\n{"id":3}');
    expect(out.lines).toEqual(['{"id":1}', '{"id":2,"tags":["x"]}', '{"id":3}']);
  });

  it('accepts several documents on one line, as a serde_json stream does', async () => {
    const out = await write(store, 'ndjson', '{"id":1}{"id":2} {"id":3}');
    expect(out.lines).toEqual(['{"id":1}', '{"id":2}', '{"id":3}']);
  });

  it('counts a whitespace-only body as zero documents', async () => {
    expect(await write(store, 'ndjson', '\n')).toMatchObject({ documentsCount: 0, size: 0 });
    expect(await write(store, 'ndjson', ' \r\n\t')).toMatchObject({ documentsCount: 0, size: 0 });
  });

  it('writes random documents, spaced or not, escaped or not, as their compact lines', async () => {
    const random = mulberry32(3);
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const strings = ['plain', 'with "quotes"', 'back\\slash\\', 'tab\tand\nnewline', 'é 東京 🙂', '{not: "json"}', ' spaced  out ', '\\"'];
    const docs = Array.from({ length: 400 }, (_, id) => {
      const doc: Record<string, unknown> = { id };
      for (let k = 0; k < 1 + Math.floor(random() * 4); k++) doc[pick(strings)] = pick<unknown>([pick(strings), 42, -1.5, null, true, [pick(strings), 7], { nested: pick(strings) }]);
      return doc;
    });
    const compact = docs.map((doc) => JSON.stringify(doc));
    // spaces and tabs between tokens (outside strings) in some lines, CRLF in others
    const spaced = compact.map((line) => (random() < 0.3 ? line.replace(/([{,:\[])(?=(?:[^"\\]|\\.|"(?:[^"\\]|\\.)*")*$)/g, '$1 \t') : line));
    expect(spaced.filter((line, i) => line !== compact[i]).length).toBeGreaterThan(80);
    const body = spaced.map((line) => line + (random() < 0.2 ? '\r\n' : '\n')).join('');
    const out = await write(store, 'ndjson', body);
    expect(out.lines).toEqual(compact);
  });

  it('gives the same file whatever the chunk boundaries (strings, escapes, UTF-8, CRLF)', async () => {
    const body = Buffer.from('{"a":"x\\"y\\\\\\n","é":"🐶"}\r\n\r\n{ "b" : [1, "}\\u00e9"] }\r\n');
    const expected = await write(store, 'ndjson', body);
    expect(expected.lines).toEqual(['{"a":"x\\"y\\\\\\n","é":"🐶"}', '{"b":[1,"}\\u00e9"]}']);
    for (const parts of splits(body)) {
      const out = await write(store, 'ndjson', pieces(parts));
      expect(out.content.equals(expected.content)).toBe(true);
    }
  });

  it('takes runs of compact lines as they are, counted, whatever the chunk boundaries, and numbers the lines after them', async () => {
    // lines of every size, so that a run's first look at a chunk is widened, and lines that end a run (CRLF, spaces)
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ id: i, text: 'w'.repeat((i * 37) % 2000) }));
    const body = lines.map((line, i) => (i % 500 === 499 ? line.replace(',', ', ') + '\r\n' : line + '\n')).join('');
    for (const chunk of [100, 4096, 1 << 16, undefined]) {
      const out = await write(store, 'ndjson', body, { chunk });
      expect(out.documentsCount).toBe(lines.length);
      expect(out.lines).toEqual(lines);
      expect(await refuse(store, 'ndjson', body + '{"id":3000}\n{id: 3001}\n', { chunk })).toEqual(malformed('key must be a string at line 3002 column 2'));
    }
  });

  it('writes spaced-out lines and objects over several lines compact, and numbers the lines after them', async () => {
    const docs = Array.from({ length: 400 }, (_, i) => ({ id: i, title: `t, ${i}: "q"`, tags: ['a b', i % 7], nested: { x: i / 4, y: null } }));
    // as Python writes them (a space after every comma and colon), some pretty-printed over several lines
    const spaced = (doc: object, i: number) => (i % 50 === 7 ? JSON.stringify(doc, null, 2) : JSON.stringify(doc).replace(/("(?:[^"\\]|\\.)*")|([,:])/g, (m, str: string | undefined) => str ?? m + ' '));
    const body = docs.map(spaced).join('\n') + '\n';
    expect(body).toContain('"title": "t, 1: \\"q\\"", "tags"');
    for (const chunk of [100, 4096, 1 << 16, undefined]) {
      const out = await write(store, 'ndjson', body, { chunk });
      expect(out.documentsCount).toBe(docs.length);
      expect(out.lines).toEqual(docs.map((doc) => JSON.stringify(doc)));
      const lines = body.split('\n').length;
      expect(await refuse(store, 'ndjson', body + '{id: 1}\n', { chunk })).toEqual(malformed(`key must be a string at line ${lines} column 2`));
    }
  });

  it('reports a syntax error with its line in the whole payload, across chunks', async () => {
    const body = Buffer.from('{"id": 1}\n{id: 2}');
    expect(await refuse(store, 'ndjson', body)).toEqual(malformed('key must be a string at line 2 column 2'));
    for (const parts of splits(body)) {
      expect(await refuse(store, 'ndjson', pieces(parts))).toEqual(malformed('key must be a string at line 2 column 2'));
    }
  });

  it('refuses an empty body as a missing payload', async () => {
    expect(await refuse(store, 'ndjson', '')).toEqual({ code: 'missing_payload', message: 'A ndjson payload is missing.' });
  });

  it('refuses a value that is not an object with the not-documents message', async () => {
    const notDocuments = malformed('data are neither an object nor a list of objects');
    expect(await refuse(store, 'ndjson', '{"id":1}\n[{"id":2}]')).toEqual(notDocuments);
    expect(await refuse(store, 'ndjson', '{"id":1}\n1')).toEqual(notDocuments);
    expect(await refuse(store, 'ndjson', '"doggo"\n')).toEqual(notDocuments);
  });

  it('words stream errors as serde_json does', async () => {
    expect(await refuse(store, 'ndjson', '{"a":1}]')).toEqual(malformed('expected value at line 1 column 8'));
    expect(await refuse(store, 'ndjson', '{"a":1}\n1x')).toEqual(malformed('trailing characters at line 2 column 2'));
    expect(await refuse(store, 'ndjson', '{"a":1}\n{"b":')).toEqual(malformed('EOF while parsing a value at line 2 column 5'));
    expect(await refuse(store, 'ndjson', '{"a":1}\r\n{"b":2,}')).toEqual(malformed('trailing comma at line 2 column 8'));
  });
});
