import { telemetry } from './telemetry';
import {
  closeServer,
  connectNats,
  createLogger,
  Lifecycle,
  natsReady,
  runMain,
  startHealthServer,
  type NatsConnection,
} from '@ratesmith/kit';
import { loadConfig } from './config';
import { startCatalogService } from './service';

/**
 * The catalog keeps no data of its own: config, logger, health server, NATS,
 * the service; shutdown in reverse.
 */
runMain('catalog', async () => {
  const config = loadConfig();
  const logger = createLogger('catalog', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.trapSignals();
  lifecycle.onStop('telemetry', () => telemetry.shutdown());

  const deps: { nc?: NatsConnection; serving?: boolean } = {};
  const health = await startHealthServer({
    port: config.HEALTH_PORT,
    lifecycle,
    logger,
    metrics: telemetry.metricsHandler,
    checks: { nats: () => !!deps.nc && natsReady(deps.nc), serving: () => deps.serving === true },
  });
  lifecycle.onStop('health server', () => closeServer(health));

  const connection = await connectNats({ url: config.NATS_URL, name: 'catalog', logger });
  deps.nc = connection;
  lifecycle.onStop('nats', () => connection.drain());

  const service = await startCatalogService({ config, logger, nc: connection });
  lifecycle.onStop('catalog service', () => service.stop());
  deps.serving = true;
  logger.info('catalog service ready');
});
