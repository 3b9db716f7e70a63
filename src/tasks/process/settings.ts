/**
 * Settings batches (settings.md §9; autobatcher operations `settings` and `clearAndSettings`):
 * the batch's settings updates are applied in task order to the stored settings, as Meilisearch's
 * settings builder accumulates them, and the result is checked once. A state-dependent conflict
 * (a typo size against the stored other one, an incomplete embedder, a `userProvided` embedder's
 * dimensions changed while documents hold its vectors) fails every task of the batch and changes
 * nothing but an index the batch created: that one is registered before the
 * settings apply and stays, empty, as v1.50's `create_index` commits it first.
 *
 * `clearAndSettings` also holds document clears and deletions that came after a settings update:
 * Meilisearch runs them first (the clear empties the index), then the settings.
 *
 * Writes: the new settings and a rebuild, from the stored documents, of each index updater whose
 * derived data the change alters (`diffSettings`), all in ONE transaction on the index environment
 * (batch-write.ts: an index refusing them fails every task); the index record's `updatedAt` joins
 * the instance commit. Once committed, the settings written are what searches read
 * (index-settings.ts `primeSearchSettings`), not decoded again on the thread answering requests.
 */
import { ApiError } from '../../errors/api-error.js';
import { DocumentStore } from '../../engine/documents/store.js';
import { normalizeExactWords } from '../../engine/exact-words.js';
import type { IndexReadEnv } from '../../engine/index-read-env.js';
import { primeSearchSettings, searchSettings } from '../../engine/index-settings.js';
import { readEmbedderStates } from '../../engine/vectors/store.js';
import { heldDimensionsProblem } from '../../settings/embedders.js';
import { INDEX_UPDATERS } from '../../engine/indexer/registry.js';
import { diffSettings } from '../../settings/diff.js';
import { SETTING_KEYS, type SettingKey } from '../../settings/catalogue.js';
import { applyPatch, mergedSettingsProblem, VERBATIM_SETTINGS } from '../../settings/merge.js';
import type { SettingsPatch } from '../../settings/patch.js';
import { defaultSettings, type IndexSettings } from '../../types/settings.js';
import type { Task } from '../../types/task.js';
import { textMembers, type TextMember } from '../../types/json-text-object.js';
import { parseJsonSliced } from '../../types/sliced-json.js';
import { TimeSlices } from '../../types/time-slices.js';
import type { BatchProcessor } from './context.js';
import { failed, succeeded } from './outcome.js';
import { writeKnownOutcome } from './batch-write.js';

/** The first embedder whose new settings its stored vectors cannot meet (settings/embedders.ts `heldDimensionsProblem`). */
function heldVectorsProblem(env: IndexReadEnv, before: IndexSettings, after: IndexSettings): ApiError | undefined {
  const states = readEmbedderStates(env);
  for (const [name, embedder] of Object.entries(after.embedders)) {
    const state = Object.hasOwn(states, name) ? states[name] : undefined;
    const problem = heldDimensionsProblem(name, embedder, Object.hasOwn(before.embedders, name) ? before.embedders[name] : undefined, state);
    if (problem !== undefined) return new ApiError(problem.code, problem.message);
  }
  return undefined;
}

/**
 * A task's settings update from its members' texts (the task record's), each parsed as JSON.parse
 * reads it (the numbers settings hold) a slice at a time: 450,000 synonyms parsed at once, and
 * walked for 64-bit integers, held the thread answering requests ~2.5 s.
 */
async function slicedPatch(members: readonly TextMember[], slices: TimeSlices): Promise<SettingsPatch> {
  const patch: Record<string, unknown> = {};
  for (const [key, text] of members) patch[key] = await parseJsonSliced(text, slices);
  return patch as SettingsPatch;
}

export const processSettings: BatchProcessor = async (ctx, tasks, next) => {
  const indexUid = next.indexUid!;
  const existing = ctx.indexes.get(indexUid);
  if (existing === undefined && !next.mustCreateIndex) {
    const error = new ApiError('index_not_found', `Index \`${indexUid}\` not found.`);
    return { tasks: tasks.map((task) => failed(task, error)) };
  }
  const record = existing ?? ctx.indexes.newRecord(indexUid, null, ctx.now);
  // a new index is there, empty, before its settings apply, and stays if they fail (v1.50's create_index)
  if (existing === undefined) await ctx.indexes.register(record);
  // the settings searches share (read-only: applyPatch copies what it changes), not a decode of them
  const before = existing === undefined ? defaultSettings() : searchSettings(ctx.indexEnvs.get(record.uuid));

  let after = before;
  let clears = 0;
  // the texts of the settings `after` holds as a task sent them (VERBATIM_SETTINGS), for the writer thread
  const texts: Partial<Record<SettingKey, string>> = {};
  const slices = new TimeSlices();
  for (const task of tasks) {
    if (task.kind.name === 'documentClear') clears++;
    if (task.kind.name !== 'settingsUpdate') continue;
    const members = textMembers(task.kind.settings);
    after = applyPatch(after, await slicedPatch(members, slices), normalizeExactWords);
    for (const [key, text] of members) {
      if (!(VERBATIM_SETTINGS as readonly string[]).includes(key)) continue;
      if (text === 'null') delete texts[key as SettingKey];
      else texts[key as SettingKey] = text;
    }
  }
  const env = ctx.indexEnvs.get(record.uuid);
  // a clear in the batch runs first: it empties the embedders' stores
  const problem = mergedSettingsProblem(before, after) ?? (clears > 0 ? undefined : heldVectorsProblem(env, before, after));
  if (problem !== undefined) {
    const error = new ApiError(problem.code, `Index \`${indexUid}\`: ${problem.message}`);
    return { tasks: tasks.map((task) => failed(task, error)) };
  }

  const store = new DocumentStore(env);
  const cleared = clears > 0 ? store.count() : 0;
  let firstClear = true;
  const finished: Task[] = tasks.map((task) => {
    if (task.kind.name !== 'documentClear' || task.details?.kind !== 'clearAll') return succeeded(task);
    // The first clear deletes everything, the next ones nothing; deletions keep their enqueued details.
    const deletedDocuments = firstClear ? cleared : 0;
    firstClear = false;
    return succeeded(task, { ...task.details, deletedDocuments });
  });
  const { changed, rebuild } = diffSettings(before, after, INDEX_UPDATERS);
  // the writer thread reads the settings left as they were itself, rather than be sent them
  const unchanged = existing === undefined ? [] : SETTING_KEYS.filter((key) => !changed.includes(key));

  const write = { kind: 'settings', settings: after, unchanged, texts, clear: clears > 0, rebuild, sharding: existing === undefined ? ctx.sharding : null } as const;
  const outcome = await writeKnownOutcome(ctx, indexUid, tasks, record.uuid, write, { tasks: finished, commit: () => ctx.indexes.put({ ...record, updatedAt: ctx.now }) });
  // searches and settings reads share the settings written instead of decoding them again
  if (outcome.indexWritten !== undefined) primeSearchSettings(ctx.indexEnvs.get(record.uuid), after);
  return outcome;
};
