/**
 * `POST /chats/{workspace}/chat/completions` (chats.md §4): an OpenAI-compatible, streaming-only
 * chat completion, as v1.50's `routes/chats/chat_completions.rs`. The request's checks come first,
 * in v1.50's order (feature, `n`, `stream`, the workspace, the tools), and the search tool's
 * description; then the answer is a stream of server-sent events: the provider's chunks relayed
 * (but those with tool calls, even an empty list of them, and the first chunk without after some),
 * the LLM's `_meiliSearchInIndex` calls run here (search-tool.ts) when that first chunk without
 * tool calls comes, with the notifications the client opted into, the conversation sent again
 * after each round of searches (at most MAX_LLM_CALLS calls, and MAX_SEARCH_RESULT_CHARS of search
 * results), errors as error events, and `[DONE]` unless the client went away.
 */
import { randomUUID } from 'node:crypto';
import type { Caller } from '../auth/caller.js';
import { ApiError, internalError } from '../errors/api-error.js';
import type { ExperimentalFeatures } from '../features/experimental-features.js';
import type { OutgoingClient } from '../outgoing/client.js';
import { requireChatCompletions } from './feature.js';
import { callProvider, providerError, systemRole, type ChatError } from './provider.js';
import { runSearchTool, SEARCH_TOOL, searchToolDefinition, type ChatSearchContext } from './search-tool.js';
import { SSE_DONE, SSE_RETRY, sseData, sseEvent } from './sse.js';
import { TimeSlices } from '../types/time-slices.js';
import type { ChatWorkspaceSettings } from './workspace-settings.js';
import { chatSettingsNotFound } from './workspaces.js';

/** Calls to the provider per completion request (v1.50's loop bound). */
const MAX_LLM_CALLS = 20;

/**
 * Characters of search results one completion adds to its conversation (Quarry's bound). Each
 * result is the search's rendered hits, and the whole conversation goes to the provider again at
 * each call: an LLM asking 300 searches of 1,000 hits a round made it 527 MB by the tenth call and
 * the process ran out of memory (v1.50 has no bound). Searches past it are not run: the LLM is
 * told so in their tool message.
 */
export const MAX_SEARCH_RESULT_CHARS = 16 * 1024 * 1024;

/** The most of a provider's error answer that is read. */
const MAX_ERROR_BYTES = 1 << 20;

const PROGRESS = '_meiliSearchProgress';
const SOURCES = '_meiliSearchSources';
const APPEND = '_meiliAppendConversationMessage';
const NOTIFICATIONS = new Set([PROGRESS, SOURCES, APPEND]);

/** What `/metrics` counts of chats. */
export interface ChatMetrics {
  chatSearch(): void;
  degradedSearch(): void;
  chatUsage(workspace: string, model: string, usage: { prompt: number; completion: number; total: number }): void;
}

export interface ChatCompletionsContext extends ChatSearchContext {
  readonly features: Pick<ExperimentalFeatures, 'enabled' | 'require'>;
  readonly outgoing: OutgoingClient;
  readonly chatWorkspaces: { get(name: string): ChatWorkspaceSettings | undefined };
  readonly chatMetrics: ChatMetrics;
}

/** The request body, as far as this route reads it; the other OpenAI fields are passed on. */
export interface ChatCompletionRequest {
  readonly model: string;
  readonly messages: readonly Record<string, unknown>[];
  readonly stream?: boolean | null;
  readonly n?: number | null;
  readonly tools?: readonly { type: string; function: { name: string } }[] | null;
  readonly [field: string]: unknown;
}

/** OpenAI's request fields besides messages, model and tools: passed to the provider as sent; others are dropped. */
const PASSED_FIELDS = [
  'store', 'reasoning_effort', 'metadata', 'frequency_penalty', 'logit_bias', 'logprobs', 'top_logprobs', 'max_tokens',
  'max_completion_tokens', 'n', 'modalities', 'prediction', 'audio', 'presence_penalty', 'response_format', 'seed',
  'service_tier', 'stop', 'temperature', 'top_p', 'tool_choice', 'parallel_tool_calls', 'user', 'web_search_options',
  'function_call', 'functions',
];

