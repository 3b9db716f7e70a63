/**
 * Real Quarry processes for the topology-change tests: each with its own master key (the key
 * other instances use to write to it) and loopback addresses allowed, calls as that key, task
 * waiting and the documents an instance holds itself.
 */
import { startServer, type TestServer } from '../../helpers/server.js';

export interface Instance {
  readonly server: TestServer;
  readonly key: string;
  readonly url: string;
}

/** Starts an instance with the `network` feature on. */
export async function startInstance(name: string): Promise<Instance> {
  const key = `${name}-master-key-0123456789`;
  const server = await startServer({ masterKey: key, args: ['--experimental-allowed-ip-networks', 'any'] });
  const instance = { server, key, url: server.url };
  await api(instance, 'PATCH', '/experimental-features', { network: true });
  return instance;
}

/** kill -9, then the same instance again: same database, address and key. */
export async function restartInstance(instance: Instance): Promise<Instance> {
  await instance.server.kill();
  const server = await startServer({ masterKey: instance.key, args: ['--experimental-allowed-ip-networks', 'any'], dbPath: instance.server.dbPath, port: instance.server.port });
  return { ...instance, server };
}

/** One request as the instance's master key (extra headers as given). */
export async function api(instance: Instance, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const res = await fetch(`${instance.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${instance.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Waits for a task to be finished and answers it. */
export async function finished(instance: Instance, uid: number, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { body } = await api(instance, 'GET', `/tasks/${uid}`);
    if (['succeeded', 'failed', 'canceled'].includes(body?.status)) return body;
    if (Date.now() > deadline) throw new Error(`task ${uid} still ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Enqueues and waits. */
export async function run(instance: Instance, method: string, path: string, body?: unknown): Promise<any> {
  const reply = await api(instance, method, path, body);
  if (reply.status !== 202) throw new Error(`${method} ${path} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return finished(instance, reply.body.taskUid);
}

/** The ids of the documents of `index` the instance holds itself, ascending. */
export async function localIds(instance: Instance, index = 'movies'): Promise<number[]> {
  const { body } = await api(instance, 'POST', `/indexes/${index}/search`, { q: '', limit: 1000, useNetwork: false, attributesToRetrieve: ['id'] });
  return body.hits.map((hit: { id: number }) => hit.id).sort((a: number, b: number) => a - b);
}

/** A remote entry of a network, written to with the instance's master key. */
export const remote = (instance: Instance) => ({ url: instance.url, writeApiKey: instance.key });
