/**
 * `POST /chats/{workspace}/chat/completions` (chats.md §4): the body read as an OpenAI chat
 * completion request, then the chat service (src/chats/completions.ts), whose events are sent as
 * server-sent events while they come. The client going away stops the conversation.
 */
import { Readable } from 'node:stream';
import { chatCompletion, parseChatRequest, type ChatCompletionRequest } from '../../chats/completions.js';
import { metricsRecorder } from '../request-metrics.js';
import { defineRoute, httpOnly } from '../route.js';

export const chatCompletionRoutes = [
  defineRoute<undefined, ChatCompletionRequest>({
    route: 'POST /chats/:workspace/chat/completions',
    body: parseChatRequest,
    compress: false,
    handler: async (ctx, deps) => {
      const { reply } = httpOnly(ctx);
      const gone = new AbortController();
      // listened to before the first await: a client gone while the search tool is described ends it too
      reply.raw.once('close', () => {
        if (!reply.raw.writableFinished) gone.abort();
      });
      const events = await chatCompletion(
        { ...deps, indexUids: () => deps.indexes.list().map((record) => record.uid), chatMetrics: metricsRecorder(deps) },
        ctx.caller,
        ctx.params.workspace!,
        ctx.body,
        gone.signal,
      );
      reply.header('cache-control', 'no-cache');
      reply.header('x-accel-buffering', 'no');
      reply.type('text/event-stream');
      return Readable.from(events, { objectMode: false });
    },
  }),
];
