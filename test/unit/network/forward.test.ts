/**
 * WriteForwarding without HTTP: what each kind of write is admitted as (network.md §5, v1.50's
 * `task_network_and_check_leader_and_version`), and how the leader's re-sent write is built and
 * recorded. The remotes are a fake RemoteWriter.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/errors/api-error.js';
import { WriteForwarding, type ForwardingDeps } from '../../../src/network/forward.js';
import type { Saved } from '../../../src/network/network.js';
import { importHeaders, originHeaders } from '../../../src/network/proxy-headers.js';
import type { RemoteWriteRequest } from '../../../src/network/remote-write.js';
import type { Task, TaskNetwork } from '../../../src/types/task.js';

const V1 = '0198f3a2-6c1e-7b0a-9d7e-000000000001';
const V2 = '0198f3a2-6c1e-7b0a-9d7e-000000000002';
const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

function network(overrides: Partial<Saved> = {}): Saved {
  return {
    self: 'ms0',
    leader: 'ms0',
    remotes: { ms0: { url: 'http://a', searchApiKey: null, writeApiKey: null }, ms2: { url: 'http://c', searchApiKey: null, writeApiKey: 'k2' }, ms1: { url: 'http://b', searchApiKey: null, writeApiKey: null } },
    shards: { s0: ['ms0'], s1: ['ms1'], s2: ['ms2'] },
    version: V2,
    ...overrides,
  };
}

function forwarding(saved: Saved, answers: Record<string, 'ok' | 'fail'> = {}) {
  const sent: { url: string; request: RemoteWriteRequest }[] = [];
  const recorded: [number, TaskNetwork][] = [];
  const deps: ForwardingDeps = {
    network: { current: () => saved },
    writer: {
      send: async (remote, request) => {
        sent.push({ url: remote.url, request });
        return (answers[remote.url] ?? 'ok') === 'ok'
          ? ({ ok: true, value: 40 + sent.length } as never)
          : ({ ok: false, error: { message: 'm', code: 'remote_timeout', type: 'system', link: 'l' } } as never);
      },
    },
    queue: { setNetwork: (uid, net) => void recorded.push([uid, net]) },
    updateFiles: { source: () => ({ bytes: Buffer.from('{"id":1}\n') }) },
  };
  return { service: new WriteForwarding(deps), sent, recorded };
}

function refusal(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
  }
  throw new Error('not refused');
}

describe('WriteForwarding.admit', () => {
  it('records and forwards nothing without a leader, nor headers', () => {
    expect(forwarding(network({ leader: null })).service.admit({})).toEqual({ received: null, network: undefined, forwardIn: null });
  });

  it("records the origin of a forwarded write even without a leader, as v1.50's enterprise edition", () => {
    const origin = { remoteName: 'ms9', taskUid: 3, networkVersion: V2 };
    expect(forwarding(network({ leader: null })).service.admit(lower(originHeaders(origin)))).toMatchObject({ network: { origin }, forwardIn: null });
  });

  it("gives the leader's own write an empty remote_tasks at the network's version, to forward in that network", () => {
    const saved = network();
    expect(forwarding(saved).service.admit({})).toEqual({ received: null, network: { remote_tasks: {}, network_version: V2 }, forwardIn: saved });
  });

  it('refuses a client write on a node that does not lead, and an origin older than our network', () => {
    expect(refusal(() => forwarding(network({ leader: 'ms1' })).service.admit({})).code).toBe('not_leader');
    expect(refusal(() => forwarding(network()).service.admit(lower(originHeaders({ remoteName: 'ms1', taskUid: 1, networkVersion: V1 })))).code).toBe('network_version_too_old');
  });

  it('admits an import with its sender and change, handing its headers back, and forwards nothing', () => {
    const origin = { remoteName: 'ms1', taskUid: 1, networkVersion: V2 };
    const data = { remoteName: 'ms1', indexName: 'movies', documentCount: 1 };
    const metadata = { indexCount: 1, taskKey: 1, totalIndexDocuments: 1 };
    expect(forwarding(network()).service.admit(lower({ ...originHeaders(origin), ...importHeaders(data, metadata) }))).toEqual({
      received: { kind: 'import', origin, data, metadata },
      network: { import_from: data, network_change: origin },
      forwardIn: null,
    });
  });
});

describe('WriteForwarding.forward', () => {
  const task = { uid: 12 } as Task;

  it('sends the write to every other remote with its origin, and records each answer by remote name', async () => {
    const { service, sent, recorded } = forwarding(network(), { 'http://c': 'fail' });
    const admission = service.admit({});
    const prepared = await service.prepare(admission, { method: 'POST', pathAndQuery: '/indexes/m/documents?primaryKey=id', contentType: 'application/json', body: { kind: 'payload', uuid: 'u' } });
    await service.forward(task, prepared!);
    expect(sent.map((s) => s.url)).toEqual(['http://b', 'http://c']);
    expect(sent[0]!.request).toMatchObject({ method: 'POST', pathAndQuery: '/indexes/m/documents?primaryKey=id', contentType: 'application/x-ndjson', headers: originHeaders({ remoteName: 'ms0', taskUid: 12, networkVersion: V2 }) });
    expect(Buffer.from(sent[0]!.request.body!).toString()).toBe('{"id":1}\n');
    expect(recorded).toEqual([[12, { remote_tasks: { ms1: { taskUid: 41, error: null }, ms2: { error: { message: 'm', code: 'remote_timeout', type: 'system', link: 'l' } } }, network_version: V2 }]]);
  });

  it('sends JSON bodies re-serialized, as application/json when the client sent no Content-Type', async () => {
    const { service, sent } = forwarding(network());
    const prepared = await service.prepare(service.admit({}), { method: 'PATCH', pathAndQuery: '/indexes/m/settings', contentType: null, body: { kind: 'json', value: { stopWords: null } } });
    await service.forward(task, prepared!);
    expect(sent[0]!.request).toMatchObject({ contentType: 'application/json' });
    expect(Buffer.from(sent[0]!.request.body!).toString()).toBe('{"stopWords":null}');
  });

  it('prepares nothing for a write it does not forward', async () => {
    const { service } = forwarding(network({ leader: null }));
    expect(await service.prepare(service.admit({}), { method: 'DELETE', pathAndQuery: '/indexes/m', contentType: null, body: { kind: 'none' } })).toBeNull();
  });
});
