/**
 * A loopback SOCKS proxy for outgoing-request tests: SOCKS4/4a and SOCKS5 (with username/password
 * when `credentials` are set), each CONNECT recorded with its target as sent (an address or a host
 * name), then carried to the loopback port it names.
 */
import net from 'node:net';

export interface SocksHit {
  version: 4 | 5;
  /** `host:port` as the client sent it */
  target: string;
  /** SOCKS5's `user:password`, when the client authenticated */
  credentials: string | undefined;
}

export interface MockSocksProxy {
  url: (scheme: string, userinfo?: string) => string;
  hits: SocksHit[];
  close: () => Promise<void>;
}

export async function startSocksProxy(credentials?: string): Promise<MockSocksProxy> {
  const hits: SocksHit[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('error', () => client.destroy());
    let buffered = Buffer.alloc(0);
    const need = (bytes: number): Promise<Buffer> =>
      new Promise((resolve, reject) => {
        const take = () => {
          if (buffered.length < bytes) return false;
          const data = buffered.subarray(0, bytes);
          buffered = buffered.subarray(bytes);
          resolve(data);
          return true;
        };
        if (take()) return;
        const onData = (chunk: Buffer) => {
          buffered = Buffer.concat([buffered, chunk]);
          if (take()) client.off('data', onData).off('close', reject);
        };
        client.on('data', onData).once('close', reject);
      });
    const until0 = async () => {
      const bytes: number[] = [];
      for (let byte = (await need(1))[0]!; byte !== 0; byte = (await need(1))[0]!) bytes.push(byte);
      return Buffer.from(bytes).toString();
    };
    const carry = (hit: SocksHit, port: number, ok: Buffer) => {
      hits.push(hit);
      const upstream = net.connect(port, '127.0.0.1', () => {
        client.write(ok);
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('error', () => [client, upstream].forEach((s) => s.destroy()));
    };
    void (async () => {
      const [version] = await need(1);
      if (version === 4) {
        const head = await need(7);
        const port = head.readUInt16BE(1);
        const ip = [...head.subarray(3, 7)].join('.');
        await until0(); // user id
        const host = ip.startsWith('0.0.0.') ? await until0() : ip;
        carry({ version: 4, target: `${host}:${port}`, credentials: undefined }, port, Buffer.from([0, 90, 0, 0, 0, 0, 0, 0]));
        return;
      }
      const methods = [...(await need((await need(1))[0]!))];
      let sent: string | undefined;
      if (credentials !== undefined && methods.includes(2)) {
        client.write(Buffer.from([5, 2]));
        await need(1);
        const user = (await need((await need(1))[0]!)).toString();
        const password = (await need((await need(1))[0]!)).toString();
        sent = `${user}:${password}`;
        client.write(Buffer.from([1, sent === credentials ? 0 : 1]));
        if (sent !== credentials) return void client.end();
      } else client.write(Buffer.from([5, credentials === undefined ? 0 : 0xff]));
      const [, , , kind] = await need(4);
      const host = kind === 1 ? [...(await need(4))].join('.') : kind === 3 ? (await need((await need(1))[0]!)).toString() : (await need(16)).toString('hex');
      const port = (await need(2)).readUInt16BE(0);
      carry({ version: 5, target: `${host}:${port}`, credentials: sent }, port, Buffer.from([5, 0, 0, 1, 127, 0, 0, 1, 0, 0]));
    })().catch(() => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    url: (scheme, userinfo) => `${scheme}://${userinfo === undefined ? '' : `${userinfo}@`}127.0.0.1:${port}`,
    hits,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
