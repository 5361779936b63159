import { runMigration } from '@ratesmith/kit';
import { loadConfig } from './config';
import { buildIndexes } from './service';

runMigration({ name: 'auth', loadConfig, buildIndexes });
