import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Kvm } from '@nats-io/kv';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { freePort, startNatsServer } from '@ratesmith/devstack';
import { connectNats, createLogger } from '@ratesmith/kit';
import { benchRequest, benchSnapshot } from './fixture';
import { serviceMain, startNode, waitForPort, waitReady } from './processes';

/**
 * Benchmark 2: the carrier callback (the built service: HMAC check, rate-key
 * lookup, parse, quote, metrics) under autocannon, against a bare node:http
 * server that parses the same body and answers a same-size fixed response.
 */

export interface HttpRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
}

export interface HttpSpeed {
  engine: HttpRun;
  bare: HttpRun;
  ratio: number;
  engineAt1000: HttpRun;
  bareAt1000: HttpRun;
  responseBytes: number;
}

async function load(url: string, body: string, headers: Record<string, string>, rate?: number) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections: 10,
    duration: 8,
    ...(rate ? { overallRate: rate } : {}),
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/** The built engine with the bench shop, its callback URL, a signed body, and a way to stop it all. */
async function benchEngine(env: Record<string, string> = {}) {
  const secret = 'bench-secret';
  const rateKey = randomBytes(16).toString('hex');
  const nats = await startNatsServer();
  const logger = createLogger('bench', 'silent');
  const nc = await connectNats({ url: nats.url, name: 'bench', logger });
  const procs: { stop(): Promise<void> }[] = [];
  const stop = async () => {
    for (const p of procs) await p.stop();
    await nc.close();
    await nats.stop();
  };
  try {
    const kv = await new Kvm(nc).create(SNAPSHOT_BUCKET, { history: 1 });
    await kv.put(
      'bench.myshopify.com',
      JSON.stringify(benchSnapshot('bench.myshopify.com', 0, rateKey)),
    );
    const [healthPort, carrierPort] = [await freePort(), await freePort()];
    const engine = startNode(serviceMain('rate-engine'), [], {
      NATS_URL: nats.url,
      HEALTH_PORT: String(healthPort),
      CARRIER_PORT: String(carrierPort),
      SHOPIFY_API_SECRET: secret,
      CARRIER_HMAC_MODE: 'enforce',
      // One key takes every request here: with the per-key budget (6,000 a minute by
      // default) almost all of them would be cheap 429s instead of quotes.
      CARRIER_RATE_LIMIT: '0',
      ...env,
    });
    procs.push(engine);
    await waitReady(healthPort, engine);
    const body = JSON.stringify(benchRequest());
    const headers = {
      'x-shopify-hmac-sha256': createHmac('sha256', secret).update(body).digest('base64'),
    };
    const url = `http://127.0.0.1:${carrierPort}/carrier/rates/${rateKey}`;
    const sample = await fetch(url, { method: 'POST', headers, body });
    const response = await sample.text();
    if (sample.status !== 200 || !response.includes('RATESMITH_STANDARD'))
      throw new Error(`the engine did not quote: ${sample.status} ${response}`);
    return { url, body, headers, response, rateKey, procs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

export async function measureHttpSpeed(): Promise<HttpSpeed> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-bench-'));
  const engine = await benchEngine();
  try {
    const { url, body, headers, response, rateKey } = engine;
    const barePort = await freePort();
    const responseFile = join(dir, 'response.json');
    writeFileSync(responseFile, response);
    const bare = startNode(join(__dirname, 'bare-server.js'), [String(barePort), responseFile], {});
    engine.procs.push(bare);
    await waitForPort(barePort, 10_000, bare.child);
    const bareUrl = `http://127.0.0.1:${barePort}/carrier/rates/${rateKey}`;

    // Warm-up, then the measured runs, alternating so drift from other load hits both.
    await load(url, body, headers, 500);
    await load(bareUrl, body, headers, 500);
    const engineRun = await load(url, body, headers);
    const bareRun = await load(bareUrl, body, headers);
    const engineAt1000 = await load(url, body, headers, 1000);
    const bareAt1000 = await load(bareUrl, body, headers, 1000);
    // Every measured callback must have been a quote (200), or the figure measures something else.
    for (const [what, run] of [
      ['engine', engineRun],
      ['engine at 1,000 req/s', engineAt1000],
    ] as const)
      if (run.non2xx > 0) throw new Error(`${what}: ${run.non2xx} answers were not 200`);
    return {
      engine: engineRun,
      bare: bareRun,
      ratio: engineRun.requestsPerSecond / bareRun.requestsPerSecond,
      engineAt1000,
      bareAt1000,
      responseBytes: Buffer.byteLength(response),
    };
  } finally {
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface RecentLoad {
  /** p99 at 1,000 req/s of each round, sampling off and on, alternating. */
  off: HttpRun[];
  on: HttpRun[];
}

/**
 * Recent checkouts under load: the callback at 1,000 req/s with sampling off
 * (RECENT_SAMPLE_PER_SECOND=0) and on (the bench shop at the most a merchant
 * may set, 30 a minute), in alternating
 * rounds so drift from other load hits both. There is no rules service here:
 * the batches' sends fail at once and wait in the bounded backlog.
 */
export async function measureRecentLoad(rounds = 3): Promise<RecentLoad> {
  const off = await benchEngine({ RECENT_SAMPLE_PER_SECOND: '0' });
  const on = await benchEngine();
  try {
    const result: RecentLoad = { off: [], on: [] };
    await load(off.url, off.body, off.headers, 500);
    await load(on.url, on.body, on.headers, 500);
    for (let i = 0; i < rounds; i++) {
      result.off.push(await load(off.url, off.body, off.headers, 1000));
      result.on.push(await load(on.url, on.body, on.headers, 1000));
    }
    for (const run of [...result.off, ...result.on])
      if (run.non2xx > 0) throw new Error(`${run.non2xx} answers were not 200`);
    return result;
  } finally {
    await off.stop();
    await on.stop();
  }
}

export interface AnalyticsLoad {
  /** Each round's requests/s at full load, per-filter counting off and on, alternating. */
  off: HttpRun[];
  on: HttpRun[];
}

/**
 * Per-filter analytics under load (issue 17): measure 2a (the callback at full
 * load, 10 connections, 8 s) with FILTER_ANALYTICS=false and with the default
 * (on), in alternating rounds so drift from other load hits both. As for
 * recent checkouts there is no rules service: batches wait in the backlog.
 */
export async function measureAnalyticsLoad(rounds = 3): Promise<AnalyticsLoad> {
  const off = await benchEngine({ FILTER_ANALYTICS: 'false' });
  const on = await benchEngine();
  try {
    const result: AnalyticsLoad = { off: [], on: [] };
    await load(off.url, off.body, off.headers, 500);
    await load(on.url, on.body, on.headers, 500);
    for (let i = 0; i < rounds; i++) {
      result.off.push(await load(off.url, off.body, off.headers));
      result.on.push(await load(on.url, on.body, on.headers));
    }
    for (const run of [...result.off, ...result.on])
      if (run.non2xx > 0) throw new Error(`${run.non2xx} answers were not 200`);
    return result;
  } finally {
    await off.stop();
    await on.stop();
  }
}
