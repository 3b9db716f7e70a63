/**
 * The headers instances of a network send each other (network.md §8, v1.50's
 * `tasks::network::headers`): the origin of a forwarded task (remote, task uid, network version)
 * and, during a topology change, what an import request carries (sender, index, documents, and
 * the import's totals). Each is sent twice, with and without the `X-` prefix, URL-encoded; a
 * receiver reads the `X-` form first. Reading them gives the origin and import records, or
 * v1.50's errors: `invalid_header_value` for an unreadable value, and
 * `inconsistent_document_change_headers` for a partial set.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { parseUuid } from '../auth/uuid.js';
import { ApiError } from '../errors/api-error.js';
import { parseRustUnsigned, U32_MAX, U64_MAX } from '../types/rust-int.js';
import type { ImportData, ImportMetadata, NetworkOrigin } from '../types/task.js';
import { NIL_UUID } from '../types/uuid-v7.js';

export type { ImportData, ImportMetadata };

export const PROXY_HEADERS = {
  originRemote: 'X-Meili-Proxy-Origin-Remote',
  originTaskUid: 'X-Meili-Proxy-Origin-TaskUid',
  originNetworkVersion: 'X-Meili-Proxy-Origin-Network-Version',
  importRemote: 'X-Meili-Proxy-Import-Remote',
  importIndex: 'X-Meili-Proxy-Import-Index',
  importDocs: 'X-Meili-Proxy-Import-Docs',
  importIndexCount: 'X-Meili-Proxy-Import-Index-Count',
  importTaskKey: 'X-Meili-Proxy-Import-Task-Key',
  importTotalIndexDocs: 'X-Meili-Proxy-Import-Total-Index-Docs',
} as const;

type HeaderName = (typeof PROXY_HEADERS)[keyof typeof PROXY_HEADERS];

export const NIL_NETWORK_VERSION = NIL_UUID;


// ---------------------------------------------------------------------------------------------
// Sending

/** `urlencoding::encode`: everything but ASCII letters, digits and `-_.~` is percent-encoded. */
export function encodeHeaderValue(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function setTwice(headers: Record<string, string>, name: HeaderName, value: string): void {
  const encoded = encodeHeaderValue(value);
  headers[name] = encoded;
  headers[name.slice('X-'.length)] = encoded;
}

/** The origin headers of a request forwarded for task `origin.taskUid` of `origin.remoteName`. */
export function originHeaders(origin: NetworkOrigin): Record<string, string> {
  const headers: Record<string, string> = {};
  setTwice(headers, PROXY_HEADERS.originRemote, origin.remoteName);
  setTwice(headers, PROXY_HEADERS.originTaskUid, String(origin.taskUid));
  setTwice(headers, PROXY_HEADERS.originNetworkVersion, origin.networkVersion);
  return headers;
}

/** The import headers of one export request of a topology change (sent with `originHeaders`). */
export function importHeaders(data: ImportData, metadata: ImportMetadata): Record<string, string> {
  const headers: Record<string, string> = {};
  setTwice(headers, PROXY_HEADERS.importRemote, data.remoteName);
  if (data.indexName !== null) setTwice(headers, PROXY_HEADERS.importIndex, data.indexName);
  setTwice(headers, PROXY_HEADERS.importDocs, String(data.documentCount));
  setTwice(headers, PROXY_HEADERS.importIndexCount, String(metadata.indexCount));
  if (metadata.taskKey !== null) setTwice(headers, PROXY_HEADERS.importTaskKey, String(metadata.taskKey));
  setTwice(headers, PROXY_HEADERS.importTotalIndexDocs, String(metadata.totalIndexDocuments));
  return headers;
}

// ---------------------------------------------------------------------------------------------
// Receiving

function invalidHeader(name: string, reason: string): ApiError {
  return new ApiError('invalid_header_value', `Invalid value for header \`${name}\`: ${reason}`);
}

/** The raw value of `name` or of its legacy form without `X-`, as actix's `to_str` reads it. */
function rawHeader(headers: IncomingHttpHeaders, name: HeaderName): string | null {
  for (const candidate of [name, name.slice('X-'.length)]) {
    const value = headers[candidate.toLowerCase()];
    if (value === undefined) continue;
    const first = Array.isArray(value) ? value[0]! : value;
    // visible ASCII and tabs only, as `HeaderValue::to_str` accepts
    if (/[^\t\x20-\x7e]/.test(first)) throw invalidHeader(candidate, 'while getting header: failed to convert header to a str');
    return first;
  }
  return null;
}

/**
 * `urlencoding::decode`: `%XX` sequences become bytes (malformed ones stay as they are, `+` is
 * kept), and the bytes must be UTF-8.
 */
function decodeHeaderValue(name: HeaderName, encoded: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '%' && /^[0-9a-fA-F]{2}$/.test(encoded.slice(i + 1, i + 3))) {
      bytes.push(Number.parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i));
    }
  }
  const problem = utf8Problem(bytes);
  if (problem !== null) throw invalidHeader(name, `while url-decoding: ${problem}`);
  return Buffer.from(bytes).toString('utf8');
}

