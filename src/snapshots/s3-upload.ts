/**
 * S3 snapshots (v1.50's Enterprise Edition `process_snapshot_to_s3`, cli-config.md §2.4): the
 * snapshot's gzip tarball is streamed, as it is packed, to the object
 * `<prefix>/<db folder name>.snapshot` of a bucket, in a multipart upload: parts of
 * `--experimental-s3-multipart-part-size` bytes, at most `--experimental-s3-max-in-flight-parts`
 * on their way at once, then the completion naming each part's ETag. Every request is a
 * presigned (SigV4, query-signed, `UNSIGNED-PAYLOAD`) path-style URL, valid
 * `--experimental-s3-signature-duration-seconds`, sent through the outgoing client under the IP
 * policy. Credentials are the static keys, or those AWS STS gives for a web identity token.
 *
 * Retries as v1.50's (outgoing/backoff.ts): starting the upload, on anything but a 4xx other than
 * 429; a part, on a transport error only; the completion, on a transport error. Failures read as
 * v1.50's scheduler errors: `S3 error: status: <status>, body: <body>` (`invalid_s_3_snapshot_request`
 * for a 4xx, else `s_3_snapshot_server_error`), `S3 HTTP error: …`, `S3 XML error: …` and
 * `S3 bucket error: …` (`invalid_s_3_snapshot_parameters`). A cancelation stops it between parts.
 */
import { STATUS_CODES } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import aws4 from 'aws4';
import { ApiError } from '../errors/api-error.js';
import { Transient, withBackoff } from '../outgoing/backoff.js';
import type { OutgoingRequest, OutgoingResponse } from '../outgoing/client.js';

/** Where S3 snapshots go and how they are sent (the `--s3-*` options). */
export interface S3Snapshots {
  readonly bucketUrl: string;
  readonly region: string;
  readonly bucketName: string;
  readonly prefix: string;
  readonly credentials:
    | { readonly accessKey: string; readonly secretKey: string }
    /** `durationSeconds`: `MEILI_EXPERIMENTAL_S3_WEB_IDENTITY_TOKEN_DURATION_SECONDS` as set (3600 unless), checked when used, as v1.50 checks it */
    | { readonly roleArn: string; readonly tokenFile: string; readonly durationSeconds: string };
  readonly maxInFlightParts: number;
  /** gzip level, 0 to 9 */
  readonly compressionLevel: number;
  readonly signatureSeconds: number;
  readonly partSize: number;
}

export type Request = (url: string, init: OutgoingRequest) => Promise<OutgoingResponse>;

interface Keys {
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  readonly sessionToken?: string;
}

/** Per attempt; v1.50's reqwest client has no timeout of its own: a part of 375 MiB needs time. */
const ATTEMPT_TIMEOUT_MS = 60 * 60 * 1000;
const STS_URL = 'https://sts.amazonaws.com/';

/** `<status code> <reason>`, as Rust's `http::StatusCode` displays. */
const statusText = (status: number) => `${status} ${STATUS_CODES[status] ?? '<unknown status code>'}`;

function s3Error(status: number, body: Buffer | string): ApiError {
  return new ApiError(status >= 400 && status < 500 ? 'invalid_s_3_snapshot_request' : 's_3_snapshot_server_error', `S3 error: status: ${statusText(status)}, body: ${body.toString()}`);
}

const httpError = (err: unknown) => new ApiError('s_3_snapshot_server_error', `S3 HTTP error: ${err instanceof Error ? err.message : String(err)}`);
const xmlError = (message: string) => new ApiError('s_3_snapshot_server_error', `S3 XML error: ${message}`);

