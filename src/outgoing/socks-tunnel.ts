/**
 * A tunnel through a SOCKS proxy, as v1.50's ureq opens one (its `socks-proxy` feature, through
 * the `socks` crate): SOCKS4 to an IPv4 address, SOCKS4a to a host name, SOCKS5 (RFC 1928) to
 * either, with username/password authentication (RFC 1929) when the proxy URL has a user. A
 * refusal reads as the crate's io error in ureq's words (`io: connection refused`); a proxy that
 * closes mid-answer as Rust's `read_exact` (`io: failed to fill whole buffer`).
 */
import { isIP, type Socket } from 'node:net';
import { parseAddress } from './cidr.js';
import { ProxyFailed } from './proxy-tunnel.js';

export interface SocksHandshake {
  version: 4 | 5;
  /** an IP address, or a host name the proxy resolves (SOCKS4a, SOCKS5h) */
  host: string;
  port: number;
  /** SOCKS5 only (SOCKS4 sends an empty user id, as the crate) */
  credentials: { user: string; password: string } | null;
}

const SOCKS5_REPLIES = ['', 'general SOCKS server failure', 'connection not allowed by ruleset', 'network unreachable', 'host unreachable', 'connection refused', 'TTL expired', 'command not supported', 'address kind not supported'];
const SOCKS4_REPLIES: Record<number, string> = {
  91: 'request rejected or failed',
  92: 'request rejected because SOCKS server cannot connect to idnetd on the client',
  93: 'request rejected because the client program and identd report different user-ids',
};

/** Asks the SOCKS proxy behind `socket` for a tunnel; resolves with the socket once it leads there. */
export async function openSocksTunnel(socket: Socket, handshake: SocksHandshake, signal: AbortSignal): Promise<Socket> {
  const read = reader(socket, signal);
  try {
    if (handshake.version === 4) await socks4(socket, read, handshake);
    else await socks5(socket, read, handshake);
    return socket;
  } catch (err) {
    socket.destroy();
    throw err;
  } finally {
    read.done();
  }
}

const failed = (reason: string) => new ProxyFailed(`io: ${reason}`);

async function socks4(socket: Socket, read: Reader, { host, port }: SocksHandshake): Promise<void> {
  if (isIP(host) === 6) throw failed('SOCKS4 does not support IPv6');
  const portBytes = [port >> 8, port & 0xff];
  // SOCKS4a: the address 0.0.0.1, then the host name after the (empty) user id
  const packet = isIP(host) === 4 ? [4, 1, ...portBytes, ...addressBytes(host), 0] : [4, 1, ...portBytes, 0, 0, 0, 1, 0, ...Buffer.from(host), 0];
  socket.write(Buffer.from(packet));
  const reply = await read(8);
  if (reply[0] !== 0) throw failed('invalid response version');
  if (reply[1] !== 90) throw failed(SOCKS4_REPLIES[reply[1]!] ?? 'invalid response code');
}

async function socks5(socket: Socket, read: Reader, { host, port, credentials }: SocksHandshake): Promise<void> {
  // offer the method asked for (2: username/password) and no authentication (0)
  socket.write(Buffer.from(credentials === null ? [5, 1, 0] : [5, 2, 2, 0]));
  const [version, method] = await read(2);
  if (version !== 5) throw failed('invalid response version');
  if (method === 0xff) throw failed('no acceptable auth methods');
  if (method !== 0 && !(method === 2 && credentials !== null)) throw failed('unknown auth method');
  if (method === 2) {
    const [user, password] = [Buffer.from(credentials!.user), Buffer.from(credentials!.password)];
    if (user.length < 1 || user.length > 255) throw failed('invalid username');
    if (password.length < 1 || password.length > 255) throw failed('invalid password');
    socket.write(Buffer.concat([Buffer.from([1, user.length]), user, Buffer.from([password.length]), password]));
    const [authVersion, status] = await read(2);
    if (authVersion !== 1) throw failed('invalid response version');
    if (status !== 0) throw failed('password authentication failed');
  }
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), address(host), Buffer.from([port >> 8, port & 0xff])]));
  const [replyVersion, reply, reserved, kind] = await read(4);
  if (replyVersion !== 5) throw failed('invalid response version');
  if (reply !== 0) throw failed(SOCKS5_REPLIES[reply!] ?? 'unknown error');
  if (reserved !== 0) throw failed('invalid reserved byte');
  // the address the proxy bound, not needed
  if (kind === 1) await read(4 + 2);
  else if (kind === 4) await read(16 + 2);
  else if (kind === 3) await read((await read(1))[0]! + 2);
  else throw failed('unsupported address type');
}

/** SOCKS5's address of a target: IPv4 (1), a domain name (3) or IPv6 (4). */
function address(host: string): Buffer {
  if (isIP(host) !== 0) return Buffer.from([isIP(host) === 4 ? 1 : 4, ...addressBytes(host)]);
  const name = Buffer.from(host);
  if (name.length > 255) throw failed('domain name too long');
  return Buffer.concat([Buffer.from([3, name.length]), name]);
}

/** An IP address's bytes, network order. */
function addressBytes(ip: string): number[] {
  const { family, value } = parseAddress(ip)!;
  const length = family === 4 ? 4 : 16;
  return Array.from({ length }, (_, i) => Number((value >> BigInt(8 * (length - 1 - i))) & 0xffn));
}

type Reader = ((bytes: number) => Promise<Buffer>) & { done: () => void };

/** Exactly `bytes` bytes of the proxy's answer at a time; the socket's end or error, or `signal`, fails the read. */
function reader(socket: Socket, signal: AbortSignal): Reader {
  let buffered = Buffer.alloc(0);
  let waiting: { bytes: number; resolve: (data: Buffer) => void; reject: (err: unknown) => void } | null = null;
  let failure: unknown = null;
  const settle = () => {
    if (waiting === null) return;
    const { bytes, resolve, reject } = waiting;
    if (buffered.length >= bytes) {
      waiting = null;
      const data = buffered.subarray(0, bytes);
      buffered = buffered.subarray(bytes);
      resolve(data);
    } else if (failure !== null) {
      waiting = null;
      reject(failure);
    }
  };
  const fail = (err: unknown) => {
    failure ??= err;
    settle();
  };
  const onData = (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    settle();
  };
  const onEnd = () => fail(failed('failed to fill whole buffer'));
  const onAbort = () => fail(signal.reason);
  socket.on('data', onData).on('error', fail).on('end', onEnd).on('close', onEnd);
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) onAbort();
  const read = (bytes: number) =>
    new Promise<Buffer>((resolve, reject) => {
      waiting = { bytes, resolve, reject };
      settle();
    });
  return Object.assign(read, {
    done: () => {
      socket.off('data', onData).off('error', fail).off('end', onEnd).off('close', onEnd);
      signal.removeEventListener('abort', onAbort);
    },
  });
}
