// Imported first by main.ts so instrumentation patches modules before they load.
import { startTelemetry } from '@ratesmith/kit/telemetry';

export const telemetry = startTelemetry('catalog');
