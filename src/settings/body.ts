/**
 * A `PATCH /indexes/{uid}/settings` body, or a setting's on its sub-route (`PUT .../synonyms`),
 * read on another thread (a formatting thread, workers/format-thread.ts) when it is large: parsing, validating and canonicalising 9.7 MB of
 * synonyms held the thread answering requests ~3 s. The thread does what that one would do (the
 * bounds and errors of validation/json-body.ts, parse.ts's schema and checks, patch.ts's canonical
 * patch) and hands the patch back as the JSON text of each member, which is what a task record
 * stores (tasks/record-codecs.ts): the thread answering requests parses a member only when it reads
 * it (the request-time checks read the ranking rules and the embedders), never the synonyms.
 * An invalid body answers the same error, made again from its code, message and status.
 */
import { ApiError } from '../errors/api-error.js';
import type { ErrorCode } from '../errors/codes.js';
import { jsonTextObject, textMembers, type TextMember } from '../types/json-text-object.js';
import type { JsonObject } from '../types/task.js';
import { parseJsonBody } from '../validation/json-body.js';
import { parseSentBody } from '../validation/sent-values.js';
import type { SettingKey } from './catalogue.js';
import { parseSetting, parseSettings } from './parse.js';
import { canonicalPatch, singleSettingPatch, type SettingsPatch } from './patch.js';

/** Bodies from this size on are read on another thread; the round trip would cost a small one more than its parse. */
export const ELSEWHERE_BYTES = 256 * 1024;

/** What the other thread answers: the canonical patch's members as JSON texts, or the error the body gets. */
export type SettingsBodyAnswer = { readonly members: readonly TextMember[] } | { readonly error: { readonly code: ErrorCode; readonly message: string; readonly status: number } };

/** The patches read elsewhere, already canonical (`settingsPatchOf`). */
const CANONICAL = new WeakSet<object>();

/** A body to read elsewhere: a `PATCH /settings` one, or one setting's value (`setting`: its sub-route's PUT or PATCH). */
export interface SettingsBodyJob {
  readonly bytes: Uint8Array;
  readonly setting?: SettingKey;
}

/** On the other thread: the job's JSON body read into its canonical patch's member texts, or its error. */
export function readSettingsBody({ bytes, setting }: SettingsBodyJob): SettingsBodyAnswer {
  try {
    // an error message quotes a value as it was sent
    const value = parseJsonBody(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), (text) => parseSentBody(text, JSON.parse));
    const patch = setting === undefined ? canonicalPatch(parseSettings(value)) : singleSettingPatch(setting, parseSetting[setting](value));
    return { members: textMembers(patch as JsonObject) };
  } catch (err) {
    if (err instanceof ApiError) return { error: { code: err.code, message: err.message, status: err.status } };
    throw err;
  }
}

/**
 * Back on the thread answering requests: the body the other thread read, as its canonical patch
 * (`settingsPatchOf` knows it; its members parsed when read), or its error thrown.
 */
export function settingsBodyRead(answer: SettingsBodyAnswer): Record<string, unknown> {
  if ('error' in answer) throw new ApiError(answer.error.code, answer.error.message, answer.error.status);
  const patch = jsonTextObject(answer.members);
  CANONICAL.add(patch);
  return patch;
}

/** The canonical patch of a validated body, read here or elsewhere. */
export function settingsPatchOf(body: Readonly<Record<string, unknown>>): SettingsPatch {
  return CANONICAL.has(body) ? (body as SettingsPatch) : canonicalPatch(body);
}
