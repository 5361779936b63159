import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import {
  adminClient,
  installWithFlatFee,
  judgedCalls,
  refusedAtConnect,
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
 * hidden among the answered ones; so are loop requests sent after the
 * SIGTERM whose connection was reset unanswered (the server no longer read
 * them). A burst sent 100 ms before each SIGTERM must be answered right in
 * full: that is the drain. Every request opens its own connection, so no
 * reused socket the server closed is mistaken for a failure. The loop only
 * targets a service while its process lives or is ready again, as an
 * ingress routes.
 *
 * Short form (npm test): one SIGTERM of each. FAULTS_FULL=1: three rounds.
 */
const FULL = process.env.FAULTS_FULL === '1';
const ROUNDS = FULL ? 3 : 1;
const SHUTDOWN_TIMEOUT_MS = 10_000;
/**
 * How soon after the SIGTERM /readyz must stop answering 200. The service
 * flips it synchronously on the signal (10-80 ms measured on a quiet
 * machine); the bound leaves room for a loaded two-core machine, where the
 * probe itself waits its turn (about 470 ms seen at load average 15).
 */
const READYZ_BOUND_MS = 1000;
const BURST = 16;
/**
 * How long before the SIGTERM the burst is sent: long enough that the
 * server has had each request for a while (p50 is a few ms), short enough
 * that some are still being answered when the signal lands.
 */
const BURST_LEAD_MS = 100;
const SHOP = 'graceful-shutdown.myshopify.com';
const DOLLARS = 4;
const TARGETS = ['rate-engine', 'gateway'] as const;
type Target = (typeof TARGETS)[number];

let stack: FaultStack | undefined;
let rateKey = '';
const agent = new Agent({ keepAlive: false });
let tokenTimer: NodeJS.Timeout | undefined;
const calls = judgedCalls({ agent, shop: SHOP, rateKey: () => rateKey, cents: DOLLARS * 100 });
const callback = () => calls.callback(stack!.engineUrl);
const adminRead = () => calls.adminRead(stack!.gatewayUrl);
const refreshSessionToken = () => calls.refreshSessionToken(stack!.gatewayUrl);

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
  expect(await refreshSessionToken()).not.toBe('');
  // Session tokens last a minute: a fresh one every 20 s, while the gateway is up.
  tokenTimer = setInterval(() => void refreshSessionToken(), 20_000);
}, 180_000);

afterAll(async () => {
  clearInterval(tokenTimer);
  agent.destroy();
  await stack?.stop();
}, 60_000);

/**
 * A loop request that started after its target's SIGTERM, before the exit,
 * and whose connection was reset unanswered: the listener had closed, or
 * the connection opened but its request was not read yet when the server
 * closed its idle connections. Counted apart, like a refused connect.
 */
const resetDuringShutdown = (s: Sample, stops: Stop[]) =>
  s.status === 0 &&
  /ECONNRESET|socket hang up/.test(s.error ?? '') &&
  stops.some(
    (stop) =>
      s.error!.startsWith(`${stop.service}: `) &&
      s.at! >= stop.at &&
      s.at! <= stop.at + stop.exit.ms,
  );

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
  /** The burst sent BURST_LEAD_MS before the signal. */
  burst: (JudgedAnswer & { endedAt: number })[];
}

test(
  `R11: SIGTERM of the engine and the gateway under load (${ROUNDS} round(s)): ` +
    'no request sent before the signal lost, /readyz 503 at once, exit 0 in time, serves after a restart',
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
        // The target in the error says whose shutdown a reset belongs to.
        return (target === 'rate-engine' ? callback() : adminRead()).then((a) => ({
          ...a,
          error: a.error === undefined ? undefined : `${target}: ${a.error}`,
        }));
      },
    });
    const stops: Stop[] = [];
    try {
      // Traffic before the first stop: both answer.
      await new Promise((r) => setTimeout(r, 2000));
      for (let round = 0; round < ROUNDS; round++) {
        for (const service of TARGETS) {
          // A burst just before the signal, so the drain has requests to carry, not only the loop's one or two.
          const burst = Array.from({ length: BURST }, () =>
            (service === 'rate-engine' ? callback() : adminRead()).then((a) => ({
              ...a,
              endedAt: Date.now() - started,
            })),
          );
          await new Promise((r) => setTimeout(r, BURST_LEAD_MS));
          const at = Date.now() - started;
          const exiting = stack!.terminate(service, SHUTDOWN_TIMEOUT_MS + 5000);
          const firstReadyz = await readyzTurns(service);
          const exit = await exiting;
          const burstAnswers = await Promise.all(burst);
          routed[service] = false;
          const restarted = Date.now();
          stack!.service(service).start();
          await stack!.service(service).waitReady(90_000);
          routed[service] = true;
          stops.push({
            service,
            at,
            exit,
            readyz: firstReadyz,
            restartMs: Date.now() - restarted,
            burst: burstAnswers,
          });
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
    expect(failuresOf(samples, stops)).toEqual([]);
    expect(samples.filter((s) => s.ok).length).toBeGreaterThan(100);
  },
  FULL ? 900_000 : 120_000,
);

/**
 * Every answer that arrived must be right, and neither service may lose a
 * request it was sent before its SIGTERM: the listener stays open through the
 * drain (`closeServer` in services/kit/src/health.ts), so only connects after
 * it closed are refused, or reset in the instant of the close; those are
 * counted apart, as an ingress would route them to another replica.
 */
type Outcome = { status: number; ok?: boolean; error?: string };

function failuresOf(samples: Sample[], stops: Stop[]): string[] {
  const lost = (s: Outcome) => s.ok === false && !refusedAtConnect(s);
  const loopLost = samples.filter((s) => lost(s) && !resetDuringShutdown(s, stops));
  const burstLost = stops.flatMap((stop) =>
    stop.burst.filter(lost).map((s) => ({ ...s, error: `${stop.service}: ${s.error}` })),
  );
  return [...loopLost, ...burstLost].map((s) => `${s.status}: ${s.error}`);
}

function report(samples: Sample[], stops: Stop[]) {
  const answered = samples.filter((s) => !refusedAtConnect(s) && !resetDuringShutdown(s, stops));
  const refused = samples.filter(refusedAtConnect).length;
  const reset = samples.filter((s) => resetDuringShutdown(s, stops)).length;
  const lines = [figuresLine(figuresOf('R11 answered (accepted) requests', answered))];
  lines.push(
    `R11 refused at connect (no listener, an ingress would route elsewhere): ${refused}; ` +
      `reset unanswered, sent after the SIGTERM: ${reset}`,
  );
  for (const stop of stops) {
    // Requests that had started before the SIGTERM and ended after it: what the drain carried.
    const inFlight = samples.filter(
      (s) => s.at! <= stop.at && s.at! + s.ms > stop.at && !refusedAtConnect(s),
    );
    lines.push(
      `R11 SIGTERM ${stop.service} at ${stop.at} ms: /readyz ${stop.readyz.status || 'refused'} after ${stop.readyz.ms} ms, ` +
        `exit code ${stop.exit.code} after ${stop.exit.ms} ms, ${inFlight.length} in flight ` +
        `(${inFlight.filter((s) => s.ok).length} answered right), burst of ${BURST} ${BURST_LEAD_MS} ms before: ` +
        `${stop.burst.filter((s) => s.ok).length} answered right, ` +
        `${stop.burst.filter((s) => s.endedAt > stop.at).length} of them still open at the SIGTERM, ` +
        `${stop.burst.filter(refusedAtConnect).length} refused at connect; ` +
        `ready again ${stop.restartMs} ms after restart`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}
