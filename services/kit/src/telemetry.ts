/**
 * OpenTelemetry start-up. A service's main.ts imports its telemetry module
 * first, before anything that loads http, express or mongodb, so the
 * instrumentations can patch those modules when they are first required.
 *
 * Configured from the standard variables: OTEL_SERVICE_NAME,
 * OTEL_EXPORTER_OTLP_ENDPOINT (traces are exported only when it is set),
 * OTEL_SDK_DISABLED. Metrics are always collected and served as Prometheus
 * text on the health server's /metrics.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, NoopSpanProcessor } from '@opentelemetry/sdk-trace';

export interface Telemetry {
  /** Serves the Prometheus text format. */
  metricsHandler(req: IncomingMessage, res: ServerResponse): void;
  shutdown(): Promise<void>;
}

let started: Telemetry | undefined;

export function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
): Telemetry {
  // One SDK a process: tests build several services in one process.
  if (started) return started;
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const disabled = env.OTEL_SDK_DISABLED === 'true';
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    // Without an exporter spans are still made, so trace ids join log lines across services.
    spanProcessors: [
      endpoint
        ? new BatchSpanProcessor({ exporter: new OTLPTraceExporter() })
        : new NoopSpanProcessor(),
    ],
    metricReaders: [prometheus],
    instrumentations: [
      new HttpInstrumentation({
        // Probes and scrapes are noise in traces.
        ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? ''),
      }),
      new ExpressInstrumentation(),
      new MongoDBInstrumentation(),
    ],
  });
  if (!disabled) sdk.start();
  started = {
    metricsHandler: (req, res) => prometheus.getMetricsRequestHandler(req, res),
    shutdown: async () => {
      if (!disabled) await sdk.shutdown();
    },
  };
  return started;
}
