/**
 * The carrier callback's own CPU cost, in one process and without sockets:
 * the callback handler (src/carrier/server.ts, with the service's real store,
 * quoter, recorder and metrics on a Prometheus reader) against the bare
 * server's handler (read the body, JSON.parse it, answer), both fed the bench
 * cart through stand-in request and response objects. node:http's own work
 * and the socket writes, the same for both, are left out, so the difference
 * is what the callback adds, and it hardly depends on the machine's load.
 * `npm run bench -- callback`.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createLogger } from '@ratesmith/kit';
import { benchRequest, benchSnapshot } from './fixture';
import { median } from './http-speed';
import { carrierHandler } from '@ratesmith/rate-engine/carrier/server';
import { HotTier, Quoter } from '@ratesmith/rate-engine/engine';
import { createEngineMetrics } from '@ratesmith/rate-engine/metrics';
import { RecentSampler } from '@ratesmith/rate-engine/outcomes/recent';
import { OutcomeRecorder } from '@ratesmith/rate-engine/outcomes/recorder';
import { SnapshotStore } from '@ratesmith/rate-engine/snapshots/store';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** What a handler sees of one request, and what it answered. */
class FakeExchange extends EventEmitter {
  status = 0;
  constructor(
    readonly url: string,
    readonly headers: Record<string, string>,
  ) {
    super();
  }
  readonly method = 'POST';
  resume() {}
  destroy() {}
  setHeader() {}
  writeHead(status: number) {
    this.status = status;
  }
  end() {}
}

function callOnce(handler: Handler, url: string, headers: Record<string, string>, body: Buffer) {
  const exchange = new FakeExchange(url, headers);
  handler(exchange as unknown as IncomingMessage, exchange as unknown as ServerResponse);
  exchange.emit('data', body);
  exchange.emit('end');
  return exchange.status;
}

/** The bare server's handler (bench/bare-server.ts) on the same stand-ins. */
function bareHandler(response: string): Handler {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-length': response.length });
      res.end(response);
    });
  };
}

function cpuMicros(run: () => void, times: number): number {
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / times;
}

export interface CallbackCpu {
  /** µs of CPU a request, medians of alternating rounds. */
  engine: number;
  bare: number;
}

export function measureCallbackCpu(rounds = 7, times = 20_000): CallbackCpu {
  const secret = 'bench-secret';
  const rateKey = randomBytes(16).toString('hex');
  const shop = 'bench.myshopify.com';
  const logger = createLogger('bench', 'silent');
  const metrics = createEngineMetrics(
    new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true })] }).getMeter(
      'bench',
    ),
  );
  const store = new SnapshotStore({
    capacity: 10,
    source: () => Promise.resolve(undefined),
    fetchTimeoutMs: 1000,
    logger,
    metrics,
  });
  store.apply(benchSnapshot(shop, 0, rateKey), Date.now());
  store.synced = true;
  const handler = carrierHandler({
    store,
    secret,
    hmacMode: 'enforce',
    ratePerKey: 0,
    unsignedRatePerKey: 0,
    bodyLimit: 256 * 1024,
    maxItems: 1000,
    quoter: new Quoter(new HotTier({ size: 10 })),
    outcomes: new OutcomeRecorder({ sink: () => Promise.resolve(), logger, flushMs: 60_000 }),
    recent: new RecentSampler({ perSecond: 0, shops: 0 }),
    shadow: new RecentSampler({ perSecond: 0, shops: 0 }),
    metrics,
    logger,
    live: () => true,
    filterAnalytics: true,
  });
  const body = Buffer.from(JSON.stringify(benchRequest()));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
  };
  const url = `/carrier/rates/${rateKey}`;
  if (callOnce(handler, url, headers, body) !== 200) throw new Error('the callback did not quote');
  const bare = bareHandler('x'.repeat(800));
  const engineRuns: number[] = [];
  const bareRuns: number[] = [];
  for (let i = 0; i < rounds; i++) {
    engineRuns.push(cpuMicros(() => callOnce(handler, url, headers, body), times));
    bareRuns.push(cpuMicros(() => callOnce(bare, url, headers, body), times));
  }
  return { engine: median(engineRuns), bare: median(bareRuns) };
}
