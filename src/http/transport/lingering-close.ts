/**
 * Lingering close. When the server closes a connection whose request it has not read whole (the
 * client asked `Connection: close` and sent a body the route ignores or refuses early; a request
 * Node's parser refused), closing the socket over unread bytes makes the kernel reset the
 * connection, and the reset can destroy the answer before the client reads it. So the sending
 * side is shut down after the answer (FIN), what the client still sends is read and dropped
 * (the HTTP parser goes on reading and Node drops an unread request's body) until the client
 * closes its side, for at most LINGER_MS, and only then is the socket closed. A shutdown does not
 * wait for lingering sockets: it closes them, and closes at once from then on.
 */
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';

export const LINGER_MS = 2_000;

/** Closes `socket` once the client has closed its side or LINGER_MS have passed; `lingering` holds it meanwhile. */
function linger(socket: Socket, lingering: Set<Socket>): void {
  if (lingering.has(socket) || socket.destroyed) return;
  lingering.add(socket);
  // left whenever the socket closes, also when it fails before its answer is written
  socket.once('close', () => lingering.delete(socket));
  const close = () => socket.destroy();
  const wait = () => {
    if (socket.readableEnded || socket.destroyed) return close();
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
  if (socket.writable) socket.end();
  if (socket.writableFinished) wait();
  else socket.once('finish', wait);
}

/**
 * Every connection of `app` lingers where Node would close it after a last answer
 * (`destroySoon`, which the answer to a request Node's parser refused calls too).
 */
export function lingerOnClose(app: FastifyInstance): void {
  const lingering = new Set<Socket>();
  let closing = false;
  app.server.on('connection', (socket: Socket) => {
    const destroySoon = socket.destroySoon.bind(socket);
    socket.destroySoon = () => (closing ? destroySoon() : linger(socket, lingering));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of lingering) socket.destroy();
  });
}
