import { createServer, type Server } from 'node:http';
import { closeServer, LANE_START_WAIT_MS, type Logger, type NatsConnection } from '@ratesmith/kit';
import { createGateway } from './app';
import { gatewayClients } from './clients';
import type { GatewayConfig } from './config';
import { startApiLane } from './lane/proxy';

/** The gateway on an open NATS connection: the RPC clients, the Express app, the HTTP server. */
export async function startGateway(deps: {
  config: GatewayConfig;
  logger: Logger;
  nc: NatsConnection;
  /**
   * The heavy calls on the gateway's lane, a thread of lower priority
   * (./lane/proxy.ts): main.ts says true; in-process stacks (tests) answer
   * everything on this thread.
   */
  lane?: boolean;
}): Promise<{ stop(): Promise<void> }> {
  const { config, logger, nc } = deps;
  const lane = deps.lane ? startApiLane({ logger }) : undefined;
  // Ready with its lane (or without it, after LANE_START_WAIT_MS: then this thread does its work).
  if (lane && !(await lane.whenReady(LANE_START_WAIT_MS)))
    logger.warn('api lane not ready: its calls are answered here until it is');
  const app = createGateway({ config, logger, ...gatewayClients(nc, config), lane: lane?.proxy });
  // Our own server, not Express 5's app.listen: that calls its callback on a
  // listen error too, so a gateway whose port is taken would report ready.
  const server: Server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Demo mode hands out session tokens: it listens on loopback only.
    if (config.DEMO_MODE) server.listen(config.PORT, '127.0.0.1', resolve);
    else server.listen(config.PORT, resolve);
  });
  // In-flight requests finish; keep-alive sockets are closed once idle.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  logger.info({ port: config.PORT, url: config.APP_URL }, 'gateway listening');
  return {
    stop: async () => {
      await closeServer(server, config.SHUTDOWN_DRAIN_MS);
      await lane?.stop();
    },
  };
}
