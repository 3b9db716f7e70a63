import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import {
  encodeHeaderValue,
  importHeaders,
  originHeaders,
  readImportData,
  readImportMetadata,
  readOrigin,
  readReceivedNetwork,
} from '../../../src/network/proxy-headers.js';

const VERSION = '0198f3a2-6c1e-7b0a-9d7e-2f4c1b8a9e10';

/** Headers as node hands them to a route: lower-case names. */
const received = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

function thrown(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('nothing thrown');
}

describe('sending proxy headers', () => {
  it('sends every origin header twice, with and without X-, URL-encoded', () => {
    expect(originHeaders({ remoteName: 'ms 0/é', taskUid: 12, networkVersion: VERSION })).toEqual({
      'X-Meili-Proxy-Origin-Remote': 'ms%200%2F%C3%A9',
      'Meili-Proxy-Origin-Remote': 'ms%200%2F%C3%A9',
      'X-Meili-Proxy-Origin-TaskUid': '12',
      'Meili-Proxy-Origin-TaskUid': '12',
      'X-Meili-Proxy-Origin-Network-Version': VERSION,
      'Meili-Proxy-Origin-Network-Version': VERSION,
    });
  });

  it('encodes as urlencoding does: only letters, digits and -_.~ stay', () => {
    expect(encodeHeaderValue("a-b_c.d~e!'()*+")).toBe('a-b_c.d~e%21%27%28%29%2A%2B');
  });

  it('leaves out the optional import index and task key when absent', () => {
    const headers = importHeaders({ remoteName: 'ms1', indexName: null, documentCount: 3 }, { indexCount: 2, taskKey: null, totalIndexDocuments: 10 });
    expect(Object.keys(headers).filter((k) => k.startsWith('X-'))).toEqual([
      'X-Meili-Proxy-Import-Remote',
      'X-Meili-Proxy-Import-Docs',
      'X-Meili-Proxy-Import-Index-Count',
      'X-Meili-Proxy-Import-Total-Index-Docs',
    ]);
  });

  it('reads back what it sends', () => {
    const origin = { remoteName: 'ms 0/é', taskUid: 4_294_967_295, networkVersion: VERSION };
    const data = { remoteName: 'ms1', indexName: 'mov ies', documentCount: 7 };
    const metadata = { indexCount: 2, taskKey: 5, totalIndexDocuments: 70 };
    expect(readReceivedNetwork(received({ ...originHeaders(origin), ...importHeaders(data, metadata) }))).toEqual({ kind: 'import', origin, data, metadata });
  });
});

