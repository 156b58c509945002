import type { Server } from "node:http";

/**
 * Keep-alive connections stay open 65 s idle (Node's default is 5 s). A client
 * or proxy that reuses a connection just as the server closes it gets a reset
 * ("other side closed") and a POST is not retried: load balancers keep idle
 * connections 60 s, so the server must outlast them. headersTimeout must be
 * longer still, or Node cuts a reused connection's next request short.
 */
export function applyServerTimeouts(server: Server): Server {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return server;
}
