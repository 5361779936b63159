import { telemetry } from './telemetry';
import { runNatsService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { startGateway } from './service';

runNatsService({
  name: 'gateway',
  telemetry,
  loadConfig,
  announce: (config, logger) => {
    if (config.DEMO_MODE)
      logger.warn('DEMO MODE: demo session tokens are handed out at /demo/session-token');
  },
  // The heavy calls on a thread of their own (./lane/proxy.ts).
  start: (deps) => startGateway({ ...deps, lane: true }),
});
