import { telemetry } from './telemetry';
import { runNatsService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { startPreviewLane } from './preview/lane';
import { startRateEngine } from './service';

/**
 * The rate engine: health server first (liveness never depends on NATS),
 * then NATS, then the preview lane (previews and large snapshots' decoding
 * on a thread of their own, ./preview/lane.ts), the snapshot watch and the
 * carrier callback. Readiness is the engine's own: the snapshots read once. When
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
    // Previews and the decoding of large snapshots on a thread of their own, at the
    // lowest priority: never on checkout's event loop.
    const lane = startPreviewLane(deps.logger);
    await lane.ready;
    const engine = await startRateEngine({
      ...deps,
      servePreviews: false,
      decodeLarge: lane.decode,
    });
    deps.logger.info(
      { port: engine.port, url: `http://localhost:${engine.port}/carrier/rates/<rate key>` },
      'rate engine listening',
    );
    return {
      ready: engine.ready,
      stop: async () => {
        await lane.stop();
        await engine.stop();
      },
    };
  },
});
