/**
 * A remote search through the real outgoing client, against a loopback remote that redirects:
 * the remote's search key follows a redirect on its own host and port, as v1.50's reqwest client
 * sends it, and no other.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OutgoingClient } from '../../../src/outgoing/client.js';
import { IpPolicy } from '../../../src/outgoing/ip-policy.js';
import { RemoteSearch } from '../../../src/search/remote-search.js';
import { startRecordingReceiver, type Hit } from '../../helpers/recording-receiver.js';

const hits: Hit[] = [];
let receiver: Awaited<ReturnType<typeof startRecordingReceiver>>;

beforeAll(async () => {
  receiver = await startRecordingReceiver((hit, res) => {
    hits.push(hit);
    if (hit.path === '/multi-search') return void res.writeHead(307, { location: '/v2/multi-search' }).end();
    if (hit.path === '/v2/multi-search') return void res.writeHead(307, { location: `http://localhost:${receiver.port}/v3/multi-search` }).end();
    res.setHeader('content-type', 'application/json').end(JSON.stringify({ hits: [], processingTimeMs: 0, limit: 20, offset: 0, estimatedTotalHits: 0 }));
  });
});
afterAll(() => receiver.close());

it('sends the remote its search key after a redirect on the same host and port, not to another host', async () => {
  const client = new OutgoingClient(IpPolicy.fromNetworks(['127.0.0.0/8', '::1/128']));
  const answer = await new RemoteSearch(client).send(
    { url: `http://127.0.0.1:${receiver.port}`, searchApiKey: 'remote-key' },
    { queries: [] },
    { deadline: Date.now() + 5_000, includeMetadata: false },
  );
  expect(answer.ok).toBe(true);
  expect(hits.map(({ path, headers }) => [path, headers.authorization ?? null])).toEqual([
    ['/multi-search', 'Bearer remote-key'],
    ['/v2/multi-search', 'Bearer remote-key'],
    ['/v3/multi-search', null],
  ]);
});
