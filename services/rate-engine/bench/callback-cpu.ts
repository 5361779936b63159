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
import { benchRequest, benchSnapshot, inShadow } from './fixture';
import { median } from './http-speed';
import { carrierHandler } from '@ratesmith/rate-engine/carrier/server';
import { HotTier, Quoter } from '@ratesmith/rate-engine/engine';
import { createEngineMetrics } from '@ratesmith/rate-engine/metrics';
import { RecentSampler } from '@ratesmith/rate-engine/outcomes/recent';
import { OutcomeRecorder } from '@ratesmith/rate-engine/outcomes/recorder';
import { SHADOW_LIMITS } from '@ratesmith/rate-engine/outcomes/shadow';
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

/** µs of CPU a call, counting the work each call left for after its answer (setImmediate). */
async function cpuMicros(run: () => void, times: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) run();
  await new Promise((resolve) => setImmediate(resolve));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / times;
}

export interface CallbackCpu {
  /** µs of CPU a request, medians of alternating rounds. */
  engine: number;
  bare: number;
  /** The same shop in shadow: no quote answered, signed callbacks compared after (50 a second). */
  shadow: number;
}

export async function measureCallbackCpu(rounds = 7, times = 20_000): Promise<CallbackCpu> {
  const secret = 'bench-secret';
  const rateKey = randomBytes(16).toString('hex');
  const shop = 'bench.myshopify.com';
  const logger = createLogger('bench', 'silent');
  const metrics = createEngineMetrics(
    new MeterProvider({ readers: [new PrometheusExporter({ preventServerStart: true })] }).getMeter(
      'bench',
    ),
  );
  const handlerFor = (shadow: boolean) => {
    const store = new SnapshotStore({
      capacity: 10,
      source: () => Promise.resolve(undefined),
      fetchTimeoutMs: 1000,
      logger,
      metrics,
    });
    const snapshot = benchSnapshot(shop, 0, rateKey);
    store.apply(shadow ? inShadow(snapshot) : snapshot, Date.now());
    store.synced = true;
    return carrierHandler({
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
      shadow: new RecentSampler(shadow ? SHADOW_LIMITS : { perSecond: 0, shops: 0 }),
      metrics,
      logger,
      live: () => true,
      filterAnalytics: true,
    });
  };
  const handler = handlerFor(false);
  const inShadowHandler = handlerFor(true);
  const body = Buffer.from(JSON.stringify(benchRequest()));
  const headers = {
    'content-type': 'application/json',
    'content-length': String(body.length),
    'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
  };
  const url = `/carrier/rates/${rateKey}`;
  if (callOnce(handler, url, headers, body) !== 200) throw new Error('the callback did not quote');
  if (callOnce(inShadowHandler, url, headers, body) !== 200)
    throw new Error('the callback in shadow did not answer');
  const bare = bareHandler('x'.repeat(800));
  const engineRuns: number[] = [];
  const bareRuns: number[] = [];
  const shadowRuns: number[] = [];
  for (let i = 0; i < rounds; i++) {
    engineRuns.push(await cpuMicros(() => callOnce(handler, url, headers, body), times));
    bareRuns.push(await cpuMicros(() => callOnce(bare, url, headers, body), times));
    shadowRuns.push(await cpuMicros(() => callOnce(inShadowHandler, url, headers, body), times));
  }
  return { engine: median(engineRuns), bare: median(bareRuns), shadow: median(shadowRuns) };
}
