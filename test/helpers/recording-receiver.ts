/**
 * A loopback HTTP receiver for client tests: each request is read whole and handed, with its
 * response, to the test's callback.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';

export interface Hit {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** Listens on 127.0.0.1 on a free port; `close` ends open connections too. */
export async function startRecordingReceiver(onHit: (hit: Hit, res: ServerResponse) => void): Promise<{ port: number; close: () => Promise<void> }> {
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => onHit({ method: req.method!, path: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString() }, res));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  return {
    port: (receiver.address() as { port: number }).port,
    close: async () => {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    },
  };
}
