import { telemetry } from './telemetry';
import type { Server } from 'node:http';
import { authV1, catalogV1, rateEngineV1, rulesV1 } from '@ratesmith/contracts';
import {
  closeServer,
  connectNats,
  createLogger,
  Lifecycle,
  natsReady,
  RpcClient,
  runMain,
  startHealthServer,
  type NatsConnection,
} from '@ratesmith/kit';
import { createGateway } from './app';
import { loadConfig } from './config';

runMain('gateway', async () => {
  const config = loadConfig();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.trapSignals();
  lifecycle.onStop('telemetry', () => telemetry.shutdown());
  if (config.DEMO_MODE)
    logger.warn('DEMO MODE: demo session tokens are handed out at /demo/session-token');

  // Filled in once connected; readiness reads it.
  const deps: { nc?: NatsConnection; serving?: boolean } = {};
  const health = await startHealthServer({
    port: config.HEALTH_PORT,
    lifecycle,
    logger,
    metrics: telemetry.metricsHandler,
    checks: { nats: () => !!deps.nc && natsReady(deps.nc), serving: () => deps.serving === true },
  });
  lifecycle.onStop('health server', () => closeServer(health));

  const connection = await connectNats({ url: config.NATS_URL, name: 'gateway', logger });
  deps.nc = connection;
  lifecycle.onStop('nats', () => connection.drain());

  const clientOptions = {
    timeoutMs: config.NATS_REQUEST_TIMEOUT_MS,
    subjectPrefix: config.NATS_SUBJECT_PREFIX,
  };
  const app = createGateway({
    config,
    logger,
    rules: new RpcClient(connection, rulesV1.RulesService, {
      ...clientOptions,
      displayName: 'rules',
    }),
    auth: new RpcClient(connection, authV1.AuthService, { ...clientOptions, displayName: 'auth' }),
    catalog: new RpcClient(connection, catalogV1.CatalogService, {
      ...clientOptions,
      displayName: 'catalog',
    }),
    rateEngine: new RpcClient(connection, rateEngineV1.RateEngineService, {
      ...clientOptions,
      displayName: 'rate engine',
    }),
  });
  const server: Server = await new Promise((resolve, reject) => {
    // Demo mode hands out session tokens: it listens on loopback only.
    const s = config.DEMO_MODE
      ? app.listen(config.PORT, '127.0.0.1', () => resolve(s))
      : app.listen(config.PORT, () => resolve(s));
    s.once('error', reject);
  });
  // In-flight requests finish; keep-alive sockets are closed once idle.
  server.headersTimeout = 10_000;
  server.requestTimeout = 15_000;
  lifecycle.onStop('http server', () => closeServer(server));
  deps.serving = true;
  logger.info({ port: config.PORT, url: config.APP_URL }, 'gateway listening');
});
