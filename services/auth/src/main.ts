import { telemetry } from './telemetry';
import { runMongoService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { buildIndexes, startAuthService } from './service';

runMongoService({ name: 'auth', telemetry, loadConfig, buildIndexes, start: startAuthService });
