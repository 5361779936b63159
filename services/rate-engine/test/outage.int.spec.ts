import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import { SNAPSHOT_BUCKET } from '@ratesmith/contracts';
import {
  freePort,
  newBusUsers,
  repoRoot,
  startNatsServer,
  stopProcess,
  type RunningServer,
} from '@ratesmith/devstack';
import { connectNats, createLogger } from '@ratesmith/kit';
import { always, CART_A, filter, request, snapshot, standard } from './fixtures/cases';
import { callCarrier, newRateKey, SECRET, waitFor } from './helpers';

/**
 * The built rate engine as Kubernetes runs it, through a real 30-second NATS
 * outage (research/reliability.md R2, R3, R12): every request for a cached
 * shop is answered correctly while nats-server is down, liveness and
 * readiness stay green, and after NATS is back the watch catches up.
 */
const main = join(repoRoot, 'services', 'rate-engine', 'dist', 'main.js');
const logger = createLogger('test', 'silent');
const OUTAGE_MS = 30_000;

/** NATS locked down as in production: the engine and the publisher each as their own user. */
const users = newBusUsers();
let nats: RunningServer;
let natsDir: string;
let engine: ChildProcess;
let output = '';
let healthPort: number;
let baseUrl: string;
const shops = ['one', 'two', 'three'].map((name, i) => ({
  shop: `${name}.myshopify.com`,
  rateKey: newRateKey(),
  cents: (i + 1) * 100,
}));

async function publish(shop: string, rateKey: string, version: number, cents: number) {
  // Snapshots are written by the rules service's user: the engine's may only read them.
  const nc = await connectNats({
    url: nats.url,
    name: 'rules',
    logger,
    nkeySeed: users.rules.seed,
  });
  try {
    const kv = await new Kvm(nc).create(SNAPSHOT_BUCKET, { history: 1 });
    await kv.put(
      shop,
      JSON.stringify({
        ...snapshot({ filters: [filter(always(), 1, cents / 100)] }),
        shop,
        version,
        rateKey,
      }),
    );
  } finally {
    await nc.close();
  }
}

async function status(path: string): Promise<number> {
  try {
    return (await fetch(`http://127.0.0.1:${healthPort}${path}`)).status;
  } catch {
    return 0;
  }
}

beforeAll(async () => {
  if (!existsSync(main))
    throw new Error('services/rate-engine is not built: run `npm run build` (npm test does)');
  natsDir = mkdtempSync(join(tmpdir(), 'ratesmith-nats-'));
  nats = await startNatsServer({ storeDir: natsDir, users });
  for (const s of shops) await publish(s.shop, s.rateKey, 1, s.cents);
  healthPort = await freePort();
  const carrierPort = await freePort();
  baseUrl = `http://127.0.0.1:${carrierPort}`;
  engine = spawn(process.execPath, [main], {
    env: {
      PATH: process.env.PATH ?? '',
      NATS_URL: nats.url,
      NATS_NKEY_SEED: users['rate-engine'].seed,
      HEALTH_PORT: String(healthPort),
      CARRIER_PORT: String(carrierPort),
      SHOPIFY_API_SECRET: SECRET,
      LOG_LEVEL: 'info',
      OTEL_SDK_DISABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  engine.stdout!.on('data', (d) => (output += d));
  engine.stderr!.on('data', (d) => (output += d));
  await waitFor(async () => (await status('/readyz')) === 200, 20_000);
}, 60_000);

afterAll(async () => {
  if (engine) await stopProcess(engine, 5000);
  await nats?.stop();
  if (natsDir) rmSync(natsDir, { recursive: true, force: true });
});

it(
  'answers 100% of requests from its cache through a 30 s NATS outage, then catches up',
  async () => {
    const body = request(CART_A);
    // Warm the cache.
    for (const s of shops) {
      expect((await callCarrier(baseUrl, s.rateKey, body)).json).toEqual({
        rates: [standard(s.cents)],
      });
    }

    await nats.stop();
    const results: { ok: boolean; ms: number }[] = [];
    const probes: number[] = [];
    const until = Date.now() + OUTAGE_MS;
    let i = 0;
    while (Date.now() < until) {
      const s = shops[i++ % shops.length]!;
      const started = Date.now();
      const res = await callCarrier(baseUrl, s.rateKey, body).catch(() => undefined);
      results.push({
        ok: res?.status === 200 && res.json.rates[0]?.total_price === String(s.cents),
        ms: Date.now() - started,
      });
      if (i % 25 === 0) probes.push(await status('/livez'), await status('/readyz'));
      await new Promise((r) => setTimeout(r, 20));
    }
    const failed = results.filter((r) => !r.ok).length;
    const slowest = Math.max(...results.map((r) => r.ms));
    // Requests one after another all through the outage: at most 120 ms apart on average
    // (20 ms of pause each), on a machine busy with another test file.
    expect(results.length).toBeGreaterThan(250);
    expect({ failed, slowestUnder1s: slowest < 1000 }).toEqual({ failed: 0, slowestUnder1s: true });
    expect(probes.every((p) => p === 200)).toBe(true);

    // Answers during the outage are counted as stale.
    const metrics = await (await fetch(`http://127.0.0.1:${healthPort}/metrics`)).text();
    expect(metrics).toMatch(/ratesmith_carrier_requests_total\{[^}]*stale="true"[^}]*\} \d+/);

    // NATS comes back on the same port and data: a new version reaches the engine.
    nats = await startNatsServer({ port: nats.port, storeDir: natsDir, users });
    const restarted = Date.now();
    await publish(shops[0]!.shop, shops[0]!.rateKey, 2, 4200);
    await waitFor(
      async () =>
        (await callCarrier(baseUrl, shops[0]!.rateKey, body)).json?.rates?.[0]?.total_price ===
        '4200',
      10_000,
    );
    expect(Date.now() - restarted).toBeLessThan(10_000);
    // A shop it never saw before is learnt from the watch too.
    const late = { shop: 'late.myshopify.com', rateKey: newRateKey() };
    await publish(late.shop, late.rateKey, 1, 700);
    await waitFor(
      async () => (await callCarrier(baseUrl, late.rateKey, body)).status === 200,
      10_000,
    );
    expect((await callCarrier(baseUrl, late.rateKey, body)).json).toEqual({
      rates: [standard(700)],
    });
    expect(engine.exitCode).toBeNull();
  },
  OUTAGE_MS + 60_000,
);

it('stops on SIGTERM with exit code 0', async () => {
  const exited = new Promise<number | null>((resolve) =>
    engine.once('exit', (code) => resolve(code)),
  );
  engine.kill('SIGTERM');
  expect([await exited, output.includes('"level":"error"') ? output : '']).toEqual([0, '']);
}, 20_000);
