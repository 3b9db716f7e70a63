/**
 * A chat workspace's settings (chats.md §3): the stored shape, its defaults, the PATCH merge
 * (value = set, `null` = reset to the default, absent = kept; the same inside `prompts`), the
 * provider checks run on the merged result, and the `apiKey` masking of responses. Follows
 * Meilisearch v1.50's `ChatCompletionSettings` (meilisearch-types `features.rs`) and
 * `routes/chats/settings.rs`.
 */
import { ApiError } from '../errors/api-error.js';
import { maskSecret } from '../types/settings.js';
import {
  DEFAULT_CHAT_SEARCH_DESCRIPTION_PROMPT,
  DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT,
  DEFAULT_CHAT_SEARCH_INDEX_UID_PARAM_PROMPT,
  DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT,
  DEFAULT_CHAT_SYSTEM_PROMPT,
} from './default-prompts.js';

/** The LLM providers of v1.50 (no `gemini`, which the JS client's type lists). */
export const CHAT_SOURCES = ['openAi', 'mistral', 'azureOpenAi', 'vLlm'] as const;
export type ChatSource = (typeof CHAT_SOURCES)[number];

export interface ChatPrompts {
  /** first message of every LLM call */
  system: string;
  /** description of the search tool */
  searchDescription: string;
  /** description of its `q` parameter */
  searchQParam: string;
  /** description of its `filter` parameter */
  searchFilterParam: string;
  /** description of its `index_uid` parameter */
  searchIndexUidParam: string;
}

/** Stored as is and answered in this key order (masked), every key present. */
export interface ChatWorkspaceSettings {
  source: ChatSource;
  /** `OpenAI-Organization` header */
  orgId: string | null;
  /** `OpenAI-Project` header */
  projectId: string | null;
  /** Azure's `api-version` query parameter */
  apiVersion: string | null;
  /** Azure's deployment path segment */
  deploymentId: string | null;
  /** not checked as a URL, as v1.50 */
  baseUrl: string | null;
  apiKey: string | null;
  prompts: ChatPrompts;
}

/** A PATCH body: absent keeps, `null` resets to the default, a value sets. */
export type ChatPromptsPatch = { [K in keyof ChatPrompts]?: string | null };
export type ChatWorkspacePatch = {
  [K in Exclude<keyof ChatWorkspaceSettings, 'prompts' | 'source'>]?: string | null;
} & { source?: ChatSource | null; prompts?: ChatPromptsPatch | null };

/** The fields besides `source` and `prompts`: strings or null, null by default. */
const OPTIONAL_FIELDS = ['orgId', 'projectId', 'apiVersion', 'deploymentId', 'baseUrl', 'apiKey'] as const;
/** The prompts, in their answered order. */
const PROMPT_FIELDS = ['system', 'searchDescription', 'searchQParam', 'searchFilterParam', 'searchIndexUidParam'] as const;

export function defaultChatPrompts(): ChatPrompts {
  return {
    system: DEFAULT_CHAT_SYSTEM_PROMPT,
    searchDescription: DEFAULT_CHAT_SEARCH_DESCRIPTION_PROMPT,
    searchQParam: DEFAULT_CHAT_SEARCH_Q_PARAM_PROMPT,
    searchFilterParam: DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT,
    searchIndexUidParam: DEFAULT_CHAT_SEARCH_INDEX_UID_PARAM_PROMPT,
  };
}

export function defaultWorkspaceSettings(): ChatWorkspaceSettings {
  return {
    source: 'openAi',
    orgId: null,
    projectId: null,
    apiVersion: null,
    deploymentId: null,
    baseUrl: null,
    apiKey: null,
    prompts: defaultChatPrompts(),
  };
}

/** One field's merge: absent keeps `current`, `null` resets to `fallback`. */
function merged<T>(change: T | null | undefined, current: T, fallback: T): T {
  if (change === undefined) return current;
  return change === null ? fallback : change;
}

function mergePrompts(current: ChatPrompts, patch: ChatPromptsPatch | null | undefined): ChatPrompts {
  if (patch === undefined) return current;
  const defaults = defaultChatPrompts();
  if (patch === null) return defaults;
  const prompts = { ...current };
  for (const field of PROMPT_FIELDS) prompts[field] = merged(patch[field], current[field], defaults[field]);
  return prompts;
}

/** `current` with `patch` applied, then checked (`checkWorkspaceSettings`); `current` is not changed. */
export function mergeWorkspaceSettings(current: ChatWorkspaceSettings, patch: ChatWorkspacePatch): ChatWorkspaceSettings {
  const next: ChatWorkspaceSettings = { ...current, source: merged(patch.source, current.source, 'openAi'), prompts: mergePrompts(current.prompts, patch.prompts) };
  for (const field of OPTIONAL_FIELDS) next[field] = merged(patch[field], current[field], null);
  checkWorkspaceSettings(next);
  return next;
}

/** v1.50's `validate`: the fields a provider cannot be reached without (400 `bad_request`). */
export function checkWorkspaceSettings(settings: ChatWorkspaceSettings): void {
  const { source, baseUrl, deploymentId, apiVersion } = settings;
  if (source === 'azureOpenAi' && (baseUrl === null || deploymentId === null || apiVersion === null)) {
    throw new ApiError('bad_request', 'azureOpenAi requires setting a valid `baseUrl`, `deploymentId`, and `apiVersion`');
  }
  if (source === 'vLlm' && baseUrl === null) throw new ApiError('bad_request', 'vLlm requires setting a valid `baseUrl`');
}

/** The settings as GET and PATCH answer them: the `apiKey` masked (dumps keep it in clear). */
export function maskedWorkspaceSettings(settings: ChatWorkspaceSettings): ChatWorkspaceSettings {
  return { ...settings, apiKey: settings.apiKey === null ? null : maskSecret(settings.apiKey), prompts: { ...settings.prompts } };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A dump's `chat-completions-settings/<name>.json`, read as v1.50's serde reads it: `source`
 * required, the optional fields null when absent, `prompts` all defaults when absent; inside it a
 * missing prompt is empty, but for `searchFilterParam` (absent from v1.15's settings), which
 * takes its default. Unknown keys are ignored; a wrong type throws (the import then fails).
 */
export function workspaceSettingsFromDump(value: unknown): ChatWorkspaceSettings {
  if (!isObject(value)) throw new Error('the settings are not a JSON object');
  if (!CHAT_SOURCES.includes(value.source as ChatSource)) throw new Error(`unknown \`source\`: ${JSON.stringify(value.source)}`);
  const settings = defaultWorkspaceSettings();
  settings.source = value.source as ChatSource;
  for (const field of OPTIONAL_FIELDS) {
    const given = value[field];
    if (given !== undefined && given !== null && typeof given !== 'string') throw new Error(`\`${field}\` is not a string`);
    settings[field] = given ?? null;
  }
  if (value.prompts !== undefined) {
    if (!isObject(value.prompts)) throw new Error('`prompts` is not a JSON object');
    for (const field of PROMPT_FIELDS) {
      const given = value.prompts[field];
      if (given !== undefined && typeof given !== 'string') throw new Error(`\`prompts.${field}\` is not a string`);
      settings.prompts[field] = given ?? (field === 'searchFilterParam' ? DEFAULT_CHAT_SEARCH_FILTER_PARAM_PROMPT : '');
    }
  }
  return settings;
}
