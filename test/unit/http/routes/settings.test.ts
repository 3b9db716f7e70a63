// The settings routes hand a large body to another thread (settings/body.ts, through
// `readSettingsBodyElsewhere`) and read a small one themselves: the route's answer and the task's
// settings are the same either way. Run in process with the services a settings write reaches
// stubbed, the thread's work done by `readSettingsBody` itself.
import { describe, expect, it, vi } from 'vitest';
import type { AppDeps } from '../../../../src/http/deps.js';
import { InProcessRoutes } from '../../../../src/http/in-process.js';
import { settingsRoutes } from '../../../../src/http/routes/settings.js';
import { ELSEWHERE_BYTES, readSettingsBody, type SettingsBodyJob } from '../../../../src/settings/body.js';
import type { TaskInput } from '../../../../src/tasks/queue.js';

function routes() {
  const enqueued: TaskInput[] = [];
  const elsewhere = vi.fn(async (job: SettingsBodyJob) => readSettingsBody(job));
  const deps = {
    config: { httpPayloadSizeLimit: 100 * 1024 * 1024 },
    features: { require: () => undefined, enabled: () => false },
    healthy: () => true,
    forwarding: { admit: () => ({}), prepare: async () => null },
    queue: {
      enqueue: async (input: TaskInput) => {
        enqueued.push(input);
        return { uid: enqueued.length - 1, kind: input.kind, status: 'enqueued', enqueuedAt: 0n, customMetadata: null };
      },
    },
    scheduler: { wake: () => undefined },
    readSettingsBodyElsewhere: elsewhere,
  } as unknown as AppDeps;
  return { routes: new InProcessRoutes(deps, settingsRoutes), enqueued, elsewhere };
}

/** `count` synonyms, keys out of order. */
const synonyms = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, k) => [`word${count - k}`, [`synonym of word ${count - k}`, 'Word']]));

describe('a settings body from ELSEWHERE_BYTES on', () => {
  it.each([
    ['PATCH /indexes/:indexUid/settings', (value: unknown) => ({ synonyms: value, rankingRules: ['words', 'year:desc'] })],
    ['PUT /indexes/:indexUid/settings/:setting', (value: unknown) => value],
  ] as const)('is read on another thread by %s, the task the same as a small body makes', async (route, wrap) => {
    const { routes: run, enqueued, elsewhere } = routes();
    const params = { indexUid: 'big', setting: 'synonyms' };
    const large = synonyms(12_000);
    expect(JSON.stringify(wrap(large)).length).toBeGreaterThan(ELSEWHERE_BYTES);
    await run.call(route, { params, body: wrap(large) });
    expect(elsewhere).toHaveBeenCalledTimes(1);
    await run.call(route, { params, body: wrap(synonyms(3)) });
    expect(elsewhere).toHaveBeenCalledTimes(1);
    // the same settings, canonical (keys sorted), as plain values
    const [fromThread, here] = enqueued.map((input) => JSON.parse(JSON.stringify(input.kind)));
    expect(Object.keys(fromThread.settings.synonyms).slice(0, 3)).toEqual(['word1', 'word10', 'word100']);
    expect(fromThread.settings.synonyms.word1).toEqual(['synonym of word 1', 'Word']);
    expect({ ...fromThread, settings: { ...fromThread.settings, synonyms: null } }).toEqual({ ...here, settings: { ...here.settings, synonyms: null } });
  });

  it('answers the error a small body gets', async () => {
    const { routes: run, elsewhere } = routes();
    const body = { synonyms: { ...synonyms(12_000), zz: [1] } };
    await expect(run.call('PATCH /indexes/:indexUid/settings', { params: { indexUid: 'big' }, body })).rejects.toMatchObject({
      code: 'invalid_settings_synonyms',
      message: 'Invalid value type at `.synonyms.zz[0]`: expected a string, but found a positive integer: `1`',
    });
    expect(elsewhere).toHaveBeenCalledTimes(1);
  });
});