/** The bucket's base URL, checked as rusty_s3's `Bucket::new` checks it. */
function bucketBase(s3: S3Snapshots): URL {
  let url: URL;
  try {
    url = new URL(s3.bucketUrl);
  } catch (err) {
    throw new ApiError('invalid_s_3_snapshot_parameters', `S3 bucket error: ${(err as Error).message}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ApiError('invalid_s_3_snapshot_parameters', 'S3 bucket error: unsupported scheme');
  return url;
}

/** The object's key: the prefix joined with the snapshot's name, as a Rust `PathBuf` joins them. */
export function snapshotObjectKey(prefix: string, dbPath: string): string {
  const name = `${path.basename(path.resolve(dbPath))}.snapshot`;
  return prefix === '' ? name : path.posix.join(prefix, name);
}

/** A path segment encoded as SigV4 canonicalises it, so that the URL sent is the one signed. */
const rfc3986 = (segment: string) => encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A presigned path-style URL for `method` on the object, with the action's query. */
function presign(s3: S3Snapshots, base: URL, keys: Keys, method: string, objectKey: string, query: string): string {
  const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
  const key = objectKey.split('/').map(rfc3986).join('/');
  const signed = aws4.sign(
    {
      host: base.host,
      method,
      path: `${basePath}${rfc3986(s3.bucketName)}/${key}?${query}${query === '' ? '' : '&'}X-Amz-Expires=${s3.signatureSeconds}`,
      service: 's3',
      region: s3.region,
      signQuery: true,
    },
    keys,
  );
  return `${base.protocol}//${base.host}${signed.path!}`;
}

/** The credentials to sign with: the static keys, or those STS gives for the web identity token. */
async function credentialsOf(s3: S3Snapshots, request: Request, signal: AbortSignal): Promise<Keys> {
  if ('accessKey' in s3.credentials) return { accessKeyId: s3.credentials.accessKey, secretAccessKey: s3.credentials.secretKey };
  let token: string;
  try {
    token = await readFile(s3.credentials.tokenFile, 'utf8');
  } catch (err) {
    throw new ApiError('internal', `Failed to read web identity token file: ${(err as Error).message}`);
  }
  // a u32, as v1.50 parses it
  const raw = s3.credentials.durationSeconds;
  const duration = Number(raw.replace(/^\+/, ''));
  if (!/^\+?[0-9]+$/.test(raw) || duration > 0xffff_ffff) throw new ApiError('internal', `Invalid duration: ${raw}`);
  const form = new URLSearchParams({
    Action: 'AssumeRoleWithWebIdentity',
    Version: '2011-06-15',
    RoleArn: s3.credentials.roleArn,
    RoleSessionName: 'meilisearch-snapshot-session',
    WebIdentityToken: token,
    DurationSeconds: String(duration),
  });
  let response: OutgoingResponse;
  try {
    response = await request(STS_URL, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: Buffer.from(form.toString()),
      timeoutMs: ATTEMPT_TIMEOUT_MS,
      signal,
    });
  } catch (err) {
    throw new ApiError('internal', `Failed to send STS request: ${(err as Error).message}`);
  }
  const body = response.body.toString();
  if (response.status < 200 || response.status >= 300) throw new ApiError('internal', `STS request failed with status ${statusText(response.status)}: ${body}`);
  try {
    const credentials = JSON.parse(body).AssumeRoleWithWebIdentityResponse.AssumeRoleWithWebIdentityResult.Credentials;
    const { AccessKeyId, SecretAccessKey, SessionToken } = credentials as Record<string, unknown>;
    if (typeof AccessKeyId !== 'string' || typeof SecretAccessKey !== 'string' || typeof SessionToken !== 'string') throw new Error('missing credentials');
    return { accessKeyId: AccessKeyId, secretAccessKey: SecretAccessKey, sessionToken: SessionToken };
  } catch (err) {
    throw new ApiError('internal', `Failed to deserialize STS response: ${(err as Error).message}`);
  }
}

/** An XML element's text, entities decoded (the answers here are flat). */
function xmlText(xml: string, element: string): string | undefined {
  const found = new RegExp(`<${element}>([^<]*)</${element}>`).exec(xml)?.[1];
  return found?.replace(/&(lt|gt|quot|apos|amp);/g, (_, name: string) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[name]!);
}

const xmlEscaped = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Sends one request, retried while `transient` says so of its answer or its transport error. */
function sendRetried(request: Request, signal: AbortSignal, url: string, init: Omit<OutgoingRequest, 'timeoutMs' | 'signal'>, transient: (status: number) => boolean): Promise<OutgoingResponse> {
  return withBackoff(signal, async () => {
    let response: OutgoingResponse;
    try {
      response = await request(url, { ...init, timeoutMs: ATTEMPT_TIMEOUT_MS, signal });
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      throw new Transient(httpError(err));
    }
    if (transient(response.status)) throw new Transient(s3Error(response.status, response.body));
    return response;
  });
}

const success = (status: number) => status >= 200 && status < 300;
const clientError = (status: number) => status >= 400 && status < 500;

/** Parts of `size` bytes from `chunks` (the last one shorter). */
async function* partsOf(chunks: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let length = 0;
  for await (const chunk of chunks) {
    let rest = chunk;
    while (length + rest.length >= size) {
      const take = size - length;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending);
      rest = rest.subarray(take);
      pending = [];
      length = 0;
    }
    if (rest.length > 0) {
      pending.push(rest);
      length += rest.length;
    }
  }
  if (length > 0) yield Buffer.concat(pending);
}

