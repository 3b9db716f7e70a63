import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { payloadBytes, readNdjson } from '../../../../src/engine/documents/ndjson-payload.js';
import type { PayloadSource } from '../../../../src/store/update-files.js';

const dir = mkdtempSync(path.join(tmpdir(), 'quarry-ndjson-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fileOf(name: string, text: string): PayloadSource {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return { file };
}

const bytesOf = (_name: string, text: string): PayloadSource => ({ bytes: new Uint8Array(Buffer.from(text)) });

describe.each([
  ['a file', fileOf],
  ['bytes', bytesOf],
])('readNdjson from %s', (_kind, sourceOf) => {
  it('reads every line across block boundaries, multi-byte characters included, with its bytes, which later lines leave as they were', () => {
    const docs = Array.from({ length: 60_000 }, (_, i) => ({ id: i, text: `é🙂 ${'x'.repeat(i % 50)}` }));
    const source = sourceOf('many.ndjson', docs.map((doc) => JSON.stringify(doc)).join('\n') + '\n');
    // all lines taken first: a line's bytes stay valid after the file's next blocks are read
    const read = [...readNdjson(source)];
    expect(read.map(({ doc, text }) => ({ doc, text: text.toString('utf8') }))).toEqual(docs.map((doc) => ({ doc, text: JSON.stringify(doc) })));
  });

  it('reads a line longer than a block, and a last line without a newline', () => {
    const long = { id: 1, text: 'ü'.repeat(1_500_000) };
    const source = sourceOf('long.ndjson', `{"id":0}\n${JSON.stringify(long)}\n{"id":2}`);
    const read = [...readNdjson(source)];
    expect(read.map(({ doc }) => doc)).toEqual([{ id: 0 }, long, { id: 2 }]);
    expect(read.map(({ text }) => text.toString('utf8'))).toEqual(['{"id":0}', JSON.stringify(long), '{"id":2}']);
  });

  it('skips empty lines and reads an empty file as no documents', () => {
    expect([...readNdjson(sourceOf('gaps.ndjson', '\n{"id":1}\n\n{"id":2}\n\n'))]).toEqual([{ doc: { id: 1 }, text: Buffer.from('{"id":1}') }, { doc: { id: 2 }, text: Buffer.from('{"id":2}') }]);
    expect([...readNdjson(sourceOf('empty.ndjson', ''))]).toEqual([]);
  });

  it('refuses a line whose field path passes 16,383 bytes before parsing it, at its line and column', () => {
    const source = sourceOf('paths.ndjson', `{"id":0}\n{"id":1,"${'k'.repeat(16_384)}":1}\n`);
    expect(() => [...readNdjson(source)]).toThrow(
      "The `ndjson` payload provided is malformed. `Couldn't serialize document value: a field's path is longer than 16383 bytes at line 2 column 9`.",
    );
  });

  it('sizes the payload in bytes', () => {
    expect(payloadBytes(sourceOf('size.ndjson', '{"id":"é"}\n'))).toBe(12);
  });
});
