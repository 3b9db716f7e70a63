// S3 snapshots (v1.50's Enterprise Edition, cli-config.md §2.4): with the `--s3-*` options a
// snapshot is streamed to `<prefix>/<db folder>.snapshot` in a multipart upload of presigned
// requests, instead of the snapshot directory, and the object restores with --import-snapshot.
// The bucket is a loopback S3 (helpers/s3-mock.ts) that checks every signature.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { s3Mock, type S3Mock } from '../../helpers/s3-mock.js';
import { startServer, tempDir, type TestServer } from '../../helpers/server.js';

const KEYS = { accessKey: 'AKIAQUARRYTEST', secretKey: 'quarry/secret+key' };
const REGION = 'eu-west-3';

let bucket: S3Mock;
beforeAll(async () => {
  bucket = await s3Mock(KEYS, REGION);
});
afterAll(() => bucket.close());

const s3Args = (extra: string[] = []) => [
  '--experimental-allowed-ip-networks',
  'any',
  '--s3-bucket-url',
  bucket.url,
  '--s3-bucket-region',
  REGION,
  '--s3-bucket-name',
  'quarry-snapshots',
  '--s3-snapshot-prefix',
  'backups/daily',
  ...extra,
];

async function snapshot(server: TestServer): Promise<any> {
  const reply = await call(server, 'POST', '/snapshots');
  expect(reply.status).toBe(202);
  return waitTask(server, reply.body.taskUid, 30_000);
}

describe('S3 snapshots', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({
      args: s3Args(['--s3-access-key', KEYS.accessKey, '--s3-secret-key', KEYS.secretKey, '--experimental-s3-multipart-part-size', '64 KiB', '--experimental-s3-max-in-flight-parts', '2']),
    });
    const docs = Array.from({ length: 2000 }, (_, id) => ({ id, title: `movie ${id}`, overview: `the ${id % 7} quick brown fox number ${id} jumps` }));
    expect(await waitTask(server, (await call(server, 'POST', '/indexes/movies/documents', docs)).body.taskUid)).toMatchObject({ status: 'succeeded' });
  });
  afterAll(() => server.dispose());

  it('streams the snapshot to the bucket in parts, signed, and it restores', async () => {
    expect(await snapshot(server)).toMatchObject({ status: 'succeeded', type: 'snapshotCreation' });
    const key = 'quarry-snapshots/backups/daily/data.ms.snapshot';
    const object = bucket.objects.get(key);
    expect(object).toBeDefined();
    // stored as gzip level 0 (the default): a gzip stream, and every part but the last of 64 KiB
    expect(gunzipSync(object!).length).toBeGreaterThan(object!.length - 1024);
    const [upload] = [...bucket.parts.values()];
    // in part-number order: with two parts in flight, the short last one may land before another
    const sizes = [...upload!].sort(([a], [b]) => a - b).map(([, part]) => part.length);
    expect(sizes.length).toBeGreaterThan(2);
    expect(sizes.slice(0, -1).every((size) => size === 64 * 1024)).toBe(true);
    expect(bucket.requests.every((request) => request.query.get('X-Amz-Expires') === '28800')).toBe(true);
    // nothing written to the snapshot directory
    const snapshots = path.join(server.dbPath, '..', 'snapshots');
    expect(existsSync(snapshots) ? readdirSync(snapshots) : []).toEqual([]);

    const file = path.join(tempDir(), 'data.ms.snapshot');
    writeFileSync(file, object!);
    const restored = await startServer({ dbPath: path.join(tempDir(), 'restored.ms'), args: ['--import-snapshot', file] });
    try {
      const search = await call(restored, 'POST', '/indexes/movies/search', { q: 'movie 1999' });
      expect(search.body.hits[0]).toMatchObject({ id: 1999 });
      expect((await call(restored, 'GET', '/indexes/movies/stats')).body.numberOfDocuments).toBe(2000);
    } finally {
      await restored.dispose();
    }
  });

  it('fails the task with v1.50 errors when S3 refuses a part or the completion', async () => {
    const denied = '<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>';
    bucket.refuse('part', 403, denied);
    expect(await snapshot(server)).toMatchObject({
      status: 'failed',
      error: { message: `S3 error: status: 403 Forbidden, body: ${denied}`, code: 'invalid_s_3_snapshot_request', type: 'internal' },
    });
    bucket.refuse('complete', 500, 'oops');
    expect(await snapshot(server)).toMatchObject({
      status: 'failed',
      error: { message: 'S3 error: status: 500 Internal Server Error, body: oops', code: 's_3_snapshot_server_error', type: 'internal' },
    });
    // the next one goes through
    expect(await snapshot(server)).toMatchObject({ status: 'succeeded' });
  });
});

describe('S3 snapshot failures', () => {
  it('fails the task when the keys are wrong: S3 refuses the signature', async () => {
    const server = await startServer({ args: s3Args(['--s3-access-key', KEYS.accessKey, '--s3-secret-key', 'not-the-secret']) });
    try {
      const task = await snapshot(server);
      expect(task).toMatchObject({ status: 'failed', error: { code: 'invalid_s_3_snapshot_request' } });
      expect(task.error.message).toMatch(/^S3 error: status: 403 Forbidden, body: .*SignatureDoesNotMatch/);
    } finally {
      await server.dispose();
    }
  });

  it('signs a prefix that needs encoding as it sends it', async () => {
    const args = s3Args(['--s3-access-key', KEYS.accessKey, '--s3-secret-key', KEYS.secretKey]);
    args[args.indexOf('backups/daily')] = "backups/(it's) dälly*";
    const server = await startServer({ args });
    try {
      expect(await snapshot(server)).toMatchObject({ status: 'succeeded' });
      expect(bucket.objects.has("quarry-snapshots/backups/(it's) dälly*/data.ms.snapshot")).toBe(true);
    } finally {
      await server.dispose();
    }
  });

  it('fails the task when the web identity token cannot be read', async () => {
    const missing = path.join(tempDir(), 'no-token');
    const server = await startServer({ args: s3Args(['--experimental-s3-role-arn', 'arn:aws:iam::1:role/r', '--experimental-s3-web-identity-token-file', missing]) });
    try {
      const task = await snapshot(server);
      expect(task).toMatchObject({ status: 'failed', error: { code: 'internal' } });
      expect(task.error.message).toMatch(/^Failed to read web identity token file: ENOENT/);
    } finally {
      await server.dispose();
    }
  });

  it('refuses to start with S3 options but no bucket, prefix or credentials', async () => {
    await expect(startServer({ args: ['--s3-bucket-url', 'http://127.0.0.1:9'] })).rejects.toThrow(
      /the following required arguments were not provided:\n {2}--s3-bucket-region <S3_BUCKET_REGION>\n {2}--s3-bucket-name <S3_BUCKET_NAME>\n {2}--s3-snapshot-prefix <S3_SNAPSHOT_PREFIX>\n {2}<--s3-access-key <S3_ACCESS_KEY>\|--experimental-s3-role-arn <EXPERIMENTAL_S3_ROLE_ARN>>/,
    );
  });
});
