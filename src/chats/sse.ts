/**
 * Server-sent events both ways (chats.md §4.3): the `data:` payloads of a provider's stream, read
 * from its bytes as they arrive, and the events a chat completion answers with. A provider's
 * lines and events are bounded, so a stream that never ends one cannot grow this process without
 * limit.
 */

/** Longest event (or line) a provider may send: far beyond a chunk of a few tokens. */
const MAX_EVENT_BYTES = 4 * 1024 * 1024;

export class SseEventTooLong extends Error {}

const tooLong = () => new SseEventTooLong(`an event of the stream is longer than ${MAX_EVENT_BYTES} bytes`);

/**
 * The payload of each event of a stream (its `data:` lines joined), in order; comments and other
 * fields skipped. Bytes without a newline wait in a list and are joined once a newline comes, so
 * a long line costs one copy, not one per chunk.
 */
export async function* sseData(body: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let carried: Buffer[] = [];
  let carriedBytes = 0;
  let data: string[] = [];
  let dataBytes = 0;
  for await (const chunk of body) {
    if (chunk.indexOf(0x0a) === -1) {
      carried.push(chunk);
      carriedBytes += chunk.length;
      if (carriedBytes > MAX_EVENT_BYTES) throw tooLong();
      continue;
    }
    const pending = carried.length === 0 ? chunk : Buffer.concat([...carried, chunk]);
    let start = 0;
    for (let end = pending.indexOf(0x0a, carriedBytes); end !== -1; end = pending.indexOf(0x0a, start)) {
      let line = pending.toString('utf8', start, end);
      start = end + 1;
      if (line.endsWith('\r')) line = line.slice(0, -1);
      if (line === '') {
        // an empty line ends the event
        if (data.length > 0) yield data.join('\n');
        data = [];
        dataBytes = 0;
      } else if (line.startsWith('data:')) {
        const value = line.slice(line.startsWith('data: ') ? 6 : 5);
        dataBytes += value.length;
        if (dataBytes > MAX_EVENT_BYTES) throw tooLong();
        data.push(value);
      }
    }
    const rest = pending.subarray(start);
    carried = rest.length === 0 ? [] : [rest];
    carriedBytes = rest.length;
    if (carriedBytes > MAX_EVENT_BYTES) throw tooLong();
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