const ROLES = ['developer', 'system', 'user', 'assistant', 'tool', 'function'];

const deserialize = (text: string, value: unknown) =>
  new ApiError('bad_request', `Json deserialize error: ${text} at line 1 column ${JSON.stringify(value)?.length ?? 1}`);

/** Reads the body as serde would read a `CreateChatCompletionRequest` (its messages, model, n, stream and tools). */
export function parseChatRequest(value: unknown): ChatCompletionRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw deserialize('invalid type: expected struct CreateChatCompletionRequest', value);
  const body = value as Record<string, unknown>;
  if (body.messages === undefined) throw deserialize('missing field `messages`', value);
  if (!Array.isArray(body.messages)) throw deserialize('invalid type: expected a sequence', value);
  for (const message of body.messages as unknown[]) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) throw deserialize('invalid type: expected internally tagged enum ChatCompletionRequestMessage', value);
    const role = (message as Record<string, unknown>).role;
    if (role === undefined) throw deserialize('missing field `role`', value);
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      throw deserialize(`unknown variant \`${String(role)}\`, expected one of ${ROLES.map((r) => `\`${r}\``).join(', ')}`, value);
    }
  }
  if (body.model === undefined) throw deserialize('missing field `model`', value);
  if (typeof body.model !== 'string') throw deserialize('invalid type: expected a string', value);
  if (body.n !== undefined && body.n !== null && (typeof body.n !== 'number' || !Number.isInteger(body.n) || body.n < 0 || body.n > 255)) throw deserialize('invalid value: expected u8', value);
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean') throw deserialize('invalid type: expected a boolean', value);
  if (body.tools !== undefined && body.tools !== null) {
    if (!Array.isArray(body.tools)) throw deserialize('invalid type: expected a sequence', value);
    for (const tool of body.tools as unknown[]) {
      const fn = (tool as { function?: { name?: unknown } } | null)?.function;
      if (typeof fn !== 'object' || fn === null || typeof fn.name !== 'string') throw deserialize('missing field `function`', value);
    }
  }
  return body as unknown as ChatCompletionRequest;
}

/**
 * Checks the request (chats.md §4.1, steps 1–5) and describes the search tool, each failure an
 * ApiError before anything streams, then answers the stream of events; `signal` ends it when the
 * client goes away.
 */
export async function chatCompletion(ctx: ChatCompletionsContext, caller: Caller, workspace: string, request: ChatCompletionRequest, signal: AbortSignal): Promise<AsyncGenerator<string>> {
  requireChatCompletions(ctx.features, 'using the /chats chat completions route');
  if (request.n !== undefined && request.n !== null && request.n !== 1) {
    throw new ApiError('unimplemented_multi_choice_chat_completions', `You tried to specify n = ${request.n} but only single choices are supported (n = 1).`);
  }
  if (request.stream !== true) throw new ApiError('unimplemented_non_streaming_chat_completions', 'Non-streamed chat completions is not implemented');
  const settings = ctx.chatWorkspaces.get(workspace);
  if (settings === undefined) throw chatSettingsNotFound(workspace);
  const notify = new Set<string>();
  for (const tool of request.tools ?? []) {
    const name = tool.function.name;
    if (name === SEARCH_TOOL) throw new ApiError('bad_request', `${SEARCH_TOOL} function is already defined.`);
    if (!NOTIFICATIONS.has(name)) throw new ApiError('unimplemented_external_function_calling', `${name}: External functions are not supported yet.`);
    notify.add(name);
  }
  const tool = await searchToolDefinition(ctx, caller, settings.prompts);
  return new Conversation(ctx, caller, workspace, settings, request, notify, signal).events(tool);
}

/** A tool call of the LLM, gathered from its deltas. */
interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** The provider chunk a notification takes its envelope from: the first without tool calls after some. */
type Envelope = Record<string, unknown>;

class Conversation {
  private readonly messages: Record<string, unknown>[];
  /** The LLM's tool calls gathered and not yet run, by index: kept from one provider call to the next, as v1.50's. */
  private readonly pending = new Map<number, ToolCall>();
  /** characters of search results in the conversation (MAX_SEARCH_RESULT_CHARS) */
  private resultChars = 0;
  private readonly slices = new TimeSlices();

  constructor(
    private readonly ctx: ChatCompletionsContext,
    private readonly caller: Caller,
    private readonly workspace: string,
    private readonly settings: ChatWorkspaceSettings,
    private readonly request: ChatCompletionRequest,
    private readonly notify: ReadonlySet<string>,
    private readonly signal: AbortSignal,
  ) {
    this.messages = [{ role: systemRole(settings, request.model), content: settings.prompts.system }, ...request.messages];
  }

  async *events(tool: Record<string, unknown>): AsyncGenerator<string> {
    yield SSE_RETRY;
    try {
      for (let call = 0; call < MAX_LLM_CALLS && !this.signal.aborted; call++) {
        const round = this.round(tool);
        let next: IteratorResult<string, 'again' | 'end'>;
        while (!(next = await round.next()).done) yield next.value;
        if (next.value === 'end') break;
      }
    } catch (err) {
      // the stream has started: a failure can only be told as an event
      const failure = err instanceof ApiError ? err : internalError(err);
      if (!this.signal.aborted) yield errorEvent({ type: 'response_error', code: String(failure.status), message: failure.message, param: null });
    }
    if (!this.signal.aborted) yield SSE_DONE;
  }

  /** The provider's request body for the conversation so far. */
  private body(tool: Record<string, unknown>): Record<string, unknown> {
    const body: Record<string, unknown> = {};
    for (const field of PASSED_FIELDS) if (this.request[field] !== undefined) body[field] = this.request[field];
    body.model = this.request.model;
    body.messages = this.messages;
    body.tools = [tool];
    body.stream = true;
    if (this.settings.source === 'openAi' || this.settings.source === 'azureOpenAi') body.stream_options = { include_usage: true };
    return body;
  }

  /** One call to the provider, relayed; answers whether the LLM asked for searches and waits for their results. */
  private async *round(tool: Record<string, unknown>): AsyncGenerator<string, 'again' | 'end'> {
    let response;
    try {
      response = await callProvider(this.ctx.outgoing, this.settings, this.body(tool), this.signal);
    } catch (err) {
      // the event source's transport error: no connection, a refused address, a timeout
      yield errorEvent({ type: 'transport_error', code: null, message: (err as Error).message, param: null });
      return 'end';
    }
    // an answer that is no event stream is read as the provider's error
    if (response.status >= 400 || !/^text\/event-stream/i.test(response.headers['content-type'] ?? '')) {
      yield errorEvent(providerError(await readBounded(response.body), this.settings.source));
      return 'end';
    }
    let finish: unknown = null;
    // a stream that closes before `[DONE]` (or the usage chunk) is reqwest-eventsource's StreamEnded
    let ended = false;
    let searching = false;
    let argumentChars = 0;
    try {
      for await (const data of sseData(response.body)) {
        if (data === '[DONE]') {
          ended = true;
          break;
        }
        const chunk = parseChunk(data);
        if (typeof chunk === 'string') {
          yield errorEvent({ type: 'json_deserialize_error', code: 'internal', message: chunk, param: null });
          return 'end';
        }
        this.countUsage(chunk.usage);
        const choices = Array.isArray(chunk.choices) ? (chunk.choices as Record<string, unknown>[]) : [];
        // the usage chunk, the last one: not relayed
        if (choices.length === 0) {
          ended = true;
          break;
        }
        const choice = choices[0]!;
        const delta = (choice.delta ?? {}) as Record<string, unknown>;
        // as v1.50: the last chunk's reason, whatever earlier ones said
        finish = choice.finish_reason ?? null;
        // a chunk with tool calls, even an empty list of them (v1.50 matches `Some(..)`), is not relayed
        if (Array.isArray(delta.tool_calls)) {
          argumentChars += gather(this.pending, delta.tool_calls as Record<string, unknown>[]);
          if (argumentChars > MAX_TOOL_ARGUMENTS_CHARS) throw new Error(`the tool calls of the provider's answer have more than ${MAX_TOOL_ARGUMENTS_CHARS} characters of arguments`);
          continue;
        }
        // the first chunk without tool calls after some is not relayed: their searches run instead
        if (this.pending.size > 0) {
          searching = true;
          yield* this.search(chunk);
          searching = false;
        } else yield sseEvent(relayed(chunk));
      }
    } catch (err) {
      // a search's own failure is not the stream's (events() tells it as a response error)
      if (searching) throw err;
      if (this.signal.aborted) return 'end';
      yield errorEvent({ type: 'transport_error', code: null, message: (err as Error).message, param: null });
      return 'end';
    }
    if (!ended) {
      if (!this.signal.aborted) yield errorEvent({ type: 'stream_ended', code: null, message: 'Stream ended', param: null });
      return 'end';
    }
    // calls still pending wait for the next call's first chunk without tool calls, as v1.50's
    return finish === 'tool_calls' ? 'again' : 'end';
  }

  /** Counts the tokens of a chunk's usage, when it has one. */
  private countUsage(usage: unknown): void {
    if (typeof usage !== 'object' || usage === null) return;
    const { prompt_tokens: prompt, completion_tokens: completion, total_tokens: total } = usage as Record<string, unknown>;
    const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);
    this.ctx.chatMetrics.chatUsage(this.workspace, this.request.model, { prompt: count(prompt), completion: count(completion), total: count(total) });
  }

  /**
   * Runs the LLM's pending searches in order, with their notifications, and adds the turn to the
   * conversation: its assistant message even when no call was a search (then with no tool call),
   * as v1.50's.
   */
  private async *search(envelope: Envelope): AsyncGenerator<string> {
    const calls = [...this.pending.values()].filter((call) => call.name === SEARCH_TOOL);
    this.pending.clear();
    const asked = (call: ToolCall) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } });
    this.messages.push({ role: 'assistant', tool_calls: calls.map(asked) });
    for (const call of calls) {
      if (this.notify.has(PROGRESS)) yield notification(envelope, PROGRESS, { call_id: call.id, function_name: SEARCH_TOOL, function_arguments: call.arguments });
      if (this.notify.has(APPEND)) yield notification(envelope, APPEND, { role: 'assistant', tool_calls: [asked(call)] });
      if (this.resultChars >= MAX_SEARCH_RESULT_CHARS) {
        const result = { role: 'tool', content: `This search was not run: the searches of this conversation already returned ${MAX_SEARCH_RESULT_CHARS} characters of results. Answer with them.`, tool_call_id: call.id };
        if (this.notify.has(APPEND)) yield notification(envelope, APPEND, result);
        this.messages.push(result);
        continue;
      }
      // a turn for the event loop between searches: an LLM may ask thousands in one answer
      await this.slices.pause();
      const outcome = await runSearchTool(this.ctx, this.caller, call.arguments, MAX_SEARCH_RESULT_CHARS - this.resultChars);
      this.resultChars += outcome.text.length;
      if (outcome.searched !== null) {
        this.ctx.chatMetrics.chatSearch();
        if (outcome.searched.degraded) this.ctx.chatMetrics.degradedSearch();
      }
      if (outcome.sources !== null && this.notify.has(SOURCES)) yield notification(envelope, SOURCES, { call_id: call.id, sources: outcome.sources });
      const result = { role: 'tool', content: outcome.text, tool_call_id: call.id };
      if (this.notify.has(APPEND)) yield notification(envelope, APPEND, result);
      this.messages.push(result);
      if (outcome.error !== null) yield errorEvent(outcome.error);
    }
  }
}

