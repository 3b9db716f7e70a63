// A request is timed when the metrics feature is on as it comes, as v1.50's middleware starts its
// timer: the request turning the feature on is counted untimed, the one turning it off timed.
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../src/http/deps.js';
import { installRequestMetrics, metricsRecorder } from '../../../src/http/request-metrics.js';

describe('installRequestMetrics', () => {
  it('times a request by the feature as it came, not as it left', async () => {
    let on = false;
    const deps = { features: { enabled: () => on } } as unknown as AppDeps;
    const timings: (number | null)[] = [];
    metricsRecorder(deps).request = (_method, _path, _status, seconds) => void timings.push(seconds);
    const app = Fastify();
    installRequestMetrics(app, deps, []);
    app.patch('/experimental-features', async (request) => {
      on = (request.body as { metrics: boolean }).metrics;
      return {};
    });
    for (const metrics of [true, true, false, false]) await app.inject({ method: 'PATCH', url: '/experimental-features', payload: { metrics } });
    await app.close();
    expect(timings.map((seconds) => seconds !== null)).toEqual([false, true, true, false]);
  });
});