describe('reading proxy headers', () => {
  it('answers null without any header', () => {
    expect(readReceivedNetwork({})).toBeNull();
  });

  it('reads the legacy form without X-, the X- form first', () => {
    expect(readOrigin(received({ 'Meili-Proxy-Origin-Remote': 'legacy', 'Meili-Proxy-Origin-TaskUid': '3' }))?.remoteName).toBe('legacy');
    expect(readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': 'new', 'Meili-Proxy-Origin-Remote': 'legacy', 'Meili-Proxy-Origin-TaskUid': '3' }))?.remoteName).toBe('new');
  });

  it('takes a missing network version as the nil UUID', () => {
    expect(readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': 'ms0', 'X-Meili-Proxy-Origin-TaskUid': '1' }))).toEqual({
      remoteName: 'ms0',
      taskUid: 1,
      networkVersion: '00000000-0000-0000-0000-000000000000',
    });
  });

  it('refuses an origin remote without its task uid, and the reverse', () => {
    const noUid = thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': 'ms0' })));
    expect(noUid.code).toBe('inconsistent_document_change_headers');
    expect(noUid.message).toBe(
      'Inconsistent `Origin` headers: X-Meili-Proxy-Origin-Remote was provided but X-Meili-Proxy-Origin-TaskUid is missing.\n  - Hint: Either both headers should be provided, or none of them',
    );
    expect(thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-TaskUid': '1' }))).message).toBe(
      'Inconsistent `Origin` headers: X-Meili-Proxy-Origin-TaskUid was provided but X-Meili-Proxy-Origin-Remote is missing.\n  - Hint: Either both headers should be provided, or none of them',
    );
  });

  it('refuses a repeated header, which node joins with a comma, as invalid_header_value', () => {
    const err = thrown(() => readOrigin({ 'x-meili-proxy-origin-remote': 'ms0', 'x-meili-proxy-origin-taskuid': '7, 8' }));
    expect(err.code).toBe('invalid_header_value');
    expect(err.message).toBe('Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: invalid digit found in string');
    expect(thrown(() => readOrigin({ 'x-meili-proxy-origin-remote': 'ms0', 'x-meili-proxy-origin-taskuid': '9'.repeat(8000) })).message).toBe(
      'Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: number too large to fit in target type',
    );
  });

  it("answers Rust's integer parse errors as invalid_header_value", () => {
    const err = thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': 'ms0', 'X-Meili-Proxy-Origin-TaskUid': 'abc' })));
    expect(err.code).toBe('invalid_header_value');
    expect(err.status).toBe(400);
    expect(err.message).toBe('Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: invalid digit found in string');
    expect(thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-TaskUid': '4294967296' }))).message).toBe(
      'Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: number too large to fit in target type',
    );
    expect(thrown(() => readOrigin(received({ 'Meili-Proxy-Origin-TaskUid': '' }))).message).toBe(
      'Invalid value for header `X-Meili-Proxy-Origin-TaskUid`: while parsing as an integer: cannot parse integer from empty string',
    );
  });

  it('refuses a network version that is no UUID, and bytes that are not UTF-8', () => {
    const err = thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-Network-Version': 'nope' })));
    expect(err.message).toMatch(/^Invalid value for header `X-Meili-Proxy-Origin-Network-Version`: while parsing as a UUID: /);
    expect(thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': '%FF' }))).message).toBe(
      'Invalid value for header `X-Meili-Proxy-Origin-Remote`: while url-decoding: invalid utf-8 sequence of 1 bytes from index 0',
    );
    expect(thrown(() => readOrigin(received({ 'X-Meili-Proxy-Origin-Remote': 'a%C3' }))).message).toBe(
      'Invalid value for header `X-Meili-Proxy-Origin-Remote`: while url-decoding: incomplete utf-8 byte sequence from index 1',
    );
  });

  it('requires the import remote and document count together; the index may be absent', () => {
    expect(readImportData(received({ 'X-Meili-Proxy-Import-Remote': 'ms1', 'X-Meili-Proxy-Import-Docs': '4' }))).toEqual({ remoteName: 'ms1', indexName: null, documentCount: 4 });
    expect(thrown(() => readImportData(received({ 'X-Meili-Proxy-Import-Index': 'movies' }))).message).toBe(
      'Inconsistent `Import` headers: X-Meili-Proxy-Import-Remote: missing, X-Meili-Proxy-Import-Index: provided, X-Meili-Proxy-Import-Docs: missing.\n - Hint: either all three headers should be provided, or none of them',
    );
  });

  it('requires the index count and total together; the task key may be absent', () => {
    expect(readImportMetadata(received({ 'X-Meili-Proxy-Import-Index-Count': '1', 'X-Meili-Proxy-Import-Total-Index-Docs': '9' }))).toEqual({ indexCount: 1, taskKey: null, totalIndexDocuments: 9 });
    expect(thrown(() => readImportMetadata(received({ 'X-Meili-Proxy-Import-Task-Key': '1' }))).message).toBe(
      'Inconsistent `Import-Metadata` headers: X-Meili-Proxy-Import-Index-Count: missing, X-Meili-Proxy-Import-Task-Key: provided, X-Meili-Proxy-Import-Total-Index-Docs: missing.\n - Hint: either all three headers should be provided, or none of them',
    );
  });

  it('refuses import headers without an origin', () => {
    const err = thrown(() => readReceivedNetwork(received({ 'X-Meili-Proxy-Import-Remote': 'ms1', 'X-Meili-Proxy-Import-Docs': '4' })));
    expect(err.code).toBe('inconsistent_document_change_headers');
    expect(err.message).toBe('Inconsistent task network headers: origin headers: missing, import headers: present, import metadata: missing');
  });
});
