import { telemetry } from './telemetry';
import { runNatsService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { startRateEngine } from './service';

/**
 * The rate engine: health server first (liveness never depends on NATS),
 * then NATS, then the snapshot watch, the preview RPC and the carrier
 * callback; previews and large snapshots' decoding on the preview lane, a
 * thread of its own started with its first work (./preview/lane.ts).
 * Readiness is the engine's own: the snapshots read once. When NATS goes
 * away later, the cache keeps answering and the replica stays ready.
 */
runNatsService({
  name: 'rate-engine',
  telemetry,
  loadConfig,
  ownReadiness: true,
  announce: (config, logger) => {
    if (config.CARRIER_HMAC_MODE === 'monitor')
      // Worded without "name=value": the log scrubber hides values of anything that looks like an hmac parameter.
      logger.warn(
        'carrier signature policy is monitor: callbacks are answered whatever their signature (only counted)',
      );
  },
  start: async (deps) => {
    const engine = await startRateEngine({ ...deps, previewLane: true });
    deps.logger.info(
      { port: engine.port, url: `http://localhost:${engine.port}/carrier/rates/<rate key>` },
      'rate engine listening',
    );
    return engine;
  },
});