/** Streams `tarball` to the snapshot object of `dbPath` in a multipart upload. */
export async function uploadSnapshot(s3: S3Snapshots, dbPath: string, tarball: AsyncIterable<Buffer>, request: Request, signal: AbortSignal): Promise<void> {
  const base = bucketBase(s3);
  const keys = await credentialsOf(s3, request, signal);
  const objectKey = snapshotObjectKey(s3.prefix, dbPath);
  const created = await sendRetried(request, signal, presign(s3, base, keys, 'POST', objectKey, 'uploads='), { method: 'POST' }, (status) => !success(status) && !(clientError(status) && status !== 429));
  if (!success(created.status)) throw s3Error(created.status, created.body);
  const uploadId = xmlText(created.body.toString(), 'UploadId');
  if (uploadId === undefined) throw xmlError('missing field `UploadId`');

  const etags: string[] = [];
  const inFlight: Promise<void>[] = [];
  let partNumber = 0;
  let failure: unknown;
  const sendPart = async (number: number, body: Buffer) => {
    const url = presign(s3, base, keys, 'PUT', objectKey, `partNumber=${number}&uploadId=${encodeURIComponent(uploadId)}`);
    const response = await sendRetried(request, signal, url, { method: 'PUT', body }, () => false);
    if (!success(response.status)) throw s3Error(response.status, response.body);
    const etag = response.headers.etag;
    if (etag === undefined) throw xmlError('Missing ETag header');
    etags[number - 1] = etag;
  };
  for await (const part of partsOf(tarball, s3.partSize)) {
    signal.throwIfAborted();
    if (failure !== undefined) break;
    if (inFlight.length >= s3.maxInFlightParts) await inFlight.shift();
    const sent = sendPart(++partNumber, part);
    // a failure is kept and thrown once the parts in flight have landed
    sent.catch((err: unknown) => (failure ??= err));
    inFlight.push(sent.catch(() => {}));
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure;
  signal.throwIfAborted();

  const completion = `<CompleteMultipartUpload>${etags.map((etag, i) => `<Part><ETag>${xmlEscaped(etag)}</ETag><PartNumber>${i + 1}</PartNumber></Part>`).join('')}</CompleteMultipartUpload>`;
  const completed = await sendRetried(request, signal, presign(s3, base, keys, 'POST', objectKey, `uploadId=${encodeURIComponent(uploadId)}`), { method: 'POST', body: Buffer.from(completion) }, () => false);
  if (!success(completed.status)) throw s3Error(completed.status, completed.body);
}
