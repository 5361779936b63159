import { telemetry } from './telemetry';
import {
  closeServer,
  connectNats,
  createLogger,
  Lifecycle,
  runMain,
  startHealthServer,
} from '@ratesmith/kit';
import { loadConfig } from './config';
import { startRateEngine } from './service';

/**
 * The rate engine: health server first (liveness never depends on NATS),
 * then NATS, then the snapshot watch, the preview RPC and the carrier
 * callback. Readiness needs only the snapshots read once: when NATS goes
 * away later, the cache keeps answering and the replica stays ready.
 */
runMain('rate-engine', async () => {
  const config = loadConfig();
  const logger = createLogger('rate-engine', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, config.SHUTDOWN_TIMEOUT_MS);
  lifecycle.trapSignals();
  lifecycle.onStop('telemetry', () => telemetry.shutdown());
  if (config.CARRIER_HMAC_MODE === 'monitor')
    // Worded without "name=value": the log scrubber hides values of anything that looks like an hmac parameter.
    logger.warn(
      'carrier signature policy is monitor: callbacks are answered whatever their signature (only counted)',
    );

  const deps: { ready?: () => boolean } = {};
  const health = await startHealthServer({
    port: config.HEALTH_PORT,
    lifecycle,
    logger,
    metrics: telemetry.metricsHandler,
    checks: { snapshots: () => deps.ready?.() === true },
  });
  lifecycle.onStop('health server', () => closeServer(health));

  const nc = await connectNats({ url: config.NATS_URL, name: 'rate-engine', logger });
  lifecycle.onStop('nats', () => nc.drain());
  const engine = await startRateEngine({ config, logger, nc });
  lifecycle.onStop('rate engine', () => engine.stop());
  deps.ready = engine.ready;
  logger.info(
    { port: engine.port, url: `http://localhost:${engine.port}/carrier/rates/<rate key>` },
    'rate engine listening',
  );
});