/** A provider chunk, or why it is not one: JSON whose `choices`, when present, is a list of objects. */
function parseChunk(data: string): Record<string, unknown> | string {
  let chunk: unknown;
  try {
    chunk = JSON.parse(data);
  } catch (err) {
    return (err as Error).message;
  }
  const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(chunk)) return 'invalid type: expected struct CreateChatCompletionStreamResponse';
  const { choices } = chunk as Record<string, unknown>;
  if (choices !== undefined && choices !== null && (!Array.isArray(choices) || !choices.every(isObject))) return 'invalid type: expected a sequence of ChatChoiceStream';
  return chunk as Record<string, unknown>;
}

/**
 * Characters of tool-call arguments one provider answer may stream (Quarry's bound; v1.50 has
 * none): 180 MB of them, in pieces under the event bound, took the process down (audit).
 */
const MAX_TOOL_ARGUMENTS_CHARS = 16 * 1024 * 1024;

/** Adds tool-call deltas to the calls gathered so far, by their index; answers the characters of arguments added. */
function gather(pending: Map<number, ToolCall>, deltas: readonly Record<string, unknown>[]): number {
  let added = 0;
  for (const delta of deltas) {
    if (typeof delta !== 'object' || delta === null) continue;
    const index = typeof delta.index === 'number' ? delta.index : 0;
    let call = pending.get(index);
    if (call === undefined) pending.set(index, (call = { id: '', name: '', arguments: '' }));
    if (typeof delta.id === 'string') call.id = delta.id;
    const fn = (delta.function ?? {}) as Record<string, unknown>;
    if (typeof fn.name === 'string') call.name = fn.name;
    if (typeof fn.arguments === 'string') {
      call.arguments += fn.arguments;
      added += fn.arguments.length;
    }
  }
  return added;
}

