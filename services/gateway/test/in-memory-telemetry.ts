/**
 * Import first in a test file that reads spans or metrics: starts the kit's
 * telemetry with spans kept in memory (through its redaction, as each one ends)
 * and metrics served as on /metrics (`scrapeMetrics`), and patches
 * http, https, express and mongodb as loaded in this file's module registry
 * (Node's require hooks never see jest's registry), the modules the stack then
 * gets. Call `stopTelemetry` in afterAll so later files of the worker get plain
 * modules.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { startTelemetry } from '@ratesmith/kit/telemetry';

export const spanExporter = new InMemorySpanExporter();
const telemetry = startTelemetry(
  'gateway-test',
  { ...process.env, OTEL_SDK_DISABLED: 'false' },
  { spanExporter },
);

for (const instrumentation of telemetry.instrumentations)
  for (const definition of instrumentation.getModuleDefinitions()) {
    if (!['http', 'https', 'express', 'mongodb'].includes(definition.name)) continue;
    const exports: unknown = jest.requireActual(definition.name);
    const version = ['http', 'https'].includes(definition.name)
      ? process.versions.node
      : (jest.requireActual(`${definition.name}/package.json`) as { version: string }).version;
    definition.moduleExports = exports;
    definition.moduleVersion = version;
    definition.patch?.(exports, version);
    for (const file of definition.files ?? []) {
      try {
        file.patch(jest.requireActual(file.name), version);
      } catch {
        // A file of another major version of the module: not in this install.
      }
    }
  }

export async function stopTelemetry(): Promise<void> {
  for (const instrumentation of telemetry.instrumentations) instrumentation.disable();
  await telemetry.shutdown();
}

/** The Prometheus text the process serves on /metrics, read over HTTP as a scrape reads it. */
export async function scrapeMetrics(): Promise<string> {
  const server = createServer((req, res) => telemetry.metricsHandler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    return await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}
