/**
 * A path-style S3 endpoint on loopback for the S3 snapshot tests: multipart uploads only
 * (`POST ?uploads`, `PUT ?partNumber&uploadId`, `POST ?uploadId`), answered as S3 answers them.
 * Every request must carry a valid SigV4 query signature (`UNSIGNED-PAYLOAD`, `host` signed) by
 * the expected keys: it is checked here from the specification, independently of the signer
 * under test, and a bad one is refused with S3's 403. `refuse` makes the next request of a kind
 * answer an error instead.
 */
import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface S3Mock {
  readonly url: string;
  /** completed objects by `<bucket>/<key>` */
  readonly objects: Map<string, Buffer>;
  /** every request: method, path, query parameters */
  readonly requests: { method: string; path: string; query: URLSearchParams }[];
  /** parts received per upload id */
  readonly parts: Map<string, Map<number, Buffer>>;
  refuse(kind: 'create' | 'part' | 'complete', status: number, body: string): void;
  close(): Promise<void>;
}

const rfc3986 = (text: string) => encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** Why the request's presigned signature is not valid for `keys`, or null when it is. */
function signatureProblem(method: string, rawPath: string, host: string, query: URLSearchParams, keys: { accessKey: string; secretKey: string }, region: string): string | null {
  if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return 'algorithm';
  const [accessKey, date, scopeRegion, service, terminal] = (query.get('X-Amz-Credential') ?? '').split('/');
  if (accessKey !== keys.accessKey || scopeRegion !== region || service !== 's3' || terminal !== 'aws4_request') return 'credential scope';
  if (query.get('X-Amz-SignedHeaders') !== 'host') return 'signed headers';
  const amzDate = query.get('X-Amz-Date') ?? '';
  const canonicalQuery = [...query.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [rfc3986(name), rfc3986(value)])
    .sort(([a, x], [b, y]) => (a! < b! ? -1 : a! > b! ? 1 : x! < y! ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonical = [method, rawPath, canonicalQuery, `host:${host}\n`, 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${keys.secretKey}`, date!), region), 's3'), 'aws4_request');
  return createHmac('sha256', signingKey).update(toSign).digest('hex') === query.get('X-Amz-Signature') ? null : 'signature';
}

const xmlError = (code: string, message: string) => `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`;

export async function s3Mock(keys: { accessKey: string; secretKey: string }, region: string): Promise<S3Mock> {
  const objects = new Map<string, Buffer>();
  const parts = new Map<string, Map<number, Buffer>>();
  const requests: S3Mock['requests'] = [];
  const refusals = new Map<string, { status: number; body: string }>();
  let uploads = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [rawPath, rawQuery = ''] = (req.url ?? '').split('?');
      const query = new URLSearchParams(rawQuery);
      const method = req.method ?? '';
      requests.push({ method, path: rawPath!, query });
      const answer = (status: number, text: string, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/xml', ...headers });
        res.end(text);
      };
      const problem = signatureProblem(method, rawPath!, req.headers.host ?? '', query, keys, region);
      if (problem !== null) return answer(403, xmlError('SignatureDoesNotMatch', `bad ${problem}`));
      const object = decodeURIComponent(rawPath!.slice(1));
      const kind = query.has('uploads') ? 'create' : query.has('partNumber') ? 'part' : query.has('uploadId') ? 'complete' : 'other';
      const refusal = refusals.get(kind);
      if (refusal !== undefined) {
        refusals.delete(kind);
        return answer(refusal.status, refusal.body);
      }
      if (kind === 'create' && method === 'POST') {
        const id = `upload-${++uploads}`;
        parts.set(id, new Map());
        return answer(200, `<?xml version="1.0" encoding="UTF-8"?><InitiateMultipartUploadResult><Bucket>b</Bucket><Key>${object}</Key><UploadId>${id}</UploadId></InitiateMultipartUploadResult>`);
      }
      const upload = parts.get(query.get('uploadId') ?? '');
      if (upload === undefined) return answer(404, xmlError('NoSuchUpload', 'no such upload'));
      if (kind === 'part' && method === 'PUT') {
        const number = Number(query.get('partNumber'));
        upload.set(number, body);
        return answer(200, '', { etag: `"${createHash('md5').update(body).digest('hex')}"` });
      }
      if (kind === 'complete' && method === 'POST') {
        const listed = [...body.toString().matchAll(/<Part><ETag>([^<]*)<\/ETag><PartNumber>(\d+)<\/PartNumber><\/Part>/g)];
        const pieces: Buffer[] = [];
        for (const [, etag, number] of listed) {
          const part = upload.get(Number(number));
          const expected = part === undefined ? undefined : `&#34;${createHash('md5').update(part).digest('hex')}&#34;`;
          if (etag !== expected) return answer(400, xmlError('InvalidPart', `part ${number}`));
          pieces.push(part!);
        }
        if (listed.length !== upload.size) return answer(400, xmlError('InvalidPart', 'parts missing'));
        objects.set(object, Buffer.concat(pieces));
        return answer(200, `<CompleteMultipartUploadResult><Key>${object}</Key></CompleteMultipartUploadResult>`);
      }
      return answer(405, xmlError('MethodNotAllowed', method));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    parts,
    refuse: (kind, status, body) => refusals.set(kind, { status, body }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
