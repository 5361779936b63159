import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Lifecycle } from './lifecycle';
import type { Logger } from './logger';

export type ReadinessCheck = () => boolean | Promise<boolean>;

/**
 * /healthz (liveness) depends on nothing outside the process, so a NATS or
 * MongoDB outage never restarts every replica at once. /readyz runs the
 * service's checks and turns 503 as soon as shutdown starts. /metrics serves
 * Prometheus text.
 */
export async function startHealthServer(options: {
  port: number;
  lifecycle: Lifecycle;
  logger: Logger;
  checks: Record<string, ReadinessCheck>;
  metrics?: (req: IncomingMessage, res: ServerResponse) => void;
}): Promise<Server> {
  const { lifecycle, checks, metrics } = options;
  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify(body));
  };
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz' || path === '/livez') return send(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      void readiness(lifecycle, checks).then(({ ready, results }) =>
        send(res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: results }),
      );
      return;
    }
    if (path === '/metrics' && metrics) return metrics(req, res);
    send(res, 404, { status: 'not found' });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, () => resolve());
  });
  options.logger.info(
    { port: (server.address() as { port: number }).port },
    'health server listening',
  );
  return server;
}

async function readiness(lifecycle: Lifecycle, checks: Record<string, ReadinessCheck>) {
  const results: Record<string, boolean> = { accepting: lifecycle.accepting };
  for (const [name, check] of Object.entries(checks)) {
    try {
      results[name] = await check();
    } catch {
      results[name] = false;
    }
  }
  return { ready: Object.values(results).every(Boolean), results };
}

/**
 * Stops an HTTP server without resetting a request it was sent. With
 * `drainMs`, it first keeps the listener open, answering every request with
 * `Connection: close`, until no connection has arrived and no request has
 * been open for `QUIET_MS`, or `drainMs` has passed. Why: `server.close()`
 * destroys every connection whose request the process has not parsed yet
 * (Node counts those as idle), and the kernel resets the ones still waiting
 * to be accepted; a busy process can hold requests sent well before the
 * SIGTERM in either state.
 */
export async function closeServer(server: Server, drainMs = 0): Promise<void> {
  if (drainMs > 0 && server.listening) await drain(server, drainMs);
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}

const QUIET_MS = 250;

async function drain(server: Server, drainMs: number): Promise<void> {
  let open = 0;
  let lastActivity = Date.now();
  const onConnection = () => {
    lastActivity = Date.now();
  };
  const onRequest = (_req: IncomingMessage, res: ServerResponse) => {
    res.shouldKeepAlive = false;
    open++;
    lastActivity = Date.now();
    res.once('close', () => {
      open--;
      lastActivity = Date.now();
    });
  };
  server.on('connection', onConnection);
  server.prependListener('request', onRequest);
  const deadline = Date.now() + drainMs;
  try {
    for (;;) {
      // The check runs in setImmediate, after the event loop's poll phase, so
      // connections that arrived while the process was busy are counted first.
      await new Promise((resolve) => setTimeout(() => setImmediate(resolve), 50));
      const now = Date.now();
      if (now >= deadline || (open === 0 && now - lastActivity >= QUIET_MS)) return;
    }
  } finally {
    // The request listener stays: responses after the close also end their connection.
    server.off('connection', onConnection);
  }
}