/** Rust's `Utf8Error` text for invalid UTF-8 (`valid_up_to` and `error_len`), or null. */
function utf8Problem(bytes: readonly number[]): string | null {
  const cont = (i: number) => i < bytes.length && (bytes[i]! & 0xc0) === 0x80;
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    let width: number;
    let secondOk: (x: number) => boolean = (x) => (x & 0xc0) === 0x80;
    if (b < 0x80) width = 1;
    else if (b >= 0xc2 && b <= 0xdf) width = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      width = 3;
      if (b === 0xe0) secondOk = (x) => x >= 0xa0 && x <= 0xbf;
      else if (b === 0xed) secondOk = (x) => x >= 0x80 && x <= 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      width = 4;
      if (b === 0xf0) secondOk = (x) => x >= 0x90 && x <= 0xbf;
      else if (b === 0xf4) secondOk = (x) => x >= 0x80 && x <= 0x8f;
    } else return `invalid utf-8 sequence of 1 bytes from index ${i}`;
    if (width > 1) {
      if (i + 1 >= bytes.length) return `incomplete utf-8 byte sequence from index ${i}`;
      if (!secondOk(bytes[i + 1]!)) return `invalid utf-8 sequence of 1 bytes from index ${i}`;
      for (let k = 2; k < width; k++) {
        if (i + k >= bytes.length) return `incomplete utf-8 byte sequence from index ${i}`;
        if (!cont(i + k)) return `invalid utf-8 sequence of ${k} bytes from index ${i}`;
      }
    }
    i += width;
  }
  return null;
}

function readText(headers: IncomingHttpHeaders, name: HeaderName): string | null {
  const raw = rawHeader(headers, name);
  return raw === null ? null : decodeHeaderValue(name, raw);
}

function readInteger(headers: IncomingHttpHeaders, name: HeaderName, max: bigint): number | null {
  const text = readText(headers, name);
  if (text === null) return null;
  try {
    return parseRustUnsigned(text, max);
  } catch (err) {
    throw invalidHeader(name, `while parsing as an integer: ${(err as Error).message}`);
  }
}

function readVersion(headers: IncomingHttpHeaders, name: HeaderName): string | null {
  const text = readText(headers, name);
  if (text === null) return null;
  const parsed = parseUuid(text);
  if (!parsed.ok) throw invalidHeader(name, `while parsing as a UUID: ${parsed.error}`);
  return parsed.uuid;
}

const status = (missing: boolean) => (missing ? 'missing' : 'provided');

