/**
 * The IP policy through the real server (cli-config.md, `--experimental-allowed-ip-networks`): a
 * webhook to a loopback receiver is refused by default, the refusal only logged and the task
 * unaffected, and delivered once the flag allows loopback, by CIDR or with `any` (environment).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let receiver: Server;
let receiverUrl: string;
const received: string[] = [];
const servers: TestServer[] = [];
const NIL = '00000000-0000-0000-0000-000000000000';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.url!);
    req.resume().on('end', () => res.writeHead(req.url === '/failing' ? 500 : 200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}`;
});
afterAll(async () => {
  await Promise.all(servers.map((server) => server.dispose()));
  await new Promise((resolve) => receiver.close(resolve));
});

async function serverWithWebhook(path: string, args: string[] = [], env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startServer({ args: ['--task-webhook-url', `${receiverUrl}${path}`, ...args], env });
  servers.push(server);
  return server;
}

async function until(done: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}

describe('outgoing requests and the IP policy', () => {
  it('refuses a webhook to a loopback address by default, logs the refusal, leaves the task alone', async () => {
    const server = await serverWithWebhook('/default');
    expect((await run(server, 'POST', '/indexes', { uid: 'refused' })).status).toBe('succeeded');
    await until(() => server.output().includes('Rejected'));
    // v1.50's words (its webhooks go through ureq), then the error itself as a log field.
    const line = server.output().split('\n').find((l) => l.includes('Rejected'));
    expect(line).toContain(`ERROR index_scheduler::webhook: While sending data to the webhook ${NIL}: bad uri: Rejected URI error=Rejected IP`);
    expect(line).toContain(' address="127.0.0.1"');
    // A delivery, were there one, would have come before the log line.
    expect(received.filter((path) => path === '/default')).toEqual([]);
  });

  it('delivers once the loopback network is allowed', async () => {
    const server = await serverWithWebhook('/cidr', ['--experimental-allowed-ip-networks', '10.0.0.0/8,127.0.0.0/8']);
    await run(server, 'POST', '/indexes', { uid: 'allowed' });
    await until(() => received.includes('/cidr'));
    expect(received.filter((path) => path === '/cidr')).toEqual(['/cidr']);
    expect(server.output()).not.toContain('Rejected');
  });

  it('delivers anywhere with `any`, from the environment too; an error status is logged as v1.50 does', async () => {
    const server = await serverWithWebhook('/any', [], { MEILI_EXPERIMENTAL_ALLOWED_IP_NETWORKS: 'any' });
    const failing = await call(server, 'POST', '/webhooks', { url: `${receiverUrl}/failing` });
    await run(server, 'POST', '/indexes', { uid: 'anything' });
    await until(() => received.includes('/any') && server.output().includes('http status'));
    expect(received.filter((path) => path === '/any')).toEqual(['/any']);
    expect(server.output()).toContain(`ERROR index_scheduler::webhook: While sending data to the webhook ${failing.body.uuid}: http status: 500\n`);
  });

  it('still refuses an address outside the allowed networks', async () => {
    const server = await serverWithWebhook('/elsewhere', ['--experimental-allowed-ip-networks', '127.0.0.2/32']);
    await run(server, 'POST', '/indexes', { uid: 'elsewhere' });
    await until(() => server.output().includes('Rejected URI'));
    expect(server.output()).toContain('bad uri: Rejected URI');
    expect(received.filter((path) => path === '/elsewhere')).toEqual([]);
  });
});
