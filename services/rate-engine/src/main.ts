import { telemetry } from './telemetry';
import { runNatsService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { startPreviewLane } from './preview/lane';
import { startRateEngine } from './service';

/**
 * The rate engine: health server first (liveness never depends on NATS),
 * then NATS, then the snapshot watch and the carrier callback, then the
 * preview lane (previews on a thread of their own, ./preview/lane.ts). Readiness is the engine's own: the snapshots read once. When
 * NATS goes away later, the cache keeps answering and the replica stays ready.
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
    const engine = await startRateEngine({ ...deps, servePreviews: false });
    deps.logger.info(
      { port: engine.port, url: `http://localhost:${engine.port}/carrier/rates/<rate key>` },
      'rate engine listening',
    );
    // Previews on a thread of their own, at the lowest priority: never on checkout's event loop.
    const lane = startPreviewLane(deps.logger);
    await lane.ready;
    return {
      ready: engine.ready,
      stop: async () => {
        await lane.stop();
        await engine.stop();
      },
    };
  },
});
