/**
 * Random document, settings and index operations, with the server killed (-9) at arbitrary
 * moments, end in exactly the state a model reaches by applying every enqueued task in uid order:
 * no acknowledged task is lost, none is applied twice or half, and the word and facet indexes
 * agree with the stored documents after every restart.
 * A request cut off by the kill may or may not have been enqueued; the client sends one request
 * at a time, so such a task is the request sent right after the last acknowledged task below it.
 */
import { request } from 'node:http';
import path from 'node:path';
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { call, waitTask } from '../../helpers/api.js';
import { startServer, type TestServer } from '../../helpers/server.js';

interface Doc {
  id: number;
  title?: string;
  cat?: string;
  n?: number;
}
type Model = Map<number, Doc>;

/** A request the client sent, what it does to the model, and its task uid (null: no task, undefined: answer lost). */
interface Sent {
  apply: (state: { docs: Model; other: Model }) => void;
  uid: number | null | undefined;
}

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return Math.floor((state / 0x80000000) * n);
  };
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'omega', 'kappa'];

/**
 * One request on its own connection through node:http, which never resends: fetch may retry a
 * PUT or DELETE whose connection the kill cut, and the retry would be a task the model cannot tell.
 */
function send(server: TestServer, method: string, route: string, body: string | undefined, contentType = 'application/json'): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = request(server.url + route, { method, agent: false, headers: body === undefined ? {} : { 'content-type': contentType } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One random write request: its route and body, and its effect on the model. */
function randomOp(pick: (n: number) => number): { method: string; route: string; body?: string; contentType?: string; apply: Sent['apply'] } {
  const doc = (): Doc => ({ id: pick(3000), title: `tok${pick(3000)}x ${WORDS[pick(WORDS.length)]}`, cat: `c${pick(4)}`, n: pick(100) });
  const kind = pick(9);
  if (kind <= 2) {
    const docs = Array.from({ length: 1 + pick(kind === 0 ? 1500 : 150) }, doc);
    const ndjson = kind === 1;
    return {
      method: 'POST',
      route: '/indexes/rk/documents',
      body: ndjson ? docs.map((d) => JSON.stringify(d)).join('\n') : JSON.stringify(docs),
      contentType: ndjson ? 'application/x-ndjson' : 'application/json',
      apply: ({ docs: model }) => docs.forEach((d) => model.set(d.id, d)),
    };
  }
  if (kind === 3) {
    const parts = Array.from({ length: 1 + pick(80) }, () => ({ id: pick(3000), n: pick(100) }));
    return { method: 'PUT', route: '/indexes/rk/documents', body: JSON.stringify(parts), apply: ({ docs: model }) => parts.forEach((p) => model.set(p.id, { ...model.get(p.id), ...p })) };
  }
  if (kind === 4) {
    const ids = Array.from({ length: 1 + pick(200) }, () => pick(3000));
    return { method: 'POST', route: '/indexes/rk/documents/delete-batch', body: JSON.stringify(ids), apply: ({ docs: model }) => ids.forEach((id) => model.delete(id)) };
  }
  if (kind === 5) {
    const cat = `c${pick(4)}`;
    const below = pick(100);
    return {
      method: 'POST',
      route: '/indexes/rk/documents/delete',
      body: JSON.stringify({ filter: `cat = ${cat} AND n < ${below}` }),
      apply: ({ docs: model }) => {
        for (const [id, d] of [...model]) if (d.cat === cat && d.n !== undefined && d.n < below) model.delete(id);
      },
    };
  }
  if (kind === 6) {
    const searchable = pick(2) === 0 ? ['title', 'cat'] : ['*'];
    return { method: 'PATCH', route: '/indexes/rk/settings', body: JSON.stringify({ searchableAttributes: searchable, filterableAttributes: pick(2) === 0 ? ['cat', 'n'] : ['n', 'title', 'cat'] }), apply: () => {} };
  }
  if (kind === 7) {
    return {
      method: 'POST',
      route: '/swap-indexes',
      body: JSON.stringify([{ indexes: ['rk', 'rk2'] }]),
      apply: (state) => {
        [state.docs, state.other] = [state.other, state.docs];
      },
    };
  }
  const below = pick(100);
  return {
    method: 'POST',
    route: '/indexes/rk/documents/edit',
    body: JSON.stringify({ filter: `n < ${below}`, function: 'doc.n = doc.n + 1000' }),
    apply: ({ docs: model }) => {
      for (const [id, d] of model) if (d.n !== undefined && d.n < below) model.set(id, { ...d, n: d.n + 1000 });
    },
  };
}

describe('kill -9 at random moments', () => {
  it('random operations end in the state of their enqueued tasks applied in order, indexes included', async () => {
    const pick = random(20261123);
    let server = await startServer();
    const dbPath = server.dbPath;
    const sent: Sent[] = [];
    try {
      for (const uid of ['rk', 'rk2']) {
        expect((await send(server, 'POST', '/indexes', JSON.stringify({ uid, primaryKey: 'id' }))).status).toBe(202);
        expect((await send(server, 'PATCH', `/indexes/${uid}/settings`, JSON.stringify({ filterableAttributes: ['cat', 'n'] }))).status).toBe(202);
      }
      expect((await send(server, 'PATCH', '/experimental-features', JSON.stringify({ editDocumentsByFunction: true }))).status).toBe(200);
      const setupTasks = 4;

      for (let round = 0; round < 5; round++) {
        let killed = false;
        const killer = setTimeout(() => {
          killed = true;
          void server.kill();
        }, 40 + pick(300));
        for (let k = 0; k < 25 && !killed; k++) {
          const op = randomOp(pick);
          const request: Sent = { apply: op.apply, uid: undefined };
          sent.push(request);
          try {
            const reply = await send(server, op.method, op.route, op.body, op.contentType);
            expect(reply.status, JSON.stringify(reply.body)).toBe(202);
            request.uid = reply.body.taskUid;
          } catch (err) {
            if (!killed) throw err;
          }
        }
        clearTimeout(killer);
        await server.kill();
        server = await startServer({ dbPath });
      }

      const tasks: any[] = (await call(server, 'GET', '/tasks?limit=1000')).body.results;
      const last = Math.max(...tasks.map((t) => t.uid));
      await waitTask(server, last, 60_000);
      const byUid = new Map<number, Sent>();
      for (const request of sent) if (typeof request.uid === 'number') byUid.set(request.uid, request);
      for (const task of tasks) {
        if (task.uid < setupTasks || byUid.has(task.uid)) continue;
        let before = -1;
        sent.forEach((request, i) => {
          if (typeof request.uid === 'number' && request.uid < task.uid) before = i;
        });
        const lost = sent[before + 1];
        expect(lost?.uid, `task ${task.uid} matches no request`).toBeUndefined();
        lost!.uid = task.uid;
        byUid.set(task.uid, lost!);
      }

      const state = { docs: new Map() as Model, other: new Map() as Model };
      for (const uid of [...byUid.keys()].sort((a, b) => a - b)) {
        const task = await waitTask(server, uid, 60_000);
        expect(task.status, JSON.stringify(task.error)).toBe('succeeded');
        byUid.get(uid)!.apply(state);
      }

      for (const [uid, model] of [['rk', state.docs], ['rk2', state.other]] as const) {
        const stored = await call(server, 'GET', `/indexes/${uid}/documents?limit=10000`);
        expect(stored.body.results.length).toBe(model.size);
        expect(new Map(stored.body.results.map((d: Doc) => [d.id, d]))).toEqual(model);
        for (let cat = 0; cat < 4; cat++) {
          const filtered = await call(server, 'POST', `/indexes/${uid}/search`, { filter: `cat = c${cat}`, hitsPerPage: 0 });
          expect(filtered.body.totalHits).toBe([...model.values()].filter((d) => d.cat === `c${cat}`).length);
        }
        const titled = [...model.values()].filter((d) => d.title !== undefined);
        for (const doc of titled.slice(0, 40)) {
          const word = doc.title!.split(' ')[0]!;
          const found = await call(server, 'POST', `/indexes/${uid}/search`, { q: word, limit: 1000, attributesToRetrieve: ['id'] });
          const expected = titled.filter((d) => d.title!.split(' ')[0] === word).map((d) => d.id);
          expect(found.body.hits.map((h: Doc) => h.id)).toEqual(expect.arrayContaining(expected));
        }
      }
    } finally {
      await server.kill();
      rmSync(path.dirname(dbPath), { recursive: true, force: true });
    }
  }, 180_000);
});
