/**
 * What the workspace routes do (chats.md §2), each after the `chatCompletions` gate with its
 * route's action words: list, show and delete workspaces, read, patch and reset their settings.
 * Synchronous: a write is committed when the call returns. Errors and their two `chat_not_found`
 * wordings follow v1.50's `routes/chats/{mod,settings}.rs`.
 */
import { ApiError } from '../errors/api-error.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import { validateIndexUid } from '../indexes/uid.js';
import { requireChatCompletions } from './feature.js';
import type { ChatWorkspaceStore } from './workspace-store.js';
import {
  defaultWorkspaceSettings,
  maskedWorkspaceSettings,
  mergeWorkspaceSettings,
  type ChatWorkspacePatch,
  type ChatWorkspaceSettings,
} from './workspace-settings.js';

export interface WorkspaceDeps {
  chatWorkspaces: ChatWorkspaceStore;
  features: Pick<ExperimentalFeatures, 'require'>;
}

const SETTINGS_ROUTE = 'using the /chats/settings route';

// `GET|DELETE /chats/{uid}` word it one way, the settings routes (and completions) the other.
const chatNotFound = (name: string) => new ApiError('chat_not_found', `chat ${name} not found`);
export const chatSettingsNotFound = (name: string) => new ApiError('chat_not_found', `Chat \`${name}\` not found`);

/** `GET /chats`: every workspace name, in byte order. */
export function workspaceNames(deps: WorkspaceDeps): string[] {
  requireChatCompletions(deps.features, 'listing the chats');
  return deps.chatWorkspaces.names();
}

/** `GET /chats/{uid}`: the only chat route that checks the name, as an index uid. */
export function showWorkspace(deps: WorkspaceDeps, name: string): { uid: string } {
  requireChatCompletions(deps.features, 'displaying a chat');
  validateIndexUid(name);
  if (!deps.chatWorkspaces.has(name)) throw chatNotFound(name);
  return { uid: name };
}

/** `DELETE /chats/{uid}`: the workspace and its settings. */
export function deleteWorkspace(deps: WorkspaceDeps, name: string): void {
  requireChatCompletions(deps.features, 'deleting a chat');
  if (!deps.chatWorkspaces.delete(name)) throw chatNotFound(name);
}

/** `GET /chats/{uid}/settings`, the `apiKey` masked. */
export function workspaceSettings(deps: WorkspaceDeps, name: string): ChatWorkspaceSettings {
  requireChatCompletions(deps.features, SETTINGS_ROUTE);
  const settings = deps.chatWorkspaces.get(name);
  if (settings === undefined) throw chatSettingsNotFound(name);
  return maskedWorkspaceSettings(settings);
}

/** `PATCH /chats/{uid}/settings`: merged into the workspace's settings (an unknown name is created from the defaults), answered masked. */
export function updateWorkspaceSettings(deps: WorkspaceDeps, name: string, patch: ChatWorkspacePatch): ChatWorkspaceSettings {
  requireChatCompletions(deps.features, SETTINGS_ROUTE);
  const settings = mergeWorkspaceSettings(deps.chatWorkspaces.get(name) ?? defaultWorkspaceSettings(), patch);
  deps.chatWorkspaces.put(name, settings);
  return maskedWorkspaceSettings(settings);
}

/** `DELETE /chats/{uid}/settings`: the defaults replace the settings; the workspace stays. */
export function resetWorkspaceSettings(deps: WorkspaceDeps, name: string): ChatWorkspaceSettings {
  requireChatCompletions(deps.features, SETTINGS_ROUTE);
  if (!deps.chatWorkspaces.has(name)) throw chatSettingsNotFound(name);
  const settings = defaultWorkspaceSettings();
  deps.chatWorkspaces.put(name, settings);
  return settings;
}
