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
    redirectAuthorization: 'sameHost', proxyRules: 'reqwest',
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

const undecodable = (why: string): ChatError => ({ type: 'reqwest_error', code: null, message: `error decoding response body: ${why}`, param: null });

/**
 * What a provider's error answer says (a status of 400 or more, or a body that is no event
 * stream), read as v1.50 reads it: Mistral's flat `{message, type, param, code}`, every other
 * source's OpenAI `{error: {message, type, param, code}}`, strings all (`param` and `code` may be
 * null or absent). Another answer is a `reqwest_error`.
 */
export function providerError(body: Buffer, source: ChatWorkspaceSettings['source']): ChatError {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString('utf8'));
  } catch (err) {
    return undecodable((err as Error).message);
  }
  const object = (value: unknown) => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
  const fields = source === 'mistral' ? object(parsed) : object(object(parsed)?.error);
  if (fields === null) return undecodable(source === 'mistral' ? 'invalid type: expected struct MistralError' : 'missing field `error`');
  for (const name of ['message', 'type'] as const) {
    if (typeof fields[name] !== 'string') return undecodable(fields[name] === undefined ? `missing field \`${name}\`` : `invalid type for \`${name}\`: expected a string`);
  }
  for (const name of ['param', 'code'] as const) {
    if (fields[name] !== undefined && fields[name] !== null && typeof fields[name] !== 'string') return undecodable(`invalid type for \`${name}\`: expected a string`);
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return { type: fields.type as string, code: text(fields.code), message: fields.message as string, param: text(fields.param) };
}
