/**
 * Network benchmarks on loopback (issue 26), two modes:
 *
 * - by remote (default): three Quarry processes each hold a third of a dataset (split by
 *   document id), a fourth holds all of it. The query set runs, query after query, against the
 *   single instance and as a `useNetwork: true` search sent to one of the three (which searches
 *   its third and asks the two others over HTTP, then merges).
 * - `sharded` (bench/network-sharded.ts): ingestion and search of a three-instance sharded
 *   network (a leader, one shard each) against one instance.
 *
 * On one machine the network only adds work (three searches, proxied requests, a merge): the
 * figures are the overhead of the protocol, not a speed-up, which needs more machines.
 *
 *   npm run build && tsc -p bench/tsconfig.json && node dist/bench/network.js [movies|debdocs] [--limit N] [--rounds R]
 *   node dist/bench/network.js sharded [debdocs|movies] [--limit N] [--rounds R]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { numberOption } from './args.js';
import { loadDataset, type Doc } from './datasets.js';
import { call, settle, start, summary, type Instance } from './network-instances.js';
import { runSharded } from './network-sharded.js';

async function byRemote(args: readonly string[]): Promise<void> {
  const name = args[0] === 'debdocs' ? 'debdocs' : 'movies';
  const limit = numberOption(args, '--limit', Number.POSITIVE_INFINITY);
  const rounds = numberOption(args, '--rounds', 3);
  const dataset = loadDataset(name, limit);
  const settings = { searchableAttributes: dataset.searchable, filterableAttributes: dataset.filterable, sortableAttributes: dataset.sortable };
  const load = async (instance: Instance, docs: Doc[]) => {
    await settle(instance, (await call(instance, 'PATCH', `/indexes/${name}/settings`, settings)).taskUid);
    await settle(instance, (await call(instance, 'POST', `/indexes/${name}/documents?primaryKey=id`, docs)).taskUid);
  };
  const root = mkdtempSync(path.join(tmpdir(), 'quarry-bench-network-'));
  const instances: Instance[] = [];
  try {
    for (let i = 0; i < 4; i++) instances.push(await start(path.join(root, `db${i}`)));
    const [ms0, ms1, ms2, whole] = instances as [Instance, Instance, Instance, Instance];
    const shards = [ms0, ms1, ms2];
    await Promise.all([...shards.map((instance, i) => load(instance, dataset.docs.filter((doc) => doc.id % 3 === i))), load(whole, dataset.docs)]);
    for (const instance of shards) await call(instance, 'PATCH', '/experimental-features', { network: true });
    await call(ms0, 'PATCH', '/network', { self: 'ms0', remotes: Object.fromEntries(shards.map((instance, i) => [`ms${i}`, { url: instance.url }])) });

    const single: number[] = [];
    const network: number[] = [];
    let differing = 0;
    for (let round = 0; round < rounds; round++) {
      for (const query of dataset.queries) {
        const body = { q: query.q, limit: 20, showRankingScore: true, ...(query.meiliFilter === undefined ? {} : { filter: query.meiliFilter }) };
        let started = performance.now();
        const alone = await call(whole, 'POST', `/indexes/${name}/search`, body);
        single.push(performance.now() - started);
        started = performance.now();
        const spread = await call(ms0, 'POST', `/indexes/${name}/search`, { ...body, useNetwork: true });
        network.push(performance.now() - started);
        const scores = (answer: { hits: { _rankingScore: number }[] }) => answer.hits.map((hit) => hit._rankingScore.toFixed(6)).join();
        if (round === 0 && scores(alone) !== scores(spread)) differing++;
      }
    }
    console.log(`${name}: ${dataset.docs.length} documents, three instances of a third each and one of all, ${dataset.queries.length} queries × ${rounds} rounds, one client`);
    console.log(`one instance, plain search:           ${summary(single)}`);
    console.log(`three instances, useNetwork search:  ${summary(network)}`);
    console.log(`queries whose 20 ranking scores differ between the two: ${differing} of ${dataset.queries.length}`);
  } finally {
    for (const { child } of instances) child.kill('SIGKILL');
    rmSync(root, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
if (args[0] === 'sharded') await runSharded(args.slice(1));
else await byRemote(args);
