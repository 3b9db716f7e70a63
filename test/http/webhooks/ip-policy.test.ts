/**
 * The IP policy through the real server (cli-config.md, `--experimental-allowed-ip-networks`): a
 * webhook to a loopback receiver is refused by default, the refusal only logged and the task
 * unaffected, and delivered once the flag allows loopback, by CIDR or with `any` (environment).
 */
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

let receiver: Server;
let receiverUrl: string;
const received: string[] = [];
const servers: TestServer[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    received.push(req.url!);
    req.resume().on('end', () => res.end());
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
    await until(() => server.output().includes('Rejected IP'));
    const line = server.output().split('\n').find((l) => l.includes('Rejected IP'));
    expect(line).toContain(`ERROR index_scheduler::webhook: could not send the batch's tasks to the webhook ${receiverUrl}/default`);
    expect(line).toContain('"address":"127.0.0.1"');
    // A delivery, were there one, would have come before the log line.
    expect(received.filter((path) => path === '/default')).toEqual([]);
  });

  it('delivers once the loopback network is allowed', async () => {
    const server = await serverWithWebhook('/cidr', ['--experimental-allowed-ip-networks', '10.0.0.0/8,127.0.0.0/8']);
    await run(server, 'POST', '/indexes', { uid: 'allowed' });
    await until(() => received.includes('/cidr'));
    expect(received.filter((path) => path === '/cidr')).toEqual(['/cidr']);
    expect(server.output()).not.toContain('Rejected IP');
  });

  it('delivers anywhere with `any`, from the environment too', async () => {
    const server = await serverWithWebhook('/any', [], { MEILI_EXPERIMENTAL_ALLOWED_IP_NETWORKS: 'any' });
    await run(server, 'POST', '/indexes', { uid: 'anything' });
    await until(() => received.includes('/any'));
    expect(received.filter((path) => path === '/any')).toEqual(['/any']);
  });

  it('still refuses an address outside the allowed networks', async () => {
    const server = await serverWithWebhook('/elsewhere', ['--experimental-allowed-ip-networks', '127.0.0.2/32']);
    await run(server, 'POST', '/indexes', { uid: 'elsewhere' });
    await until(() => server.output().includes('Rejected IP'));
    expect(server.output()).toContain('Rejected IP');
    expect(received.filter((path) => path === '/elsewhere')).toEqual([]);
  });
});
