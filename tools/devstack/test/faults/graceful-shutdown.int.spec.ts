import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { DEMO_API_SECRET } from '@ratesmith/kit';
import { carrierRateRequest, signBody } from '@ratesmith/shopify-double';
import {
  adminClient,
  installWithFlatFee,
  startFaultStack,
  waitForRate,
  type Exit,
  type FaultStack,
} from '../../src/faults';
import {
  figuresLine,
  figuresOf,
  pacedLoop,
  send,
  type JudgedAnswer,
  type Sample,
} from '../../src/load/generate';
import { repoRoot } from '../../src/servers';

/**
 * R11, graceful shutdown and rolling restarts under load (docs/reliability.md):
 * while a bounded load loop sends signed carrier callbacks to the engine and
 * admin reads through the gateway, each is sent SIGTERM, as Kubernetes stops
 * a pod. /readyz must stop answering 200 at once, the process must exit 0
 * within SHUTDOWN_TIMEOUT_MS, and no request it had accepted may fail; then
 * it is started again and must serve.
 *
 * One process per service here, so after its listener closes a new
 * connection is refused until the restart: an ingress would have sent it to
 * another replica. Those are counted apart ("refused at connect"), never
 * hidden among the answered ones. Every request opens its own connection, so
 * a refusal is only ever a refused connect, not a reused socket the server
 * closed. The loop only targets a service while its process lives or is
 * ready again, as an ingress routes.
 *
 * Short form (npm test): one SIGTERM of each. FAULTS_FULL=1: three rounds.
 */
const FULL = process.env.FAULTS_FULL === '1';
const ROUNDS = FULL ? 3 : 1;
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** How soon after the SIGTERM /readyz must stop answering 200. */
const READYZ_BOUND_MS = 200;
const SHOP = 'graceful-shutdown.myshopify.com';
const DOLLARS = 4;
const TARGETS = ['rate-engine', 'gateway'] as const;
type Target = (typeof TARGETS)[number];

let stack: FaultStack | undefined;
let rateKey = '';
const agent = new Agent({ keepAlive: false });

