/**
 * v1.50's replication parameters (`--experimental-replication-parameters`), read by the routes that
 * register a task as v1.50's read them (documents, indexes, settings, swaps, task cancelation and
 * deletion, dumps, snapshots, export; not compaction, search rules or the network):
 * - `TaskId: <u32>`: the uid the task gets, refused (`bad_request`) below the next uid;
 * - `DryRun: true` (any case): the request is checked as ever, and answered with the task it
 *   would register, which is not registered (its payload is not kept, nothing runs).
 * Without the flag both headers are ignored, as v1.50 ignores them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { ApiError } from '../errors/api-error.js';
import type { TaskInput } from '../tasks/queue.js';
import type { AppDeps } from './deps.js';

/**
 * actix's `HeaderValue::to_str`: visible ASCII and tabs only. Node hands other bytes over as
 * Latin-1 characters, which are what it refuses.
 */
function headerText(name: string, value: string | string[] | undefined): string | undefined {
  // Node joins a repeated header's values; actix's `get` reads the first
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09) || code > 0x7e) {
      throw new ApiError('bad_request', `${name} is not a valid utf-8 string: failed to convert header to a str`);
    }
  }
  return text;
}

const U32_MAX = 0xffff_ffff;

/** Rust's `u32::from_str`: an optional `+`, then decimal digits only. */
function parseU32(text: string): number {
  const digits = text.startsWith('+') ? text.slice(1) : text;
  let reason: string | null = null;
  if (text.length === 0) reason = 'cannot parse integer from empty string';
  else if (!/^[0-9]+$/.test(digits)) reason = 'invalid digit found in string';
  else if (Number(digits) > U32_MAX) reason = 'number too large to fit in target type';
  if (reason !== null) throw new ApiError('bad_request', `Could not parse the TaskId as a u32: ${reason}`);
  return Number(digits);
}

/** The task uid and dry run a request asks for, to spread into its `TaskInput`. */
export function replicationOf(deps: Pick<AppDeps, 'config'>, headers: IncomingHttpHeaders): Pick<TaskInput, 'uid' | 'dryRun'> {
  if (!deps.config.experimentalReplicationParameters) return {};
  const taskId = headerText('TaskId', headers.taskid);
  const dryRun = headerText('DryRun', headers.dryrun);
  return {
    ...(taskId === undefined ? {} : { uid: parseU32(taskId) }),
    ...(dryRun?.toLowerCase() === 'true' ? { dryRun: true } : {}),
  };
}