/** A provider chunk in OpenAI's chunk form, every key present. */
function relayed(chunk: Record<string, unknown>): Record<string, unknown> {
  const choices = (chunk.choices as Record<string, unknown>[]).map((choice) => {
    const delta = (choice.delta ?? {}) as Record<string, unknown>;
    return {
      index: choice.index ?? 0,
      delta: { content: delta.content ?? null, function_call: delta.function_call ?? null, tool_calls: delta.tool_calls ?? null, role: delta.role ?? null, refusal: delta.refusal ?? null },
      finish_reason: choice.finish_reason ?? null,
      logprobs: choice.logprobs ?? null,
    };
  });
  return {
    id: chunk.id ?? null,
    choices,
    created: chunk.created ?? null,
    model: chunk.model ?? null,
    service_tier: chunk.service_tier ?? null,
    system_fingerprint: chunk.system_fingerprint ?? null,
    object: 'chat.completion.chunk',
    usage: chunk.usage ?? null,
  };
}

/**
 * A notification tool call: the chunk whose coming ran the searches, its first choice
 * replaced by the call (as v1.50 does, so the chunk's other fields stay).
 */
function notification(envelope: Envelope, name: string, args: unknown): string {
  const call = { index: 0, id: randomUUID(), type: 'function', function: { name, arguments: JSON.stringify(args) } };
  const chunk = relayed(envelope);
  (chunk.choices as unknown[])[0] = {
    index: 0,
    delta: { content: null, function_call: null, tool_calls: [call], role: 'assistant', refusal: null },
    finish_reason: null,
    logprobs: null,
  };
  return sseEvent(chunk);
}

function errorEvent(error: ChatError): string {
  return sseEvent({ event_id: randomUUID(), type: 'error', error: { ...error, event_id: null } });
}

/** The start of a body, at most MAX_ERROR_BYTES of it. */
async function readBounded(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= MAX_ERROR_BYTES) break;
  }
  return Buffer.concat(chunks).subarray(0, MAX_ERROR_BYTES);
}
