/**
 * The one way a route turns a write into a task: register it (durable before we answer; concurrent
 * requests share a commit), wake the scheduler, answer the summarized task.
 *
 * The writes a sharded network forwards (network.md §5) say so with `write`: what the route
 * parsed, as the leader re-sends it. The network admits them first (network/forward.ts: `not_leader`,
 * `network_version_too_old`, the proxy headers' errors), their task records the network's part,
 * and on the leader the write is re-sent to the other remotes before the answer. A write carrying
 * import headers (a topology change's export: documents, index, settings or search rules) is
 * registered through the running change, which checks and counts it (network/import-receiving.ts).
 * A route reading v1.50's `TaskId` and `DryRun` headers puts them in the input (replication-headers.ts).
 */
import { ApiError } from '../errors/api-error.js';
import type { Admission, ForwardBody } from '../network/forward.js';
import { receiveImport } from '../network/import-receiving.js';
import type { TaskInput } from '../tasks/queue.js';
import { summarizedTaskView, type SummarizedTaskJson } from '../tasks/views/task-view.js';
import type { AppDeps } from './deps.js';
import type { RouteContext } from './route.js';

/** A forwarded write: its request, what it sends on, and how it is re-sent when not as received. */
export interface NetworkWrite {
  readonly ctx: Pick<RouteContext<unknown, unknown>, 'headers' | 'target'>;
  readonly body: ForwardBody;
  /** a settings sub-route is re-sent as `PATCH /indexes/{uid}/settings` */
  readonly as?: { readonly method: string; readonly path: string };
  /** the network's verdict when the route asked for it before reading its payload (`admitWrite`) */
  readonly admission?: Admission;
}

/** The network's verdict on a write, for a route that asks before reading its payload (documents). */
export function admitWrite(deps: AppDeps, ctx: NetworkWrite['ctx']): Admission {
  return deps.forwarding.admit(ctx.headers);
}

export async function enqueue(deps: AppDeps, input: TaskInput, write?: NetworkWrite): Promise<SummarizedTaskJson> {
  // After a task-queue compaction a registration would land in the replaced file and be lost.
  if (!deps.healthy()) throw new ApiError('internal', 'The task queue was compacted: restart the instance to register new tasks.');
  const admission = write === undefined ? undefined : (write.admission ?? deps.forwarding.admit(write.ctx.headers));
  // a dry run (replication-headers.ts) is checked as any write, then neither stored, forwarded nor counted
  if (input.dryRun === true) return summarizedTaskView(await deps.queue.enqueue(input));
  const forward =
    write === undefined || admission === undefined
      ? null
      : await deps.forwarding.prepare(admission, {
          method: write.as?.method ?? write.ctx.target.method,
          pathAndQuery: write.as?.path ?? write.ctx.target.url,
          contentType: write.ctx.headers['content-type'] ?? null,
          body: write.body,
        });
  const register = async () => {
    const registered = await deps.queue.enqueue(admission?.network === undefined ? input : { ...input, network: admission.network });
    deps.scheduler.wake(registered);
    return registered;
  };
  const received = admission?.received;
  const task = received?.kind === 'import' ? await receiveImport(deps.queue, received, register, (message, err) => deps.logs.logger.warn({ err }, message)) : await register();
  if (forward !== null) await deps.forwarding.forward(task, forward);
  return summarizedTaskView(task);
}
