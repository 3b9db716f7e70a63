// HTTPS (`--ssl-cert-path` and `--ssl-key-path`, v1.50's `get_ssl_config`): the server answers over
// TLS only; `--ssl-auth-path` checks client certificates, required with `--ssl-require-auth`;
// files that cannot be read, or a key that does not fit, stop the start with v1.50's messages.
// Fixtures (test/fixtures/tls): a CA, a server certificate for localhost/127.0.0.1 and a client
// certificate it signed, and a self-signed "stranger" client certificate.
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:https';
import { connect, type ConnectionOptions } from 'node:tls';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startServer, tempDir, type TestServer } from '../helpers/server.js';

const TLS = fileURLToPath(new URL('../fixtures/tls/', import.meta.url));
const file = (name: string) => path.join(TLS, name);
const CA = readFileSync(file('ca.pem'));
const SERVER_ARGS = ['--ssl-cert-path', file('server.pem'), '--ssl-key-path', file('server.key')];

interface Answer {
  status: number;
  body: string;
}

/** GET `route` over TLS trusting the test CA, with a client certificate when given. */
function get(server: TestServer, route: string, client?: 'client' | 'stranger'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const cert = client === undefined ? {} : { cert: readFileSync(file(`${client}.pem`)), key: readFileSync(file(`${client}.key`)) };
    const req = request(`${server.url}${route}`, { ca: CA, ...cert }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HTTPS with a certificate and a key', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ args: SERVER_ARGS, https: true });
  });
  afterAll(async () => {
    await server.dispose();
  });

  it('answers over TLS with the given certificate, and says https in its startup report', async () => {
    expect(await get(server, '/health')).toEqual({ status: 200, body: '{"status":"available"}' });
    expect(server.output()).toContain(`Server listening on:\t"https://127.0.0.1:${server.port}"`);
  });

  it('does not answer plain HTTP', async () => {
    await expect(fetch(`http://127.0.0.1:${server.port}/health`)).rejects.toThrow();
  });
});

describe('an OCSP response (--ssl-ocsp-path)', () => {
  it('is stapled to the certificate for a client asking for one', async () => {
    const dir = tempDir('quarry-ocsp-');
    const response = Buffer.from('a DER OCSP response, as the file holds it');
    writeFileSync(path.join(dir, 'ocsp.der'), response);
    const server = await startServer({ args: [...SERVER_ARGS, '--ssl-ocsp-path', path.join(dir, 'ocsp.der')], https: true });
    try {
      const stapled = await new Promise<Buffer>((resolve, reject) => {
        // `requestOCSP` is a Node option @types/node does not list
        const options = { host: '127.0.0.1', port: server.port, ca: CA, servername: 'localhost', requestOCSP: true } as ConnectionOptions;
        const socket = connect(options);
        socket.on('OCSPResponse', (ocsp: Buffer) => {
          socket.end();
          resolve(ocsp);
        });
        socket.on('error', reject);
      });
      expect(stapled.equals(response)).toBe(true);
    } finally {
      await server.dispose();
    }
  });
});

describe('client certificates (--ssl-auth-path)', () => {
  let optional: TestServer;
  let required: TestServer;
  beforeAll(async () => {
    const auth = ['--ssl-auth-path', file('ca.pem')];
    [optional, required] = await Promise.all([
      startServer({ args: [...SERVER_ARGS, ...auth], https: true }),
      startServer({ args: [...SERVER_ARGS, ...auth, '--ssl-require-auth'], https: true }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([optional.dispose(), required.dispose()]);
  });

  it('lets a client without a certificate in unless --ssl-require-auth, and one signed by a root in always', async () => {
    expect((await get(optional, '/health')).status).toBe(200);
    expect((await get(optional, '/health', 'client')).status).toBe(200);
    expect((await get(required, '/health', 'client')).status).toBe(200);
    await expect(get(required, '/health')).rejects.toThrow();
  });

  it('refuses a certificate no root signed, required or not', async () => {
    await expect(get(required, '/health', 'stranger')).rejects.toThrow();
    await expect(get(optional, '/health', 'stranger')).rejects.toThrow();
  });
});

describe('TLS settings that stop the start', () => {
  it.each([
    [['--ssl-cert-path', file('missing.pem'), '--ssl-key-path', file('server.key')], 'Error: cannot open certificate file'],
    [['--ssl-cert-path', file('server.pem'), '--ssl-key-path', file('missing.key')], 'Error: cannot open private key file'],
    [['--ssl-cert-path', file('server.pem'), '--ssl-key-path', file('client.key')], 'Error: bad certificates/private key'],
    [[...SERVER_ARGS, '--ssl-ocsp-path', file('missing.der')], 'Error: cannot open ocsp file'],
    // OpenSSL took an RSA key beside the EC certificate: the server started, every handshake failed
    [['--ssl-cert-path', file('server.pem'), '--ssl-key-path', file('unrelated-rsa.key')], 'Error: bad certificates/private key'],
    [[...SERVER_ARGS, '--ssl-auth-path', file('server.key')], 'Error: no root trust anchors were provided'],
  ])('%j: %s', async (args, message) => {
    const dir = tempDir('quarry-tls-');
    const { code, stderr } = await runCli(['--db-path', path.join(dir, 'db'), '--http-addr', '127.0.0.1:0', ...args]);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(message);
  });
});