beforeAll(async () => {
  for (const service of ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'])
    if (!existsSync(join(repoRoot, 'services', service, 'dist', 'main.js')))
      throw new Error(`services/${service} is not built: run \`npm run build\` (npm test does)`);
  stack = await startFaultStack({
    demoShops: [SHOP],
    env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
  });
  const api = adminClient(stack.gatewayUrl, SHOP, 30_000);
  ({ rateKey } = await installWithFlatFee(api, stack.double, SHOP, DOLLARS));
  await waitForRate(stack.engineUrl, SHOP, rateKey, DOLLARS * 100, 20_000);
}, 180_000);

afterAll(async () => {
  agent.destroy();
  await stack?.stop();
}, 60_000);

const refusedAtConnect = (s: { status: number; error?: string }) =>
  s.status === 0 && /ECONNREFUSED/.test(s.error ?? '');

/** A signed carrier callback; right when it answers 200 with the saved fee. */
async function callback(): Promise<JudgedAnswer> {
  const raw = JSON.stringify(carrierRateRequest());
  const s = await send(
    agent,
    {
      label: 'callback',
      method: 'POST',
      url: `${stack!.engineUrl}/carrier/rates/${rateKey}`,
      headers: {
        'content-type': 'application/json',
        'x-shopify-shop-domain': SHOP,
        'x-shopify-hmac-sha256': signBody(raw, DEMO_API_SECRET),
      },
      body: raw,
      readBody: true,
    },
    10_000,
  );
  const price = s.status === 200 ? priceOf(s.body) : undefined;
  return {
    status: s.status,
    ok: s.status === 200 && price === DOLLARS * 100,
    error: s.error ?? (s.status === 200 ? undefined : s.body),
  };
}

function priceOf(body: string | undefined): number | undefined {
  try {
    const rates = (JSON.parse(body ?? '') as { rates?: { total_price?: string }[] }).rates;
    return rates?.[0]?.total_price === undefined ? undefined : Number(rates[0].total_price);
  } catch {
    return undefined;
  }
}

/** The embedded admin's read: a demo session token, then the rulesets list. */
async function adminRead(): Promise<JudgedAnswer> {
  const token = await send(
    agent,
    {
      label: 'token',
      method: 'GET',
      url: `${stack!.gatewayUrl}/demo/session-token?shop=${SHOP}`,
      readBody: true,
    },
    10_000,
  );
  if (token.status !== 200) return { status: token.status, ok: false, error: token.error };
  const s = await send(
    agent,
    {
      label: 'admin read',
      method: 'GET',
      url: `${stack!.gatewayUrl}/api/global-rules`,
      headers: {
        authorization: `Bearer ${(JSON.parse(token.body!) as { token: string }).token}`,
      },
      readBody: true,
    },
    10_000,
  );
  return { status: s.status, ok: s.status === 200, error: s.error ?? s.body?.slice(0, 200) };
}

/**
 * Polls /readyz from the SIGTERM on until it stops answering 200 (503, or the
 * port already closed: 0); its first such answer and how long that took. The
 * signal and the first probe can cross in the process's event loop, so "at
 * once" is a bound, not the very first probe.
 */
async function readyzTurns(name: Target): Promise<{ status: number; ms: number }> {
  const port = stack!.service(name).ports.health;
  const started = Date.now();
  for (;;) {
    const s = await send(
      agent,
      { label: 'readyz', method: 'GET', url: `http://127.0.0.1:${port}/readyz` },
      2000,
    );
    if (s.status !== 200 || Date.now() - started > READYZ_BOUND_MS)
      return { status: s.status, ms: Date.now() - started };
    await new Promise((r) => setTimeout(r, 5));
  }
}

interface Stop {
  service: Target;
  /** When the SIGTERM was sent, from the loop's start. */
  at: number;
  exit: Exit;
  /** /readyz's first answer other than 200 after the SIGTERM (0: the port was closed), and when. */
  readyz: { status: number; ms: number };
  restartMs: number;
}

test(
  `R11: SIGTERM of the engine and the gateway under load (${ROUNDS} round(s)): ` +
    'no accepted request fails, /readyz 503 at once, exit 0 in time, serves after a restart',
  async () => {
    // An ingress routes to a service while its process lives, and again once it is ready.
    const routed: Record<Target, boolean> = { 'rate-engine': true, gateway: true };
    const done = new AbortController();
    const started = Date.now();
    const loop = pacedLoop({
      label: 'R11 callbacks and admin reads',
      durationMs: FULL ? 600_000 : 50_000,
      intervalMs: 25,
      concurrency: 8,
      signal: done.signal,
      call: (i) => {
        const preferred: Target = i % 2 === 0 ? 'rate-engine' : 'gateway';
        const target = routed[preferred] ? preferred : TARGETS.find((t) => t !== preferred)!;
        return target === 'rate-engine' ? callback() : adminRead();
      },
    });
    const stops: Stop[] = [];
    try {
      // Traffic before the first stop: both answer.
      await new Promise((r) => setTimeout(r, 2000));
      for (let round = 0; round < ROUNDS; round++) {
        for (const service of TARGETS) {
          const at = Date.now() - started;
          const exiting = stack!.terminate(service, SHUTDOWN_TIMEOUT_MS + 5000);
          const firstReadyz = await readyzTurns(service);
          const exit = await exiting;
          routed[service] = false;
          const restarted = Date.now();
          stack!.service(service).start();
          await stack!.service(service).waitReady(90_000);
          routed[service] = true;
          stops.push({ service, at, exit, readyz: firstReadyz, restartMs: Date.now() - restarted });
          // It serves again: the next call of its kind is answered right.
          const again = service === 'rate-engine' ? await callback() : await adminRead();
          expect({ service, ...again, error: again.ok ? undefined : again.error }).toEqual({
            service,
            status: 200,
            ok: true,
            error: undefined,
          });
          await new Promise((r) => setTimeout(r, 1500));
        }
      }
    } finally {
      done.abort();
    }
    const samples = await loop;
    report(samples, stops);

    for (const stop of stops) {
      expect({ service: stop.service, code: stop.exit.code, signal: stop.exit.signal }).toEqual({
        service: stop.service,
        code: 0,
        signal: null,
      });
      expect(stop.exit.ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
      expect({ service: stop.service, ready: stop.readyz.status === 200 }).toEqual({
        service: stop.service,
        ready: false,
      });
      expect(stop.readyz.ms).toBeLessThanOrEqual(READYZ_BOUND_MS);
    }
    const acceptedFailures = samples.filter((s) => s.ok === false && !refusedAtConnect(s));
    expect(acceptedFailures.map((s) => `${s.status} at ${s.at} ms: ${s.error}`)).toEqual([]);
    expect(samples.filter((s) => s.ok).length).toBeGreaterThan(100);
  },
  FULL ? 900_000 : 120_000,
);

function report(samples: Sample[], stops: Stop[]) {
  const answered = samples.filter((s) => !refusedAtConnect(s));
  const refused = samples.length - answered.length;
  const lines = [figuresLine(figuresOf('R11 answered (accepted) requests', answered))];
  lines.push(`R11 refused at connect (no listener, an ingress would route elsewhere): ${refused}`);
  for (const stop of stops) {
    // Requests that had started before the SIGTERM and ended after it: what the drain carried.
    const inFlight = samples.filter(
      (s) => s.at! <= stop.at && s.at! + s.ms > stop.at && !refusedAtConnect(s),
    );
    lines.push(
      `R11 SIGTERM ${stop.service} at ${stop.at} ms: /readyz ${stop.readyz.status || 'refused'} after ${stop.readyz.ms} ms, ` +
        `exit code ${stop.exit.code} after ${stop.exit.ms} ms, ${inFlight.length} in flight ` +
        `(${inFlight.filter((s) => s.ok).length} answered right), ready again ${stop.restartMs} ms after restart`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
