/**
 * A sharded network on loopback (issue 26, network.md §5–§7) against one instance: three Quarry
 * processes, ms0 leading, each owning one shard (s0, s1, s2), and a fourth holding everything.
 * Ingestion: the dataset's NDJSON chunks are posted to the single instance, then to the leader
 * (which forwards each chunk to the two others before answering; every instance indexes only its
 * shard's documents), timed until every instance is idle. Search: the query set, query after
 * query, against the single instance and against the leader (a network search by default: its
 * shard locally, the two others by proxied multi-search, merged). One machine shares its cores
 * between the three instances, so this measures the protocol's overhead, not a speed-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { numberOption } from './args.js';
import { loadDataset, type Dataset } from './datasets.js';
import { call, cpuSeconds, idle, settle, start, summary, type Instance } from './network-instances.js';

const seconds = (since: number) => (performance.now() - since) / 1000;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

/** Posts every NDJSON chunk to `target`, then waits until every instance of `members` is idle. */
async function ingest(dataset: Dataset, target: Instance, members: readonly Instance[]): Promise<{ acknowledged: number; total: number; cpu: number[] }> {
  const cpuBefore = members.map(cpuSeconds);
  const started = performance.now();
  for (const chunk of dataset.ndjson) {
    const task = await call(target, 'POST', `/indexes/${dataset.name}/documents?primaryKey=id`, chunk);
    if (typeof task.taskUid !== 'number') throw new Error(JSON.stringify(task));
  }
  const acknowledged = seconds(started);
  for (const member of members) await idle(member);
  const total = seconds(started);
  return { acknowledged, total, cpu: members.map((member, i) => cpuSeconds(member) - cpuBefore[i]!) };
}

export async function runSharded(args: readonly string[]): Promise<void> {
  const name = args[0] === 'movies' ? 'movies' : 'debdocs';
  const limit = numberOption(args, '--limit', Number.POSITIVE_INFINITY);
  const rounds = numberOption(args, '--rounds', 2);
  const dataset = loadDataset(name, limit);
  const settings = { searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-sharded-'));
  const instances: Instance[] = [];
  try {
    console.log(`load average at the start: ${load()}`);
    const single = await start(path.join(root, 'single'));
    instances.push(single);
    await settle(single, (await call(single, 'PATCH', `/indexes/${name}/settings`, settings)).taskUid);
    const alone = await ingest(dataset, single, [single]);
    console.log(`load average after the single ingestion: ${load()}`);

    const members: Instance[] = [];
    for (let i = 0; i < 3; i++) members.push(await start(path.join(root, `ms${i}`)));
    instances.push(...members);
    const leader = members[0]!;
    for (const member of members) await call(member, 'PATCH', '/experimental-features', { network: true });
    const network = {
      self: 'ms0',
      leader: 'ms0',
      remotes: Object.fromEntries(members.map((member, i) => [`ms${i}`, { url: member.url }])),
      shards: Object.fromEntries(members.map((_, i) => [`s${i}`, { remotes: [`ms${i}`] }])),
    };
    const change = await call(leader, 'PATCH', '/network', network);
    if (change.type !== 'networkTopologyChange') throw new Error(JSON.stringify(change));
    for (const member of members) await idle(member);
    await settle(leader, (await call(leader, 'PATCH', `/indexes/${name}/settings`, settings)).taskUid);
    for (const member of members) await idle(member);
    const sharded = await ingest(dataset, leader, members);
    console.log(`load average after the sharded ingestion: ${load()}`);
    const counts = [];
    for (const member of members) counts.push((await call(member, 'GET', `/indexes/${name}/stats`)).numberOfDocuments as number);
    if (counts.reduce((a, b) => a + b, 0) !== dataset.docs.length) throw new Error(`the shards hold ${counts.join(' + ')} documents, not ${dataset.docs.length}`);

    const plain: number[] = [];
    const spread: number[] = [];
    let differing = 0;
    for (let round = 0; round < rounds; round++) {
      for (const query of dataset.queries) {
        const body = { q: query.q, limit: 20, showRankingScore: true, ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }) };
        let started = performance.now();
        const whole = await call(single, 'POST', `/indexes/${name}/search`, body);
        plain.push(performance.now() - started);
        started = performance.now();
        const networked = await call(leader, 'POST', `/indexes/${name}/search`, body);
        spread.push(performance.now() - started);
        if (Object.keys(networked.remoteErrors ?? { missing: true }).length > 0) throw new Error(`remote errors: ${JSON.stringify(networked)}`);
        const scores = (answer: { hits: { _rankingScore: number }[] }) => answer.hits.map((hit) => hit._rankingScore.toFixed(6)).join();
        if (round === 0 && scores(whole) !== scores(networked)) differing++;
      }
    }
    const rate = (run: { total: number }) => Math.round(dataset.docs.length / run.total).toLocaleString('en');
    console.log(`${name}: ${dataset.docs.length} documents in ${dataset.ndjson.length} NDJSON chunks, shards of ${counts.join(' / ')} documents; ${dataset.queries.length} queries × ${rounds} rounds, one client`);
    console.log(`ingestion, one instance:        ${rate(alone)} docs/s (${alone.total.toFixed(1)} s; acknowledged in ${alone.acknowledged.toFixed(1)} s)`);
    console.log(`ingestion, three-shard network: ${rate(sharded)} docs/s (${sharded.total.toFixed(1)} s; the leader acknowledged in ${sharded.acknowledged.toFixed(1)} s)`);
    const cpu = (run: { cpu: number[] }) => run.cpu.map((value) => value.toFixed(1)).join(' / ');
    console.log(`CPU seconds while ingesting: one instance ${cpu(alone)}; ms0 / ms1 / ms2 ${cpu(sharded)} (sum ${sharded.cpu.reduce((a, b) => a + b, 0).toFixed(1)})`);
    console.log(`search, one instance:           ${summary(plain)}`);
    console.log(`search, three-shard network:    ${summary(spread)}`);
    console.log(`queries whose 20 ranking scores differ between the two: ${differing} of ${dataset.queries.length}`);
    console.log(`load average at the end: ${load()}`);
  } finally {
    for (const { child } of instances) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
}
