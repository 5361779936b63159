import { telemetry } from './telemetry';
import { runMongoService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { buildIndexes, startRulesService } from './service';

runMongoService({
  name: 'rules',
  telemetry,
  loadConfig,
  buildIndexes,
  // The heavy calls on a thread of their own (./lane.ts).
  start: (deps) => startRulesService({ ...deps, lane: true }),
});
