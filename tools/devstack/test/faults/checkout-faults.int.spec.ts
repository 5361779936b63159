import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  adminClient,
  carrierCallback,
  flatFeeFilter,
  installWithFlatFee,
  startFaultStack,
  waitForRate,
  type AdminClient,
  type FaultStack,
} from '../../src/faults';
import { figuresLine, figuresOf, pacedLoop, type RouteFigures } from '../../src/load/generate';
import { repoRoot } from '../../src/servers';

/**
 * Checkout under faults, with the built services as processes
 * (docs/reliability.md: R2, R4, R5, R6, R12): while one dependency of the rate engine is
 * down or frozen, signed carrier callbacks keep coming, and every one must
 * be answered 200 with the shop's saved rate. After each fault a new save
 * must reach checkout. The NATS kill itself is
 * services/rate-engine/test/outage.int.spec.ts (same claim, engine alone);
 * here NATS is frozen instead (no reset, just silence).
 *
 * Short form in `npm test` (6 s faults, generous latency bounds); the full
 * form (`npm run test:faults`, FAULTS_FULL=1: 30 s faults) also checks the
 * strict targets: p99 ≤ 1.5 s, max ≤ 2.5 s, ready ≤ 5 s after NATS returns.
 */
const FULL = process.env.FAULTS_FULL === '1';
const FAULT_MS = FULL ? 30_000 : 6_000;
const SHOP = 'faults-checkout.myshopify.com';
/** Bounds the short form holds on a loaded 2-core machine; the full form holds the targets. */
const MAX_MS = FULL ? 2_500 : 5_000;
const P99_MS = FULL ? 1_500 : 3_000;
const READY_AFTER_NATS_MS = FULL ? 5_000 : 20_000;

let stack: FaultStack | undefined;
let api: AdminClient;
let rateKey = '';
let rulesetId = '';
let dollars = 3;
const figures: Record<string, RouteFigures> = {};

