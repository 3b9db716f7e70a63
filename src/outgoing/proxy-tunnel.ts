/**
 * A CONNECT tunnel through an HTTP proxy (RFC 9110 §9.3.6), as v1.50's clients open one: ureq's
 * `ConnectProxyConnector` for every URL, hyper-util's `Tunnel` for reqwest's `https` URLs. The
 * proxy's head is read up to 8 KiB (hyper-util's bound); anything but a 200 fails the tunnel in
 * ureq's words (`CONNECT proxy failed: …`), which v1.50's reqwest-based callers report as any
 * request that got no answer.
 */
import type { Socket } from 'node:net';

const MAX_HEAD_BYTES = 8 * 1024;

/** A proxy that gave no tunnel, in ureq's words (`CONNECT proxy failed: …`, a SOCKS proxy's `io: …`). */
export class ProxyFailed extends Error {
  override readonly name = 'ProxyFailed';
}

const connectFailed = (reason: string) => new ProxyFailed(`CONNECT proxy failed: ${reason}`);

/**
 * Asks the proxy behind `socket` (connecting or connected) for a tunnel to `authority`
 * (`host:port`); resolves with the socket once it leads there. `signal` destroys it at any point.
 */
export function openTunnel(socket: Socket, authority: string, authorization: string | undefined, signal: AbortSignal): Promise<Socket> {
  return new Promise((resolve, reject) => {
    let head = Buffer.alloc(0);
    const fail = (err: unknown) => {
      cleanup();
      socket.destroy();
      reject(err);
    };
    const onAbort = () => fail(signal.reason);
    const onError = (err: Error) => fail(err);
    const onEnd = () => fail(connectFailed('proxy server did not respond'));
    const onData = (chunk: Buffer) => {
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n');
      if (end === -1) {
        if (head.length > MAX_HEAD_BYTES) fail(connectFailed('proxy server responded with headers too long'));
        return;
      }
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(head.subarray(0, end).toString('latin1'))?.[1];
      if (status !== '200') return fail(connectFailed(status === undefined ? 'proxy server did not respond' : `proxy server responded ${status}/${status}`));
      // nothing comes past the head before the client speaks through the tunnel
      cleanup();
      resolve(socket);
    };
    function cleanup() {
      signal.removeEventListener('abort', onAbort);
      socket.off('error', onError).off('end', onEnd).off('close', onEnd).off('data', onData);
    }
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    socket.on('error', onError).on('end', onEnd).on('close', onEnd).on('data', onData);
    const lines = [`CONNECT ${authority} HTTP/1.1`, `Host: ${authority}`, 'Proxy-Connection: Keep-Alive'];
    if (authorization !== undefined) lines.push(`Proxy-Authorization: ${authorization}`);
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
