import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Kvm } from '@nats-io/kv';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import { freePort, startNatsServer } from '@ratesmith/devstack';
import { connectNats, createLogger } from '@ratesmith/kit';
import { benchRequest, benchSnapshot, inShadow } from './fixture';
import { serviceMain, startNode, waitForPort, waitReady } from './processes';

/**
 * Benchmark 2: the carrier callback (the built service: HMAC check, rate-key
 * lookup, parse, quote, metrics) under autocannon, against a bare node:http
 * server that parses the same body and answers a same-size fixed response.
 *
 * The machine is shared, so one pair of runs says little: 2a alternates
 * rounds engine/bare (BENCH_ROUNDS, default 3) and reports the median of the
 * rounds' ratios. Beside req/s each run reports the server's CPU time per
 * request (user + system of the whole process, from /proc), which depends
 * much less on what else the machine runs than throughput does.
 */

export interface HttpRun {
  requestsPerSecond: number;
  /** The server process's CPU time (all threads) per answered request, in µs. */
  cpuUsPerRequest: number;
  /** The same for its main thread alone (JavaScript, node:http, syscalls; not GC helpers or the thread pool). */
  mainThreadCpuUsPerRequest: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
}

/** One engine run and the bare runs right after it, with the 1-minute load average at its start. */
export interface HttpRound {
  engine: HttpRun;
  bare: HttpRun;
  /** The bare server checking the signature as well (bare-server.ts with the secret). */
  signedBare: HttpRun;
  ratio: number;
  /** signedBare / bare: the most any server that checks Shopify's signature can reach. */
  signedRatio: number;
  loadAverage: number;
}

