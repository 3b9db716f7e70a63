/**
 * Server-sent events both ways (chats.md §4.3): the `data:` payloads of a provider's stream, read
 * from its bytes as they arrive, and the events a chat completion answers with. A provider's
 * line is bounded, so a stream that never ends a line cannot grow this process without limit.
 */

/** Longest line a provider may send: far beyond a chunk of a few tokens. */
const MAX_LINE_BYTES = 4 * 1024 * 1024;

export class SseLineTooLong extends Error {}

/** The payload of each event of a stream (its `data:` lines joined), in order; comments and other fields skipped. */
export async function* sseData(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let pending: Buffer = Buffer.alloc(0);
  let data: string[] = [];
  for await (const chunk of body) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    let start = 0;
    for (let end = pending.indexOf(0x0a, start); end !== -1; end = pending.indexOf(0x0a, start)) {
      let line = pending.toString('utf8', start, end);
      start = end + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        // an empty line ends the event
        if (data.length > 0) yield data.join('\n');
        data = [];
      } else if (line.startsWith('data:')) {
        data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
      }
    }
    pending = pending.subarray(start);
    if (pending.length > MAX_LINE_BYTES) throw new SseLineTooLong(`a line of the stream is longer than ${MAX_LINE_BYTES} bytes`);
  }
  // an event the stream ended in the middle of is not dispatched, as the SSE standard says
}

/** The first event of a chat completion: how long a client waits before reconnecting. */
export const SSE_RETRY = 'retry: 10000\n\n';

/** The last event of a chat completion. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** One event carrying `value` as compact JSON. */
export function sseEvent(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}
