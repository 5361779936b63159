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

export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
}
