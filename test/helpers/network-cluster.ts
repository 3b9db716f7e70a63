/**
 * A network of real Quarry processes (network.md, issue 26) for the multi-instance tests: N
 * servers on loopback ports, each with its own master key (also its remotes' search and write
 * key), the `network` experimental feature on and outgoing requests to loopback allowed. Builds
 * the sharded network on the leader with `PATCH /network` and waits for the topology change on
 * every member; kills a member with SIGKILL and restarts it on the same port and db path, so the
 * network's URLs still reach it.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { callRaw, type Reply } from './api.js';
import { freePort, startServer, tempDir, type TestServer } from './server.js';

export interface ClusterOptions {
  /** the members' names, the leader first */
  names: readonly string[];
  /** extra environment of every member (e.g. MEILI_EXPERIMENTAL_REMOTE_SEARCH_TIMEOUT_SECONDS) */
  env?: Record<string, string>;
}

export interface Member {
  readonly name: string;
  readonly key: string;
  readonly url: string;
  readonly port: number;
  readonly dbPath: string;
  /** the running process; replaced by `restart`, undefined after `kill` */
  server: TestServer | undefined;
}

const FINISHED = new Set(['succeeded', 'failed', 'canceled']);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class NetworkCluster {
  private constructor(
    private readonly root: string,
    private readonly env: Record<string, string>,
    readonly members: readonly Member[],
  ) {}

  /** Starts every member and enables the `network` feature on each. */
  static async start(options: ClusterOptions): Promise<NetworkCluster> {
    const root = tempDir('quarry-network-');
    const members: Member[] = [];
    for (const name of options.names) {
      let port = await freePort();
      while (members.some((member) => member.port === port)) port = await freePort();
      members.push({ name, key: `${name}-master-key-for-tests`, url: `http://127.0.0.1:${port}`, port, dbPath: path.join(root, name, 'data.ms'), server: undefined });
    }
    const cluster = new NetworkCluster(root, options.env ?? {}, members);
    try {
      // one after the other: starting processes compete for the cores, and each has 10 s to be ready
      for (const member of members) {
        await cluster.restart(member.name);
        const reply = await cluster.call(member.name, 'PATCH', '/experimental-features', { network: true });
        expect(reply.status, reply.text).toBe(200);
      }
    } catch (error) {
      await cluster.stop();
      throw error;
    }
    return cluster;
  }

  get leader(): Member {
    return this.members[0]!;
  }

  member(name: string): Member {
    const member = this.members.find((candidate) => candidate.name === name);
    if (member === undefined) throw new Error(`no member ${name}`);
    return member;
  }

  /** One request to a member with its master key; an object body is sent as JSON. */
  async call<T = any>(name: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const text = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
    return callRaw<T>(this.running(name), method, route, text, { authorization: `Bearer ${this.member(name).key}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers });
  }

  /** The `remotes` object of a PATCH /network naming these members, their master key as both keys. */
  remotes(names: readonly string[] = this.members.map((member) => member.name)): Record<string, { url: string; searchApiKey: string; writeApiKey: string }> {
    return Object.fromEntries(names.map((name) => [name, { url: this.member(name).url, searchApiKey: this.member(name).key, writeApiKey: this.member(name).key }]));
  }

  /**
   * `PATCH /network` on the leader; on 202, waits until every member of the resulting network has
   * the leader's network version and its `networkTopologyChange` task finished. Returns the reply
   * and each member's last topology task (by name).
   */
  async patchNetwork(body: object, timeoutMs = 30_000): Promise<{ reply: Reply; tasks: Record<string, any> }> {
    const reply = await this.call(this.leader.name, 'PATCH', '/network', body);
    if (reply.status !== 202) return { reply, tasks: {} };
    const network = (await this.call(this.leader.name, 'GET', '/network')).body;
    const tasks: Record<string, any> = {};
    for (const name of Object.keys(network.remotes)) tasks[name] = await this.topologyTask(name, network.version, timeoutMs);
    return { reply, tasks };
  }

  /**
   * Builds a sharded network of the running members: the leader leads, `shards` maps each shard
   * to its owners. Asserts the 202 and that every member's topology task succeeded.
   */
  async shard(shards: Record<string, readonly string[]>, names?: readonly string[]): Promise<Record<string, any>> {
    const { reply, tasks } = await this.patchNetwork({
      self: this.leader.name,
      leader: this.leader.name,
      remotes: this.remotes(names),
      shards: Object.fromEntries(Object.entries(shards).map(([shard, remotes]) => [shard, { remotes }])),
    });
    expect(reply.status, reply.text).toBe(202);
    for (const [name, task] of Object.entries(tasks)) expect(task.status, `${name}: ${JSON.stringify(task)}`).toBe('succeeded');
    return tasks;
  }

  /** Waits until `name` holds network `version` and its last `networkTopologyChange` task is finished. */
  private async topologyTask(name: string, version: string, timeoutMs: number): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const network = await this.call(name, 'GET', '/network');
      if (network.body?.version === version) {
        const task = (await this.call(name, 'GET', '/tasks?types=networkTopologyChange&limit=1')).body.results[0];
        if (task !== undefined && FINISHED.has(task.status)) return task;
      }
      if (Date.now() > deadline) throw new Error(`${name}: no finished topology change for network ${version} after ${timeoutMs} ms (network ${JSON.stringify(network.body)})`);
      await sleep(25);
    }
  }

  /** Waits for a member's task and returns it. */
  async waitTask(name: string, uid: number, timeoutMs = 30_000): Promise<any> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { status, body } = await this.call(name, 'GET', `/tasks/${uid}`);
      if (status === 200 && FINISHED.has(body.status)) return body;
      if (Date.now() > deadline) throw new Error(`${name}: task ${uid} still ${body?.status ?? status} after ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  /** Enqueues on a member (202 expected) and waits for its task. */
  async run(name: string, method: string, route: string, body?: unknown): Promise<any> {
    const reply = await this.call(name, method, route, body);
    expect(reply.status, reply.text).toBe(202);
    return this.waitTask(name, reply.body.taskUid);
  }

  /** Waits until no running member has an enqueued or processing task. */
  async settle(timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const member of this.members) {
      if (member.server === undefined) continue;
      for (;;) {
        const pending = (await this.call(member.name, 'GET', '/tasks?statuses=enqueued,processing&limit=1')).body;
        if (pending.results.length === 0) break;
        if (Date.now() > deadline) throw new Error(`${member.name}: tasks still pending after ${timeoutMs} ms: ${JSON.stringify(pending.results)}`);
        await sleep(25);
      }
    }
  }

  /** The documents a member holds itself (`useNetwork: false`), every one of them. */
  async localDocuments(name: string, indexUid: string): Promise<any[]> {
    const reply = await this.call(name, 'POST', `/indexes/${indexUid}/documents/fetch`, { limit: 1_000_000, useNetwork: false });
    expect(reply.status, reply.text).toBe(200);
    return reply.body.results;
  }

  /** SIGSTOP: the member keeps its connections open but answers nothing (a hung remote). */
  pause(name: string): void {
    this.running(name).process.kill('SIGSTOP');
  }

  /** SIGCONT after `pause`. */
  resume(name: string): void {
    this.running(name).process.kill('SIGCONT');
  }

  /** What a member's process printed, for failure messages. */
  output(name: string): string {
    return this.member(name).server?.output() ?? '';
  }

  private running(name: string): TestServer {
    const server = this.member(name).server;
    if (server === undefined) throw new Error(`${name} is not running`);
    return server;
  }

  /** kill -9: no shutdown, its db path kept. */
  async kill(name: string): Promise<void> {
    const member = this.member(name);
    await member.server?.kill();
    member.server = undefined;
  }

  /** Starts a member (again) on its port and db path, with its master key. */
  async restart(name: string): Promise<void> {
    const member = this.member(name);
    if (member.server !== undefined) throw new Error(`${name} is running`);
    member.server = await startServer({
      masterKey: member.key,
      dbPath: member.dbPath,
      port: member.port,
      args: ['--experimental-allowed-ip-networks', 'any'],
      env: this.env,
    });
  }

  /** kill -9 every member and delete their db paths. */
  async stop(): Promise<void> {
    await Promise.all(this.members.map((member) => this.kill(member.name)));
    rmSync(this.root, { recursive: true, force: true });
  }
}