export interface HttpSpeed {
  rounds: HttpRound[];
  /** Medians over the rounds. */
  ratio: number;
  engineRequestsPerSecond: number;
  bareRequestsPerSecond: number;
  engineCpuUs: number;
  bareCpuUs: number;
  /** Medians of signedBare / bare, engine / signedBare, and signedBare's CPU a request. */
  signedRatio: number;
  engineToSigned: number;
  signedCpuUs: number;
  engineAt1000: HttpRun;
  bareAt1000: HttpRun;
  responseBytes: number;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** CPU seconds (user + system, every thread) a process has used so far (Linux clock ticks: 1/100 s). */
function cpuSeconds(pid: number, mainThread = false): number {
  const stat = readFileSync(
    mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`,
    'utf8',
  );
  // Fields after the command name (which may hold spaces) start at the state, field 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function load(
  url: string,
  body: string,
  headers: Record<string, string>,
  pid: number,
  rate?: number,
): Promise<HttpRun> {
  const cpuBefore = cpuSeconds(pid);
  const mainBefore = cpuSeconds(pid, true);
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    connections: 10,
    duration: 8,
    ...(rate ? { overallRate: rate } : {}),
  });
  const answered = Math.max(1, result.requests.total);
  return {
    requestsPerSecond: result.requests.average,
    cpuUsPerRequest: ((cpuSeconds(pid) - cpuBefore) * 1e6) / answered,
    mainThreadCpuUsPerRequest: ((cpuSeconds(pid, true) - mainBefore) * 1e6) / answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx + result.errors + result.timeouts,
  };
}

/**
 * The built engine with the bench shop (`shadow`: in shadow), its callback
 * URL, a signed body, and a way to stop it all.
 */
async function benchEngine(env: Record<string, string> = {}, shadow = false) {
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
    const snapshot = benchSnapshot('bench.myshopify.com', 0, rateKey);
    await kv.put('bench.myshopify.com', JSON.stringify(shadow ? inShadow(snapshot) : snapshot));
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
    const expected = shadow ? response === '{"rates":[]}' : response.includes('RATESMITH_STANDARD');
    if (sample.status !== 200 || !expected)
      throw new Error(`the engine did not quote: ${sample.status} ${response}`);
    const pid = engine.child.pid!;
    return { url, body, headers, response, rateKey, pid, procs, stop, secret };
  } catch (err) {
    await stop();
    throw err;
  }
}

export async function measureHttpSpeed(
  rounds = Number(process.env.BENCH_ROUNDS ?? 3),
): Promise<HttpSpeed> {
  const dir = mkdtempSync(join(tmpdir(), 'ratesmith-bench-'));
  const engine = await benchEngine();
  try {
    const { url, body, headers, response, rateKey, pid } = engine;
    const barePort = await freePort();
    const responseFile = join(dir, 'response.json');
    writeFileSync(responseFile, response);
    const bare = startNode(join(__dirname, 'bare-server.js'), [String(barePort), responseFile], {});
    engine.procs.push(bare);
    await waitForPort(barePort, 10_000, bare.child);
    const barePid = bare.child.pid!;
    const bareUrl = `http://127.0.0.1:${barePort}/carrier/rates/${rateKey}`;
    const signedPort = await freePort();
    const signed = startNode(
      join(__dirname, 'bare-server.js'),
      [String(signedPort), responseFile, engine.secret],
      {},
    );
    engine.procs.push(signed);
    await waitForPort(signedPort, 10_000, signed.child);
    const signedPid = signed.child.pid!;
    const signedUrl = `http://127.0.0.1:${signedPort}/carrier/rates/${rateKey}`;

    // Warm-up, then the measured rounds, alternating so drift from other load hits both.
    await load(url, body, headers, pid, 500);
    await load(bareUrl, body, headers, barePid, 500);
    await load(signedUrl, body, headers, signedPid, 500);
    const measured: HttpRound[] = [];
    for (let i = 0; i < rounds; i++) {
      const loadAverage = loadavg()[0]!;
      const engineRun = await load(url, body, headers, pid);
      const bareRun = await load(bareUrl, body, headers, barePid);
      const signedRun = await load(signedUrl, body, headers, signedPid);
      measured.push({
        engine: engineRun,
        bare: bareRun,
        signedBare: signedRun,
        ratio: engineRun.requestsPerSecond / bareRun.requestsPerSecond,
        signedRatio: signedRun.requestsPerSecond / bareRun.requestsPerSecond,
        loadAverage,
      });
    }
    const engineAt1000 = await load(url, body, headers, pid, 1000);
    const bareAt1000 = await load(bareUrl, body, headers, barePid, 1000);
    // Every measured callback must have been a quote (200), or the figure measures something else.
    for (const [what, run] of [
      ...measured.map((round, i) => [`engine, round ${i + 1}`, round.engine] as const),
      ...measured.map((round, i) => [`signed bare, round ${i + 1}`, round.signedBare] as const),
      ['engine at 1,000 req/s', engineAt1000] as const,
    ])
      if (run.non2xx > 0) throw new Error(`${what}: ${run.non2xx} answers were not 200`);
    return {
      rounds: measured,
      ratio: median(measured.map((r) => r.ratio)),
      engineRequestsPerSecond: median(measured.map((r) => r.engine.requestsPerSecond)),
      bareRequestsPerSecond: median(measured.map((r) => r.bare.requestsPerSecond)),
      engineCpuUs: median(measured.map((r) => r.engine.cpuUsPerRequest)),
      bareCpuUs: median(measured.map((r) => r.bare.cpuUsPerRequest)),
      signedRatio: median(measured.map((r) => r.signedRatio)),
      engineToSigned: median(
        measured.map((r) => r.engine.requestsPerSecond / r.signedBare.requestsPerSecond),
      ),
      signedCpuUs: median(measured.map((r) => r.signedBare.cpuUsPerRequest)),
      engineAt1000,
      bareAt1000,
      responseBytes: Buffer.byteLength(response),
    };
  } finally {
    await engine.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Each round of a feature off and on, alternating, so drift from other load hits both. */
export interface OnOffLoad {
  off: HttpRun[];
  on: HttpRun[];
}

/**
 * Two built engines side by side, one with `offEnv` and one with the
 * defaults, loaded in alternating rounds after a 500 req/s warm-up of each;
 * at `rate` req/s, or at full load when not given. There is no rules service
 * here: outcome batches fail to send at once and wait in the bounded backlog.
 */
async function measureOnOff(
  offEnv: Record<string, string>,
  rounds: number,
  rate?: number,
  /** The "on" engine's shop is in shadow. */
  shadow = false,
): Promise<OnOffLoad> {
  const off = await benchEngine(offEnv);
  const on = await benchEngine({}, shadow);
  try {
    const result: OnOffLoad = { off: [], on: [] };
    await load(off.url, off.body, off.headers, off.pid, 500);
    await load(on.url, on.body, on.headers, on.pid, 500);
    for (let i = 0; i < rounds; i++) {
      result.off.push(await load(off.url, off.body, off.headers, off.pid, rate));
      result.on.push(await load(on.url, on.body, on.headers, on.pid, rate));
    }
    for (const run of [...result.off, ...result.on])
      if (run.non2xx > 0) throw new Error(`${run.non2xx} answers were not 200`);
    return result;
  } finally {
    await off.stop();
    await on.stop();
  }
}

/**
 * Recent checkouts under load: p99 at 1,000 req/s with sampling off
 * (RECENT_SAMPLE_PER_SECOND=0) and on (the bench shop at the most a merchant
 * may set, 30 a minute).
 */
export const measureRecentLoad = (rounds = 3) =>
  measureOnOff({ RECENT_SAMPLE_PER_SECOND: '0' }, rounds, 1000);

/**
 * Shadow mode under load: p99 at 1,000 req/s of the bench shop answering
 * (off) and of the same shop in shadow (on: no rate answered, and signed
 * callbacks compared after their answer, 50 a second).
 */
export const measureShadowLoad = (rounds = 3) => measureOnOff({}, rounds, 1000, true);

/**
 * Per-filter analytics under load: 2a (the callback at full load,
 * 10 connections, 8 s) with FILTER_ANALYTICS=false and with the default (on).
 */
export const measureAnalyticsLoad = (rounds = 3) =>
  measureOnOff({ FILTER_ANALYTICS: 'false' }, rounds);
