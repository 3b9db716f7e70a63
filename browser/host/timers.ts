/**
 * The browser's `node:timers`, for the one function the search side imports from it:
 * `setImmediate`, with which a long search gives the event loop a turn between two hits
 * (src/types/time-slices.ts). A MessageChannel message runs as the next task, with no delay
 * (setTimeout(0) waits 4 ms once nested).
 */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();

export function setImmediate(callback: () => void): void {
  waiting.push(callback);
  channel.port2.postMessage(null);
}