/** The origin of a forwarded request, or null when it carries no origin headers. */
export function readOrigin(headers: IncomingHttpHeaders): NetworkOrigin | null {
  const remoteName = readText(headers, PROXY_HEADERS.originRemote);
  const taskUid = readInteger(headers, PROXY_HEADERS.originTaskUid, U32_MAX);
  const networkVersion = readVersion(headers, PROXY_HEADERS.originNetworkVersion);
  if (remoteName === null && taskUid === null) return null;
  if (remoteName === null || taskUid === null) {
    const [provided, missing] = remoteName === null ? [PROXY_HEADERS.originTaskUid, PROXY_HEADERS.originRemote] : [PROXY_HEADERS.originRemote, PROXY_HEADERS.originTaskUid];
    throw new ApiError(
      'inconsistent_document_change_headers',
      `Inconsistent \`Origin\` headers: ${provided} was provided but ${missing} is missing.\n  - Hint: Either both headers should be provided, or none of them`,
    );
  }
  return { remoteName, taskUid, networkVersion: networkVersion ?? NIL_NETWORK_VERSION };
}

/** What an import request says about its documents, or null when it carries no import headers. */
export function readImportData(headers: IncomingHttpHeaders): ImportData | null {
  const remoteName = readText(headers, PROXY_HEADERS.importRemote);
  const indexName = readText(headers, PROXY_HEADERS.importIndex);
  const documentCount = readInteger(headers, PROXY_HEADERS.importDocs, U64_MAX);
  if (remoteName === null && indexName === null && documentCount === null) return null;
  if (remoteName === null || documentCount === null) {
    const { importRemote, importIndex, importDocs } = PROXY_HEADERS;
    throw new ApiError(
      'inconsistent_document_change_headers',
      `Inconsistent \`Import\` headers: ${importRemote}: ${status(remoteName === null)}, ${importIndex}: ${status(indexName === null)}, ${importDocs}: ${status(documentCount === null)}.\n - Hint: either all three headers should be provided, or none of them`,
    );
  }
  return { remoteName, indexName, documentCount };
}

/** The import's totals, or null when the request carries none. */
export function readImportMetadata(headers: IncomingHttpHeaders): ImportMetadata | null {
  const indexCount = readInteger(headers, PROXY_HEADERS.importIndexCount, U64_MAX);
  const taskKey = readInteger(headers, PROXY_HEADERS.importTaskKey, U32_MAX);
  const totalIndexDocuments = readInteger(headers, PROXY_HEADERS.importTotalIndexDocs, U64_MAX);
  if (indexCount === null && taskKey === null && totalIndexDocuments === null) return null;
  if (indexCount === null || totalIndexDocuments === null) {
    const { importIndexCount, importTaskKey, importTotalIndexDocs } = PROXY_HEADERS;
    throw new ApiError(
      'inconsistent_document_change_headers',
      `Inconsistent \`Import-Metadata\` headers: ${importIndexCount}: ${status(indexCount === null)}, ${importTaskKey}: ${status(taskKey === null)}, ${importTotalIndexDocs}: ${status(totalIndexDocuments === null)}.\n - Hint: either all three headers should be provided, or none of them`,
    );
  }
  return { indexCount, taskKey, totalIndexDocuments };
}

/** What the headers of a write say about where it comes from (v1.50's `TaskNetwork` read from a request). */
export type ReceivedNetwork =
  | { readonly kind: 'origin'; readonly origin: NetworkOrigin }
  | { readonly kind: 'import'; readonly origin: NetworkOrigin; readonly data: ImportData; readonly metadata: ImportMetadata };

/**
 * The three header sets of a write read together: none (null), the origin alone (a forwarded
 * write), or all three (an import); any other mix is `inconsistent_document_change_headers`.
 */
export function readReceivedNetwork(headers: IncomingHttpHeaders): ReceivedNetwork | null {
  const origin = readOrigin(headers);
  const data = readImportData(headers);
  const metadata = readImportMetadata(headers);
  if (origin !== null && data !== null && metadata !== null) return { kind: 'import', origin, data, metadata };
  if (origin !== null && data === null && metadata === null) return { kind: 'origin', origin };
  if (origin === null && data === null && metadata === null) return null;
  const present = (missing: boolean) => (missing ? 'missing' : 'present');
  throw new ApiError(
    'inconsistent_document_change_headers',
    `Inconsistent task network headers: origin headers: ${present(origin === null)}, import headers: ${present(data === null)}, import metadata: ${present(metadata === null)}`,
  );
}
