import { telemetry } from './telemetry';
import { runNatsService } from '@ratesmith/kit';
import { loadConfig } from './config';
import { startCatalogService } from './service';

// The catalog keeps no data of its own: it answers over NATS; auth runs its Shopify queries.
runNatsService({ name: 'catalog', telemetry, loadConfig, start: startCatalogService });
