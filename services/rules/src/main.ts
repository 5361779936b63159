import { telemetry } from './telemetry';
import { runMongoService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { buildIndexes, startRulesService } from './service';

runMongoService({ name: 'rules', telemetry, loadConfig, buildIndexes, start: startRulesService });
