/**
 * The server's close on SIGTERM or SIGINT: new connections are refused at once and the requests in
 * flight get SHUTDOWN_GRACE_MS to finish, then every connection is closed. Without the bound, a
 * client that asked for an answer written in pieces (a long search page, a 40 MB document) and
 * stopped reading it kept the process from exiting: a SIGTERM still waited after 60 s. A
 * connection kept alive after its last answer is closed as soon as it idles (Node closes only
 * those idle when the close begins). v1.50 does
 * not wait at all (it leaves SIGTERM to the system, and exits on SIGINT at once); Quarry lets the
 * requests it is answering finish, up to the 10 s `docker stop` gives before its SIGKILL.
 */
import type { FastifyInstance } from 'fastify';

export const SHUTDOWN_GRACE_MS = 10_000;

/** How often connections that became idle during the close are closed. */
const IDLE_CHECK_MS = 50;

export async function closeGracefully(app: FastifyInstance, graceMs = SHUTDOWN_GRACE_MS): Promise<void> {
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_CHECK_MS);
  const grace = setTimeout(() => app.server.closeAllConnections(), graceMs);
  idle.unref();
  grace.unref();
  try {
    await app.close();
  } finally {
    clearInterval(idle);
    clearTimeout(grace);
  }
}
