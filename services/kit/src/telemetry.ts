/**
 * OpenTelemetry start-up. A service's main.ts imports its telemetry module
 * first, before anything that loads http, express or mongodb, so the
 * instrumentations can patch those modules when they are first required.
 *
 * Configured from the standard variables: OTEL_SERVICE_NAME,
 * OTEL_EXPORTER_OTLP_ENDPOINT (traces are exported only when it is set),
 * OTEL_SDK_DISABLED. Metrics are always collected and served as Prometheus
 * text on the health server's /metrics.
 *
 * Every exported span goes through RedactingSpanExporter (redact.ts): secret
 * query values (OAuth code, hmac, state, tokens…) and the rate key of
 * `/carrier/rates/<key>` never leave the process, in attributes or names.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { ExpressInstrumentation } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { NodeSDK } from '@opentelemetry/sdk-node';
import {
  BatchSpanProcessor,
  NoopSpanProcessor,
  SimpleSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace';
import { RedactingSpanExporter } from './redact';
import { observeRuntime } from './runtime-metrics';

export interface Telemetry {
  /** Serves the Prometheus text format. */
  metricsHandler(req: IncomingMessage, res: ServerResponse): void;
  /**
   * The instrumentations, for tests: jest loads modules through its own
   * registry, which Node's require hooks never see, so a test patches the
   * modules it loaded with their module definitions (and disables them after).
   */
  readonly instrumentations: ReadonlyArray<
    HttpInstrumentation | ExpressInstrumentation | MongoDBInstrumentation
  >;
  shutdown(): Promise<void>;
}

export interface TelemetryOptions {
  /**
   * Tests: spans go to this exporter (e.g. `InMemorySpanExporter`) as each
   * one ends, redacted like any export, instead of OTLP.
   */
  spanExporter?: SpanExporter;
}

let started: Telemetry | undefined;

export function startTelemetry(
  serviceName: string,
  env: NodeJS.ProcessEnv = process.env,
  options: TelemetryOptions = {},
): Telemetry {
  // One SDK a process: tests build several services in one process.
  if (started) return started;
  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const disabled = env.OTEL_SDK_DISABLED === 'true';
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  // Redaction wraps the exporter rather than hooking the instrumentations: the
  // HTTP hooks run when a span starts, and would miss what is set later (the
  // name and http.route Express sets, status messages, exception events) and
  // the spans of every other instrumentation; the exporter sees finished spans.
  const spanProcessor = options.spanExporter
    ? new SimpleSpanProcessor({ exporter: new RedactingSpanExporter(options.spanExporter) })
    : endpoint
      ? new BatchSpanProcessor({ exporter: new RedactingSpanExporter(new OTLPTraceExporter()) })
      : new NoopSpanProcessor();
  const instrumentations = [
    new HttpInstrumentation({
      // Probes and scrapes are noise in traces.
      ignoreIncomingRequestHook: (req) => /^\/(healthz|readyz|metrics)/.test(req.url ?? ''),
    }),
    new ExpressInstrumentation(),
    new MongoDBInstrumentation(),
  ];
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    // Without an exporter spans are still made, so trace ids join log lines across services.
    spanProcessors: [spanProcessor],
    metricReaders: [prometheus],
    instrumentations,
  });
  if (!disabled) {
    sdk.start();
    observeRuntime();
  }
  started = {
    metricsHandler: (req, res) => prometheus.getMetricsRequestHandler(req, res),
    instrumentations,
    shutdown: async () => {
      if (!disabled) await sdk.shutdown();
    },
  };
  return started;
}
