/**
 * The LLM provider a chat workspace names (chats.md §4.2): where its chat completions are asked
 * for, with which headers, which role the workspace's system prompt takes, and how a provider's
 * error answer becomes a chat error event (its OpenAI or Mistral error shape). The request goes
 * through the outgoing client, so the IP policy holds for every provider call.
 */
import type { OutgoingClient, StreamedResponse } from '../outgoing/client.js';
import type { ChatWorkspaceSettings } from './workspace-settings.js';

/** How long a provider may take to accept the connection. */
const CONNECT_TIMEOUT_MS = 30_000;

/** The models that take their instructions as a `system` message rather than a `developer` one. */
const OLD_OPENAI_MODELS = ['gpt-3.5', 'gpt-4', 'gpt-4.1', 'gpt-4.5', 'gpt-4o', 'chatgpt-4o'];

/** The role the workspace's system prompt takes for `model`. */
export function systemRole(settings: ChatWorkspaceSettings, model: string): 'system' | 'developer' {
  if (settings.source !== 'openAi' && settings.source !== 'azureOpenAi') return 'system';
  return OLD_OPENAI_MODELS.some((prefix) => model === prefix || model.startsWith(`${prefix}-`)) ? 'system' : 'developer';
}

/** The URL of the provider's chat completions (string concatenation, as v1.50: a default base gives `…/v1//chat/completions`). */
export function completionsUrl(settings: ChatWorkspaceSettings): string {
  const { source, baseUrl, deploymentId, apiVersion } = settings;
  switch (source) {
    case 'azureOpenAi':
      return `${baseUrl ?? ''}/openai/deployments/${deploymentId ?? ''}/chat/completions?api-version=${encodeURIComponent(apiVersion ?? '')}`;
    case 'mistral':
      return `${baseUrl ?? 'https://api.mistral.ai/v1/'}/chat/completions`;
    case 'vLlm':
      return `${baseUrl ?? ''}/chat/completions`;
    default:
      return `${baseUrl ?? 'https://api.openai.com/v1/'}/chat/completions`;
  }
}

/** The headers of a provider call; without an `apiKey` the server's `OPENAI_API_KEY` (or none) is used. */
export function providerHeaders(settings: ChatWorkspaceSettings, env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const key = settings.apiKey ?? env.OPENAI_API_KEY ?? '';
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (settings.source === 'azureOpenAi') {
    headers['api-key'] = key;
    return headers;
  }
  headers.authorization = `Bearer ${key}`;
  if (settings.orgId !== null) headers['openai-organization'] = settings.orgId;
  if (settings.projectId !== null) headers['openai-project'] = settings.projectId;
  headers['openai-beta'] = 'assistants=v2';
  return headers;
}

/** Sends one chat completion request; the answer streams. */
export function callProvider(outgoing: OutgoingClient, settings: ChatWorkspaceSettings, body: Record<string, unknown>, signal: AbortSignal): Promise<StreamedResponse> {
  return outgoing.stream(completionsUrl(settings), {
    method: 'POST',
    headers: providerHeaders(settings),
    body: Buffer.from(JSON.stringify(body)),
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    signal,
  });
}

/** A chat error event's `error` (chats.md §4.3). */
export interface ChatError {
  readonly type: string;
  readonly code: string | null;
  readonly message: string;
  readonly param: string | null;
}

const textOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** What a provider's error answer (status ≥ 400) says, in the OpenAI shape `{error: {…}}` or Mistral's flat one. */
export function providerError(body: Buffer): ChatError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return { type: 'reqwest_error', code: null, message: `error decoding response body: ${(err as Error).message}`, param: null };
  }
  const object = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  const inner = typeof object.error === 'object' && object.error !== null ? (object.error as Record<string, unknown>) : object;
  if (typeof inner.message !== 'string') {
    return { type: 'reqwest_error', code: null, message: 'error decoding response body: missing field `message`', param: null };
  }
  const code = typeof inner.code === 'number' ? String(inner.code) : textOrNull(inner.code);
  return { type: textOrNull(inner.type) ?? 'invalid_request_error', code, message: inner.message, param: textOrNull(inner.param) };
}
