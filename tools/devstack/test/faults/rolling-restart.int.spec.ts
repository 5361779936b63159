import { existsSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import {
  adminClient,
  installWithFlatFee,
  judgedCalls,
  startFaultStack,
  startIngress,
  waitForRate,
  type Exit,
  type FaultStack,
  type Ingress,
} from '../../src/faults';
import type { ServiceName } from '../../src/cluster-services';
import { figuresLine, figuresOf, pacedLoop } from '../../src/load/generate';
import { repoRoot } from '../../src/servers';

/**
 * R11's rolling restart (docs/reliability.md): two processes of every
 * service on one NATS server, an ingress in front of the gateways and the
 * engines (tools/devstack/src/faults/ingress.ts: ready replicas in turn,
 * readiness polled every 100 ms, a refused connect tried once elsewhere),
 * and a paced loop of signed carrier callbacks and admin reads (gateway,
 * then auth and rules over NATS). Each service's replicas are replaced one
 * at a time as a Deployment's rollout does: SIGTERM, wait for the exit, start
 * it again, wait until it is ready, then the next. Every call must be
 * answered right: no accepted request fails, none is refused for good.
 *
 * Short form (npm test): the gateway, the engine and rules. FAULTS_FULL=1:
 * every service, three times over.
 */
const FULL = process.env.FAULTS_FULL === '1';
const ROUNDS = FULL ? 3 : 1;
const ROLLED: ServiceName[] = FULL
  ? ['gateway', 'rate-engine', 'rules', 'auth', 'catalog']
  : ['gateway', 'rate-engine', 'rules'];
const SHUTDOWN_TIMEOUT_MS = 10_000;
const SHOP = 'rolling-restart.myshopify.com';
const DOLLARS = 6;

let stack: FaultStack | undefined;
let rateKey = '';
let gateways: Ingress | undefined;
let engines: Ingress | undefined;
let tokenTimer: NodeJS.Timeout | undefined;
const agent = new Agent({ keepAlive: false });
const calls = judgedCalls({ agent, shop: SHOP, rateKey: () => rateKey, cents: DOLLARS * 100 });

beforeAll(async () => {
  for (const service of ['auth', 'rules', 'catalog', 'rate-engine', 'gateway'])
    if (!existsSync(join(repoRoot, 'services', service, 'dist', 'main.js')))
      throw new Error(`services/${service} is not built: run \`npm run build\` (npm test does)`);
  stack = await startFaultStack({
    demoShops: [SHOP],
    replicas: 2,
    env: { SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) },
  });
  const api = adminClient(stack.gatewayUrl, SHOP, 30_000);
  ({ rateKey } = await installWithFlatFee(api, stack.double, SHOP, DOLLARS));
  // Both engines serve the saved fee before the load starts.
  for (const engine of stack.replicasOf('rate-engine'))
    await waitForRate(engine.url, SHOP, rateKey, DOLLARS * 100, 20_000);
  gateways = startIngress(stack.replicasOf('gateway'));
  engines = startIngress(stack.replicasOf('rate-engine'));
  const refresh = () =>
    gateways!.call(async (url) => {
      const token = await calls.refreshSessionToken(url);
      return { status: token ? 200 : 0, ok: !!token };
    });
  expect((await refresh()).ok).toBe(true);
  tokenTimer = setInterval(() => void refresh(), 20_000);
}, 240_000);

afterAll(async () => {
  clearInterval(tokenTimer);
  gateways?.stop();
  engines?.stop();
  agent.destroy();
  await stack?.stop();
}, 60_000);

interface Replacement {
  replica: string;
  exit: Exit;
  readyAfterMs: number;
}

test(
  `R11: rolling restart of ${ROLLED.join(', ')} (two replicas each, ${ROUNDS} round(s)) under load: ` +
    'every call answered right, every replica exits 0 in time',
  async () => {
    const done = new AbortController();
    const loop = pacedLoop({
      label: 'R11 rolling restart',
      durationMs: FULL ? 1_800_000 : 300_000,
      intervalMs: 25,
      concurrency: 8,
      signal: done.signal,
      call: (i) =>
        i % 2 === 0
          ? engines!.call((url) => calls.callback(url))
          : gateways!.call((url) => calls.adminRead(url)),
    });
    const replacements: Replacement[] = [];
    try {
      await new Promise((r) => setTimeout(r, 2000));
      for (let round = 0; round < ROUNDS; round++) {
        for (const service of ROLLED) {
          for (const replica of stack!.replicasOf(service)) {
            const exit = await replica.terminate(SHUTDOWN_TIMEOUT_MS + 5000);
            const started = Date.now();
            replica.start();
            await replica.waitReady(90_000);
            replacements.push({ replica: replica.id, exit, readyAfterMs: Date.now() - started });
            // As a rollout waits for the new pod to be ready (and a little more) before the next.
            await new Promise((r) => setTimeout(r, 1000));
          }
        }
      }
    } finally {
      done.abort();
    }
    const samples = await loop;
    const wrong = samples.filter((s) => !s.ok);
    process.stdout.write(
      [
        figuresLine(figuresOf('R11 rolling restart, every call', samples)),
        `R11 rolling restart: connects refused and tried on the other replica: gateway ${gateways!.retriedConnects()}, engine ${engines!.retriedConnects()}`,
        ...replacements.map(
          (r) =>
            `R11 rolling restart ${r.replica}: exit code ${r.exit.code} after ${r.exit.ms} ms, ready again after ${r.readyAfterMs} ms`,
        ),
      ].join('\n') + '\n',
    );
    expect(wrong.map((s) => `${s.status}: ${s.error}`)).toEqual([]);
    expect(samples.length).toBeGreaterThan(100);
    for (const r of replacements) {
      expect({ replica: r.replica, code: r.exit.code, signal: r.exit.signal }).toEqual({
        replica: r.replica,
        code: 0,
        signal: null,
      });
      expect(r.exit.ms).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS);
    }
  },
  FULL ? 2_400_000 : 420_000,
);