beforeAll(async () => {
  for (const service of ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'])
    if (!existsSync(join(repoRoot, 'services', service, 'dist', 'main.js')))
      throw new Error(`services/${service} is not built: run \`npm run build\` (npm test does)`);
  stack = await startFaultStack({ demoShops: [SHOP] });
  api = adminClient(stack.gatewayUrl, SHOP);
  ({ rulesetId, rateKey } = await installWithFlatFee(api, stack.double, SHOP, dollars));
  await waitForRate(stack.engineUrl, SHOP, rateKey, dollars * 100, 20_000);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  for (const f of Object.values(figures)) process.stdout.write(`${figuresLine(f)}\n`);
}, 60_000);

/** Signed callbacks for the fault's length (about 25 a second); every answer must be the saved rate. */
async function callbacksFor(label: string, ms = FAULT_MS): Promise<RouteFigures> {
  const cents = dollars * 100;
  const answers = await pacedLoop({
    label,
    durationMs: ms,
    intervalMs: 40,
    concurrency: 4,
    call: async () => {
      const a = await carrierCallback(stack!.engineUrl, SHOP, rateKey);
      return {
        status: a.status,
        ok: a.status === 200 && a.cents === cents,
        error: a.error ?? `cents ${a.cents}`,
      };
    },
  });
  const f = figuresOf(label, answers);
  figures[label] = f;
  return f;
}

/** A new fee saved through the admin reaches checkout: the pipeline works again after the fault. */
async function saveReachesCheckout(timeoutMs = 20_000): Promise<number> {
  // The saved fee moves on only once accepted: a failed save leaves the next test's checks true.
  const next = dollars + 1;
  const deadline = Date.now() + timeoutMs;
  // Right after a restart a save may meet a dependency still reconnecting: retry as the merchant would.
  for (;;) {
    const saved = await api(`/api/global-rules/update/${rulesetId}`, {
      body: { rules: [flatFeeFilter(next)] },
    });
    if (saved.status === 200) break;
    if (Date.now() > deadline)
      // Seen once in a whole run, not alone: the services' own words go with the failure.
      throw new Error(
        `save not accepted: ${JSON.stringify(saved)}\nrules ${stack!.service('rules').logTail()}\ngateway ${stack!.service('gateway').logTail(10)}`,
      );
    await new Promise((r) => setTimeout(r, 500));
  }
  dollars = next;
  return waitForRate(stack!.engineUrl, SHOP, rateKey, dollars * 100, timeoutMs);
}

function expectAllAnswered(f: RouteFigures) {
  expect(f.count).toBeGreaterThan(FAULT_MS / 200);
  expect({ failures: f.failures, statuses: f.statuses }).toEqual({
    failures: 0,
    statuses: { 200: f.count },
  });
  expect(f.max).toBeLessThanOrEqual(MAX_MS);
  expect(f.p99).toBeLessThanOrEqual(P99_MS);
}

const TEST_MS = FAULT_MS + 90_000;

test(
  'R4: every callback answered through a MongoDB outage (FerretDB killed), saves reach checkout after',
  async () => {
    await stack!.mongo.kill();
    const f = await callbacksFor('R4 MongoDB killed');
    await stack!.mongo.restart();
    expectAllAnswered(f);
    await saveReachesCheckout();
  },
  TEST_MS,
);

test(
  'R4: every callback answered through a rules outage (rules killed)',
  async () => {
    await stack!.service('rules').kill();
    const f = await callbacksFor('R4 rules killed');
    stack!.service('rules').start();
    await stack!.service('rules').waitReady(60_000);
    expectAllAnswered(f);
    await saveReachesCheckout();
  },
  TEST_MS,
);

test(
  'R4: every callback answered while the rules service is frozen (SIGSTOP)',
  async () => {
    stack!.freeze('rules');
    let f: RouteFigures;
    try {
      f = await callbacksFor('R4 rules frozen');
    } finally {
      stack!.thaw('rules');
    }
    expectAllAnswered(f);
    await saveReachesCheckout();
  },
  TEST_MS,
);

test(
  'R2/R6: every callback answered from memory while NATS is frozen (no reset, just silence)',
  async () => {
    stack!.nats.freeze();
    let f: RouteFigures;
    try {
      f = await callbacksFor('R2/R6 NATS frozen');
    } finally {
      stack!.nats.thaw();
    }
    expectAllAnswered(f);
    await saveReachesCheckout();
  },
  TEST_MS,
);

test(
  'R5/R12: a cold start with NATS down never crash-loops, stays live, and is ready soon after NATS returns',
  async () => {
    const engine = stack!.service('rate-engine');
    await engine.kill();
    await stack!.nats.kill();
    engine.start();
    // What Shopify meets meanwhile: the callback port is not open until the snapshots are read,
    // so the connection is refused at once (no wait) and Shopify shows the shop's backup rates.
    const health = `http://127.0.0.1:${engine.ports.health}`;
    const probe = (path: string) =>
      fetch(`${health}${path}`, { signal: AbortSignal.timeout(2000) })
        .then((r) => r.status)
        .catch(() => 0);
    const seen = {
      callbacks: new Set<string>(),
      livez: new Set<number>(),
      readyz: new Set<number>(),
    };
    // Node loads the service's modules first (several seconds on a busy machine): from the
    // moment its health server listens, liveness must hold.
    const loading = Date.now();
    while ((await probe('/healthz')) !== 200) {
      expect(engine.running()).toBe(true);
      if (Date.now() - loading > 60_000) throw new Error('the health server never listened');
      await new Promise((r) => setTimeout(r, 100));
    }
    process.stdout.write(
      `R5 cold start: health server up ${Date.now() - loading} ms after spawn\n`,
    );
    const started = Date.now();
    while (Date.now() - started < FAULT_MS) {
      const a = await carrierCallback(stack!.engineUrl, SHOP, rateKey, 5000);
      seen.callbacks.add(
        a.status === 0 ? `refused in <${a.ms < 1000 ? '1' : '5'} s` : String(a.status),
      );
      seen.livez.add(await probe('/healthz'));
      seen.readyz.add(await probe('/readyz'));
      expect(engine.running()).toBe(true);
      await new Promise((r) => setTimeout(r, 200));
    }
    process.stdout.write(
      `R5 cold start, NATS down ${FAULT_MS} ms: callbacks ${[...seen.callbacks]}, /healthz ${[...seen.livez]}, /readyz ${[...seen.readyz]}\n`,
    );
    expect({
      callbacks: [...seen.callbacks],
      livez: [...seen.livez],
      readyz: [...seen.readyz],
    }).toEqual({
      callbacks: ['refused in <1 s'],
      livez: [200],
      readyz: [503],
    });

    await stack!.nats.restart();
    const back = Date.now();
    await engine.waitReady(60_000);
    const readyMs = Date.now() - back;
    const ratedMs = await waitForRate(stack!.engineUrl, SHOP, rateKey, dollars * 100, 60_000);
    process.stdout.write(`R5 ready ${readyMs} ms after NATS returned, rated ${ratedMs} ms later\n`);
    expect(readyMs).toBeLessThanOrEqual(READY_AFTER_NATS_MS);
    expect(engine.running()).toBe(true);
    await saveReachesCheckout();
  },
  TEST_MS + 60_000,
);
